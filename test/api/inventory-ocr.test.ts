// The label reader: real tesseract.js with the English data from node_modules (no network), on
// label photos rendered at test time: a sharp one, one stored sideways with EXIF orientation, one
// too small and blurred to read; its time budget, and close().
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { LabelOcr, meaningfulChars, OCR_NICE, OcrTimeoutError, prepareForOcr } from '../../server/modules/home-inventory/ocr.js';
import { createMemoryLogger } from '../../server/platform/logger.js';
import { startTestServer } from '../harness/start-server.js';
import { blurryLabelJpeg, labelJpeg, sidewaysLabelJpeg, WASHER_PLATE } from '../fixtures/inventory/labels.js';

describe('label OCR', () => {
  const logger = createMemoryLogger();
  const ocr = new LabelOcr({ logger });
  afterAll(() => ocr.close());

  it('reads the model and serial of a rendered rating plate exactly, with its confidence', async () => {
    const r = await ocr.read(await labelJpeg());
    const lines = r.text.split('\n');
    expect(lines).toContain(`Model: ${WASHER_PLATE.model}`);
    expect(lines).toContain(`Serial No: ${WASHER_PLATE.serial}`);
    expect(r.text).toContain(WASHER_PLATE.brand);
    expect(r.confidence).toBeGreaterThan(0.7);
    expect(r.confidence).toBeLessThanOrEqual(1);
    expect(r.meaningfulChars).toBe(meaningfulChars(r.text));
    expect(r.meaningfulChars).toBeGreaterThan(40);
  });

  it('turns a photo taken sideways upright by its EXIF orientation before reading', async () => {
    const sideways = await sidewaysLabelJpeg();
    const meta = await sharp(sideways).metadata();
    expect(meta.orientation).toBe(6);
    expect(meta.height).toBeGreaterThan(meta.width!);
    const prepared = await sharp(await prepareForOcr(sideways)).metadata();
    expect(prepared.width).toBeGreaterThan(prepared.height!);
    expect(prepared.channels).toBe(1);
    const r = await ocr.read(sideways);
    expect(r.text.split('\n')).toContain(`Serial No: ${WASHER_PLATE.serial}`);
  });

  it('reads next to nothing from a tiny blurred photo (identify then asks the vision model)', async () => {
    const r = await ocr.read(await blurryLabelJpeg());
    expect(r.meaningfulChars).toBeLessThan(20);
    // enlarged before reading, so tesseract sees letters of a usable size
    expect((await sharp(await prepareForOcr(await blurryLabelJpeg())).metadata()).width).toBe(360);
  });

  it('reads one image at a time, in the order asked', async () => {
    const [a, b] = await Promise.all([ocr.read(await labelJpeg()), ocr.read(await labelJpeg({ ...WASHER_PLATE, serial: 'SN1111122222' }))]);
    expect(a.text).toContain(WASHER_PLATE.serial);
    expect(b.text).toContain('SN1111122222');
  });

  // Linux keeps a nice value per thread: the reading thread gives way to the one answering requests
  it.runIf(process.platform === 'linux')('reads in a worker thread of lower priority, the calling thread keeping its own', async () => {
    const niceOfThreads = () =>
      readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        // the fields after the command's closing parenthesis: state is the first, nice the 17th
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      });
    const own = getPriority(0);
    expect(own).toBeLessThan(OCR_NICE);
    const fresh = new LabelOcr({ logger });
    try {
      const before = niceOfThreads().filter((n) => n === OCR_NICE).length;
      expect((await fresh.read(await labelJpeg())).text).toContain(WASHER_PLATE.model);
      expect(niceOfThreads().filter((n) => n === OCR_NICE).length).toBe(before + 1);
      expect(getPriority(0)).toBe(own);
    } finally {
      await fresh.close();
    }
  });

  it('refuses a file that is not a picture with a sentence', async () => {
    await expect(ocr.read(Buffer.from('not a picture at all'))).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/cannot read that picture/) });
  });

  it('ends an image past its budget with a sentence and reads the next one with a new worker', async () => {
    const slow = new LabelOcr({ logger, budgetMs: 1 });
    try {
      const err = await slow.read(await labelJpeg()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OcrTimeoutError);
      expect(err).toMatchObject({ status: 504, code: 'ocr_timeout', message: expect.stringMatching(/took too long/) });
      expect(logger.lines.some((l) => /replaced/.test(String(l.msg)))).toBe(true);
      slow.budgetMs = 20_000;
      expect((await slow.read(await labelJpeg())).text).toContain(WASHER_PLATE.model);
    } finally {
      await slow.close();
    }
  });

  it('close() ends the image being read and refuses new ones', async () => {
    const closing = new LabelOcr({ logger });
    const reading = closing.read(await labelJpeg()).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    await closing.close();
    expect(await reading).toMatchObject({ status: 503, code: 'shutting_down' });
    await expect(closing.read(await labelJpeg())).rejects.toMatchObject({ status: 503 });
  });
});

describe('label OCR in the server', () => {
  it('is closed by the server\'s close(), its worker ended', async () => {
    const s = await startTestServer({ waitForBoot: false });
    const ocr = s.handle.deps.homeOcr;
    expect((await ocr.read(await labelJpeg())).text).toContain(WASHER_PLATE.serial);
    await s.close();
    await expect(ocr.read(await labelJpeg())).rejects.toMatchObject({ status: 503, code: 'shutting_down' });
  });
});
