// A device's manual: downloaded through the one SSRF guard from the maker fake (size cap while
// streaming, PDF magic, redirects checked), its text extracted by pdf-parse in the parse worker;
// an uploaded PDF gets the same extraction when the device has no manual text.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InventoryFiles } from '../../server/modules/home-inventory/files.js';
import { ManualError, ManualService } from '../../server/modules/home-inventory/manual-service.js';
import { PDF_TASKS_MODULE, PdfTasks } from '../../server/modules/home-inventory/pdf-tasks.js';
import { MAX_MANUAL_BYTES } from '../../server/modules/home-inventory/schema.js';
import { HomeInventoryStore } from '../../server/modules/home-inventory/store.js';
import { systemClock } from '../../server/platform/clock.js';
import { createSsrfGuard, type SsrfGuard } from '../../server/platform/ssrf.js';
import { ParseWorker } from '../../server/platform/workers/parse-worker.js';
import { HUGE_PDF_BYTES, startManufacturerSite, type ManufacturerSite } from '../fakes/manufacturer-site.js';
import { insertDevice } from '../fixtures/inventory/devices.js';
import { MANUAL_FACTS } from '../fixtures/inventory/manual-pdf.js';
import { until } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('inventory manuals', () => {
  let s: TestServer;
  let site: ManufacturerSite;
  let intranet: http.Server;
  let intranetUrl: string;
  let intranetHits = 0;
  let guard: SsrfGuard;
  let worker: ParseWorker;
  let store: HomeInventoryStore;
  let files: InventoryFiles;
  let manuals: ManualService;

  beforeAll(async () => {
    site = await startManufacturerSite();
    // another local server, not among the allowed origins: a redirect there must be refused
    intranet = http.createServer((_req, res) => {
      intranetHits++;
      res.end('%PDF-1.4 router admin page');
    });
    await new Promise<void>((r) => intranet.listen(0, '127.0.0.1', () => r()));
    intranetUrl = `http://127.0.0.1:${(intranet.address() as AddressInfo).port}`;
    s = await startTestServer({ seed: 'household', config: { fetchAllowOrigins: [site.url] } });
    guard = createSsrfGuard({ allowOrigins: [site.url] });
    worker = new ParseWorker({ handlers: PDF_TASKS_MODULE });
    store = new HomeInventoryStore(s.handle.deps.db);
    files = new InventoryFiles(s.dataDir);
    manuals = new ManualService({ store, files, guard, pdf: new PdfTasks(worker), clock: systemClock, logger: s.logger });
  });
  afterAll(async () => {
    await manuals.close();
    await guard.close();
    await s.close();
    await site.close();
    await new Promise((r) => intranet.close(r));
  });

  const deviceFiles = (id: string) => (existsSync(path.join(files.root, id)) ? readdirSync(path.join(files.root, id)) : []);
  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ManualError);
    return (err as Error).message;
  };

  it('downloads the PDF manual into the device folder and keeps its text', async () => {
    const d = await insertDevice(store);
    const url = site.at('/manuals/cm-4200.pdf');
    const got = await manuals.fetchManual(d.id, url);
    expect(got.pages).toBe(4);
    const after = (await store.getDevice(d.id))!;
    expect(after.manualUrl).toBe(url);
    expect(after.manualPath).toBe(got.manualPath);
    expect(after.manualFetchedAt).not.toBeNull();
    expect(after.manualText).toContain(MANUAL_FACTS.filter);
    expect(after.manualText).toContain(MANUAL_FACTS.descale);
    expect(after.manualText).toContain(MANUAL_FACTS.errorE24);
    const onDisk = readFileSync(files.resolve(got.manualPath)!);
    expect(onDisk.equals(site.manual)).toBe(true);
    expect(deviceFiles(d.id)).toEqual([path.basename(got.manualPath)]);
  });

  it('refuses a web page where a PDF was promised, and keeps nothing', async () => {
    const d = await insertDevice(store);
    expect(await refusal(manuals.fetchManual(d.id, site.at('/manuals/not-a-pdf.pdf')))).toBe('The link led to a web page, not a PDF manual.');
    expect(deviceFiles(d.id)).toEqual([]);
    expect((await store.getDevice(d.id))!.manualText).toBeNull();
  });

  it('stops reading a 200 MB PDF at the size cap and keeps nothing', async () => {
    const d = await insertDevice(store);
    expect(await refusal(manuals.fetchManual(d.id, site.at('/manuals/huge.pdf')))).toMatch(/^The manual is larger than 50 MB/);
    expect(deviceFiles(d.id)).toEqual([]);
    // the reading stopped at the cap: the server could not push much more than it into the socket
    await until(() => (site.bytesSent.get('/manuals/huge.pdf') ?? 0) > 0, 'the huge PDF to be sent');
    expect(site.bytesSent.get('/manuals/huge.pdf')!).toBeLessThan(MAX_MANUAL_BYTES + 16 * 1024 * 1024);
    expect(site.bytesSent.get('/manuals/huge.pdf')!).toBeLessThan(HUGE_PDF_BYTES);
  });

  it('refuses redirects to private addresses, another local server included', async () => {
    const d = await insertDevice(store);
    site.redirectTarget = 'http://10.0.0.8/manual.pdf';
    expect(await refusal(manuals.fetchManual(d.id, site.at('/manuals/moved.pdf')))).toMatch(/^The manual's address was refused: .*private or local network/);
    site.redirectTarget = `${intranetUrl}/manual.pdf`;
    expect(await refusal(manuals.fetchManual(d.id, site.at('/manuals/moved.pdf')))).toMatch(/^The manual's address was refused/);
    expect(intranetHits).toBe(0);
    expect(deviceFiles(d.id)).toEqual([]);
  });

  it('refuses a search result on a private address without asking it', async () => {
    const d = await insertDevice(store);
    expect(await refusal(manuals.fetchManual(d.id, 'http://192.168.1.20/manual.pdf'))).toMatch(/^The manual's address was refused/);
    expect(await refusal(manuals.fetchManual(d.id, `${intranetUrl}/manual.pdf`))).toMatch(/^The manual's address was refused/);
    expect(intranetHits).toBe(0);
  });

  it('says so when the maker site answers 404', async () => {
    const d = await insertDevice(store);
    expect(await refusal(manuals.fetchManual(d.id, site.at('/manuals/gone.pdf')))).toBe("The manual's web site answered 404 instead of the PDF.");
  });

  it('extracts an uploaded PDF when the device has no manual text, and leaves one that has', async () => {
    const stored = async (deviceId: string) => {
      const fileId = randomUUID();
      const filePath = files.relativeFor(deviceId, `${fileId}.pdf`);
      await files.ensureDeviceDir(deviceId);
      writeFileSync(files.resolve(filePath)!, site.manual);
      await store.insertFile({ id: fileId, deviceId, label: 'manual.pdf', filePath, thumbPath: null, fileType: 'pdf', contentType: 'application/pdf', bytes: site.manual.length, source: 'user', comment: null, createdBy: s.users.member.id, createdAt: new Date().toISOString() });
      return { fileId, filePath };
    };
    const bare = await insertDevice(store);
    const up = await stored(bare.id);
    manuals.fromUploadedFile(bare.id, up.fileId);
    const filled = await until(async () => {
      const d = await store.getDevice(bare.id);
      return d?.manualText ? d : null;
    }, 'the uploaded manual to be read');
    expect(filled.manualText).toContain(MANUAL_FACTS.errorE15);
    expect(filled.manualPath).toBe(up.filePath);

    const has = await insertDevice(store, { manualText: 'The manual we already had.' });
    const up2 = await stored(has.id);
    manuals.fromUploadedFile(has.id, up2.fileId);
    await manuals.idle();
    expect((await store.getDevice(has.id))!.manualText).toBe('The manual we already had.');
  });

  it('over HTTP: a PDF uploaded to a device without manual text becomes its readable, servable manual', async () => {
    const created = await s.member.post('/api/home/devices', { name: 'Espresso machine', brand: MANUAL_FACTS.brand, model: MANUAL_FACTS.model });
    expect(created.status).toBe(201);
    const id = created.body.device.id as string;
    const boundary = '----hearthmanual';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="manual.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      site.manual,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const up = await request(`${s.url}/api/home/devices/${id}/files`, { method: 'POST', body, headers: { cookie: s.member.cookie!, origin: s.url, 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(up.statusCode).toBe(201);
    await up.body.dump();
    const device = await until(async () => {
      const d = (await s.member.get(`/api/home/devices/${id}`)).body.device as { manualTextChars: number; hasManual: boolean };
      return d.manualTextChars > 0 ? d : null;
    }, 'the uploaded manual to be read');
    expect(device.hasManual).toBe(true);
    expect((await store.getDevice(id))!.manualText).toContain(MANUAL_FACTS.descale);
    const pdf = await request(`${s.url}/api/home/devices/${id}/manual`, { headers: { cookie: s.member.cookie! } });
    expect(pdf.statusCode).toBe(200);
    expect(Buffer.from(await pdf.body.arrayBuffer()).equals(site.manual)).toBe(true);
  });

  it('logs, and never throws, when an uploaded "PDF" cannot be read', async () => {
    const d = await insertDevice(store);
    const fileId = randomUUID();
    const filePath = files.relativeFor(d.id, `${fileId}.pdf`);
    await files.ensureDeviceDir(d.id);
    writeFileSync(files.resolve(filePath)!, '%PDF-1.4 this is not really a PDF');
    await store.insertFile({ id: fileId, deviceId: d.id, label: 'broken.pdf', filePath, thumbPath: null, fileType: 'pdf', contentType: 'application/pdf', bytes: 30, source: 'user', comment: null, createdBy: null, createdAt: new Date().toISOString() });
    expect(() => manuals.fromUploadedFile(d.id, fileId)).not.toThrow();
    await manuals.idle();
    expect((await store.getDevice(d.id))!.manualText).toBeNull();
    expect(s.logger.lines.some((l) => l.msg === "inventory: an uploaded PDF's text was not extracted" && l.fileId === fileId)).toBe(true);
  });
});
