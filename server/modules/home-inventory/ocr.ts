// Reading a rating plate's text on the Hearth computer: tesseract.js (WebAssembly in a worker
// thread) with the English data shipped in @tesseract.js-data/eng, so it works on every OS and with
// no internet (the core and the data are read from node_modules, never from a CDN). One long-lived
// worker, started on first use, reads one image at a time; an image that takes longer than its
// budget terminates the worker (a new one starts for the next image). The picture is prepared with
// sharp first: EXIF orientation applied, greyscale, contrast stretched, small photos enlarged and
// huge ones reduced, so the time per label stays about the same. On Linux the worker thread runs at
// a lower priority than the HTTP server's (OCR_NICE): reading a label is seconds of CPU, and on a
// 2-core machine it took its share from the thread answering every other request (issue 29: reads
// at p99 0.65-1.1 s during an identify).
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type * as Tesseract from 'tesseract.js';
import type { Worker } from 'tesseract.js';
import { AppError, BadRequestError } from '../../errors.js';
import { lazyRequire } from '../../platform/lazy.js';
import type { Logger } from '../../platform/logger.js';
import { loadSharp } from './files.js';

/** tesseract.js, required when the first label is read (not at start). */
const loadTesseract = lazyRequire<typeof Tesseract>('tesseract.js');
const loadEng = lazyRequire<{ langPath: string; gzip: boolean }>('@tesseract.js-data/eng');

/**
 * In Node the worker script and the WebAssembly core are required from node_modules; the language
 * data is the one thing tesseract.js would fetch (from a CDN) if its path were not a local folder.
 */
function localEng(): { langPath: string; gzip: boolean } {
  const eng = loadEng();
  if (/^[a-z]+:\/\//i.test(eng.langPath)) throw new Error('the OCR language data must be a local folder');
  return eng;
}

/**
 * The OCR thread's nice value on Linux, where a thread's nice value is its own (on macOS and Windows
 * setPriority(0) would change the whole process, so there the thread keeps the process's priority).
 * 10 leaves it about a tenth of a core the HTTP thread also wants, and all of an idle one.
 */
export const OCR_NICE = 10;

/**
 * The script the OCR worker thread runs: tesseract.js's own Node worker script, entered through a
 * first line that lowers the thread's priority (Linux only; undefined elsewhere: the default script).
 */
export function ocrWorkerPath(platform: NodeJS.Platform = process.platform): URL | undefined {
  if (platform !== 'linux') return undefined;
  const script = pathToFileURL(createRequire(import.meta.url).resolve('tesseract.js/src/worker-script/node/index.js')).href;
  const code = `import { setPriority } from 'node:os';\ntry { setPriority(0, ${OCR_NICE}); } catch { /* not permitted: the thread keeps the process's priority */ }\nawait import(${JSON.stringify(script)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/** One label's reading budget (a plate photo takes ~0.5 s here; a start of the worker ~0.3 s more). */
export const OCR_BUDGET_MS = 20_000;
/** Pictures narrower than this are enlarged (tesseract wants ~30 px letters). */
const MIN_WIDTH = 1_600;
/** And wider than this reduced: bigger costs time and reads no better. */
const MAX_SIDE = 2_400;

export interface OcrResult {
  /** The text as read, lines kept, blank lines dropped. */
  text: string;
  /** Tesseract's mean word confidence, 0..1. */
  confidence: number;
  /** Letters and digits read (what "enough text" is judged by). */
  meaningfulChars: number;
  ms: number;
}

export class OcrTimeoutError extends AppError {
  constructor() {
    super(504, 'ocr_timeout', 'Reading the label took too long. Try a sharper, closer photo of the label.');
  }
}

const shuttingDown = () => new AppError(503, 'shutting_down', 'Hearth is shutting down. Try again in a moment.');

/** Letters and digits in a text: what the label says, not its punctuation or noise. */
export function meaningfulChars(text: string): number {
  return (text.match(/[\p{L}\p{N}]/gu) ?? []).length;
}

/** The picture as tesseract reads it best: upright, grey, stretched, a readable size. PNG bytes. */
export async function prepareForOcr(image: Buffer | string): Promise<Buffer> {
  const sharp = await loadSharp();
  let meta;
  try {
    meta = await sharp(image).metadata();
  } catch {
    throw new BadRequestError('Hearth cannot read that picture. Take the photo of the label again.', undefined, 'unreadable_image');
  }
  // EXIF orientations 5 to 8 swap width and height
  const swap = (meta.orientation ?? 1) >= 5;
  const width = (swap ? meta.height : meta.width) ?? MIN_WIDTH;
  const height = (swap ? meta.width : meta.height) ?? MIN_WIDTH;
  const scale = width < MIN_WIDTH ? Math.min(MIN_WIDTH / width, 4) : Math.max(width, height) > MAX_SIDE ? MAX_SIDE / Math.max(width, height) : 1;
  let pipeline = sharp(image).rotate().greyscale();
  if (scale !== 1) pipeline = pipeline.resize(Math.round(width * scale), Math.round(height * scale), { kernel: 'lanczos3' });
  return pipeline.normalise().toColourspace('b-w').png({ compressionLevel: 1 }).toBuffer();
}

export interface LabelOcrOptions {
  logger: Logger;
  budgetMs?: number;
}

/** The one OCR reader of the server (the container builds it; close() ends its worker). */
export class LabelOcr {
  private worker: Promise<Worker> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Ends the image being read now (an overrun, or close()). */
  private cancel: ((err: Error) => void) | null = null;
  /** Per image; tests shorten it. */
  budgetMs: number;

  constructor(private readonly opts: LabelOcrOptions) {
    this.budgetMs = opts.budgetMs ?? OCR_BUDGET_MS;
  }

  private start(): Promise<Worker> {
    const { createWorker, OEM, PSM } = loadTesseract();
    const eng = localEng();
    const workerPath = ocrWorkerPath();
    this.worker ??= createWorker('eng', OEM.LSTM_ONLY, {
      // a URL (data:) where the typings say string: tesseract.js hands it to `new Worker()` unchanged
      ...(workerPath ? { workerPath: workerPath as unknown as string } : {}),
      langPath: eng.langPath,
      gzip: eng.gzip,
      cacheMethod: 'none',
      errorHandler: (err: unknown) => this.opts.logger.warn({ err }, 'the OCR worker reported an error'),
    }).then(
      async (w) => {
        // a rating plate is a block of lines; keep inter-word spaces as printed
        await w.setParameters({ tessedit_pageseg_mode: PSM.AUTO, preserve_interword_spaces: '1' });
        return w;
      },
      (err: unknown) => {
        this.worker = null;
        throw err;
      },
    );
    return this.worker;
  }

  private async stopWorker(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (!w) return;
    try {
      await (await w).terminate();
    } catch {
      // a worker that never started has nothing to end
    }
  }

  /** Reads one picture (bytes or a file path); one at a time, within the budget. */
  read(image: Buffer | string): Promise<OcrResult> {
    const run = this.queue.then(() => this.readNow(image));
    // the next image waits for this one, whether it read or failed
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async readNow(image: Buffer | string): Promise<OcrResult> {
    const started = performance.now();
    if (this.closed) throw shuttingDown();
    const prepared = await prepareForOcr(image);
    // closed while the picture was prepared: no new worker
    if (this.closed) throw shuttingDown();
    let timer: NodeJS.Timeout | undefined;
    const stopped = new Promise<never>((_, reject) => {
      this.cancel = reject;
      timer = setTimeout(() => reject(new OcrTimeoutError()), this.budgetMs);
    });
    try {
      const worker = await Promise.race([this.start(), stopped]);
      const { data } = await Promise.race([worker.recognize(prepared), stopped]);
      const text = data.text
        .split('\n')
        .map((l) => l.replace(/[ \t]+/g, ' ').trim())
        .filter(Boolean)
        .join('\n');
      return { text, confidence: Math.max(0, Math.min(1, (data.confidence ?? 0) / 100)), meaningfulChars: meaningfulChars(text), ms: Math.round(performance.now() - started) };
    } catch (err) {
      if (err instanceof OcrTimeoutError) {
        this.opts.logger.warn({ budgetMs: this.budgetMs }, 'OCR ran past its budget; its worker is replaced');
        await this.stopWorker();
      }
      throw err;
    } finally {
      clearTimeout(timer);
      this.cancel = null;
    }
  }

  /** Ends the worker; an image being read fails with a sentence, those waiting too. */
  async close(): Promise<void> {
    this.closed = true;
    this.cancel?.(shuttingDown());
    await this.stopWorker();
    await this.queue;
  }
}
