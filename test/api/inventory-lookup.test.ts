// The web lookup over HTTP against the SearXNG fake, the maker-site fake and the Ollama fake:
// POST /api/home/devices/:id/lookup answers at once with pending; the background run finds the
// manual (its text read), the support page (phone), up to 3 product photos (the first becomes the
// main photo), how-to videos, and the text model's specs over the label's; failed keeps the device
// and a sentence; skipped for each of its three reasons; every URL the search finds passes the
// SSRF guard; runs left pending by a stop start again; generate-specs with the model and without.
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InventoryFiles } from '../../server/modules/home-inventory/files.js';
import { LOOKUP_SKIPPED } from '../../server/modules/home-inventory/lookup-service.js';
import { MAX_LOOKUP_PHOTOS } from '../../server/modules/home-inventory/schema.js';
import { HomeInventoryStore, type DeviceRecord } from '../../server/modules/home-inventory/store.js';
import { DEFAULT_VIDEOS, searchAnswer, startManufacturerSite, SUPPORT_PHONE, type ManufacturerSite } from '../fakes/manufacturer-site.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { startFakeWebSearch, type FakeWebSearch } from '../fakes/web-search.js';
import { insertDevice } from '../fixtures/inventory/devices.js';
import { MANUAL_FACTS } from '../fixtures/inventory/manual-pdf.js';
import { until } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const AI_SPECS = { Power: '1450 W', 'Water tank': '1.8 l', Pressure: '15 bar' };
const specsReply = (req: FakeChatRequest) =>
  String(req.messages[0]?.content ?? '').includes('household inventory app describe one device') ? JSON.stringify({ specs: AI_SPECS, manualQuery: 'Brewtide CM-4200 owners manual pdf' }) : 'Hello.';

describe('inventory web lookup', () => {
  let site: ManufacturerSite;
  let search: FakeWebSearch;
  let runtime: FakeModelRuntime;
  let intranet: http.Server;
  let intranetUrl: string;
  let intranetHits = 0;
  let s: TestServer;
  let store: HomeInventoryStore;

  const serverConfig = () => ({ webSearchUrl: search.url, fetchAllowOrigins: [site.url], modelRuntimeUrl: runtime.url });

  beforeAll(async () => {
    site = await startManufacturerSite();
    search = await startFakeWebSearch(searchAnswer(site));
    runtime = await startFakeModelRuntime();
    // a local server that is not an allowed origin: nothing the search finds may reach it
    intranet = http.createServer((_req, res) => {
      intranetHits++;
      res.end('router admin');
    });
    await new Promise<void>((r) => intranet.listen(0, '127.0.0.1', () => r()));
    intranetUrl = `http://127.0.0.1:${(intranet.address() as AddressInfo).port}`;
    s = await startTestServer({ seed: 'household', config: serverConfig() });
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    store = new HomeInventoryStore(s.handle.deps.db);
  });
  afterAll(async () => {
    await s.close();
    await Promise.all([site.close(), search.close(), runtime.close(), new Promise((r) => intranet.close(r))]);
  });
  beforeEach(async () => {
    search.answer = searchAnswer(site);
    await search.setMode('ok');
    await runtime.setMode('ok');
    runtime.chatReply = specsReply;
  });

  const settled = (st: HomeInventoryStore, id: string) =>
    until(async () => {
      const d = await st.getDevice(id);
      return d && d.lookupStatus !== 'pending' ? d : null;
    }, 'the lookup to finish');

  it('answers 202 pending at once, then completes with the manual, photos, videos, support phone and specs', async () => {
    // the first "PDF" is a web page: refused, the next one is the manual
    search.answer = searchAnswer(site, { manuals: ['/manuals/not-a-pdf.pdf', '/manuals/cm-4200.pdf'] });
    const d = await insertDevice(store, { specs: { Voltage: '220-240 V', Power: '1200 W' }, createdBy: s.users.admin.id });
    await search.setMode('slow', { slowMs: 400 });
    const res = await s.member.post(`/api/home/devices/${d.id}/lookup`, {});
    expect(res.status).toBe(202);
    expect(res.body.device).toMatchObject({ id: d.id, lookupStatus: 'pending', hasManual: false, canDelete: false });
    expect((await store.getDevice(d.id))!.lookupStatus).toBe('pending');
    // asking again while it runs starts nothing new
    expect((await s.member.post(`/api/home/devices/${d.id}/lookup`, {})).body.device.lookupStatus).toBe('pending');

    const done = await settled(store, d.id);
    expect(done.lookupStatus).toBe('complete');
    expect(done.lookupError).toBeNull();
    expect(search.requests.filter((r) => r.q === 'Brewtide CM-4200 manual filetype:pdf')).toHaveLength(1);
    expect(done.manualUrl).toBe(site.at('/manuals/cm-4200.pdf'));
    expect(done.manualText).toContain(MANUAL_FACTS.filter);
    expect(done.manualText).toContain(MANUAL_FACTS.errorE24);
    expect(done.supportPhone).toBe(SUPPORT_PHONE);
    expect(done.supportUrl).toBe(site.at('/support/cm-4200'));
    // AI specs over the label's
    expect(done.specs).toEqual({ Voltage: '220-240 V', Power: '1450 W', 'Water tank': '1.8 l', Pressure: '15 bar' });

    const files = await store.listFiles(d.id);
    expect(files).toHaveLength(MAX_LOOKUP_PHOTOS);
    expect(files.every((f) => f.source === 'ai' && f.fileType === 'image' && f.thumbPath)).toBe(true);
    const first = files.find((f) => f.label === 'Product photo 1')!;
    expect(done.mainPhotoId).toBe(first.id);
    expect(done.photoPath).toBe(first.filePath);

    const links = await store.listLinks(d.id);
    expect(links.filter((l) => l.category === 'video').map((l) => l.url)).toEqual(DEFAULT_VIDEOS.map((v) => v.url));
    expect(links.find((l) => l.category === 'manual')?.url).toBe(done.manualUrl);
    expect(links.find((l) => l.category === 'support')?.url).toBe(done.supportUrl);
    expect(links.every((l) => l.source === 'ai')).toBe(true);

    // a second lookup keeps the manual and the photos it has and adds no duplicates
    await s.member.post(`/api/home/devices/${d.id}/lookup`, {});
    const again = await settled(store, d.id);
    expect(again.lookupStatus).toBe('complete');
    expect(await store.listFiles(d.id)).toHaveLength(MAX_LOOKUP_PHOTOS);
    expect(await store.listLinks(d.id)).toHaveLength(links.length);
  });

  it('starts on save: a device created with brand and model is pending, then complete; without a model it is skipped', async () => {
    const created = await s.member.post('/api/home/devices', { name: 'Espresso machine', brand: MANUAL_FACTS.brand, model: MANUAL_FACTS.model });
    expect(created.status).toBe(201);
    expect(created.body.device.lookupStatus).toBe('pending');
    const done = await settled(store, created.body.device.id as string);
    expect(done.lookupStatus).toBe('complete');
    const got = (await s.member.get(`/api/home/devices/${done.id}`)).body.device;
    expect(got).toMatchObject({ lookupStatus: 'complete', hasManual: true, supportPhone: SUPPORT_PHONE });
    expect(got.files).toHaveLength(MAX_LOOKUP_PHOTOS);
    expect(got.photoUrl).not.toBeNull();

    const bare = await s.member.post('/api/home/devices', { name: 'Old kettle', brand: 'Brewtide' });
    expect(bare.body.device).toMatchObject({ lookupStatus: 'skipped', lookupError: LOOKUP_SKIPPED.noBrandOrModel });
  });

  it('completes without the text model when its runtime is down, keeping the label specs', async () => {
    await runtime.setMode('down');
    const d = await insertDevice(store, { specs: { Voltage: '230 V' } });
    await s.admin.post(`/api/home/devices/${d.id}/lookup`, {});
    const done = await settled(store, d.id);
    expect(done.lookupStatus).toBe('complete');
    expect(done.specs).toEqual({ Voltage: '230 V' });
    expect(done.manualText).toContain(MANUAL_FACTS.descale);
  });

  it('fails with a sentence when the search is down, answers garbage or is too slow; the device stays', async () => {
    await search.setMode('down');
    const d = await insertDevice(store);
    await s.member.post(`/api/home/devices/${d.id}/lookup`, {});
    const done = await settled(store, d.id);
    expect(done.lookupStatus).toBe('failed');
    expect(done.lookupError).toBe('Hearth could not reach its web search, so nothing was looked up. Try again later; if it keeps happening, the search server may be switched off.');
    expect(s.logger.lines.some((l) => l.msg === 'inventory lookup failed' && l.failure === 'unreachable')).toBe(true);
    expect(done.name).toBe('Coffee machine');

    await search.setMode('garbage');
    await s.member.post(`/api/home/devices/${d.id}/lookup`, {});
    const garbage = await settled(store, d.id);
    expect(garbage.lookupStatus).toBe('failed');
    expect(garbage.lookupError).toBe('The web search gave an answer Hearth could not use, so nothing was looked up. Try again later; if it keeps happening, the search server may need a look.');

    // a search slower than its budget
    const impatient = await startTestServer({ seed: 'household', config: serverConfig(), overrides: { tuning: { webSearchTimeoutMs: 200 } } });
    try {
      await search.setMode('slow', { slowMs: 800 });
      const st = new HomeInventoryStore(impatient.handle.deps.db);
      const slow = await insertDevice(st);
      await impatient.member.post(`/api/home/devices/${slow.id}/lookup`, {});
      const timedOut = await settled(st, slow.id);
      expect(timedOut.lookupStatus).toBe('failed');
      expect(timedOut.lookupError).toBe('The web search took too long to answer, so nothing was looked up. Try again later.');
    } finally {
      await impatient.close();
    }
  });

  it('is skipped, with the reason, without a brand or a model', async () => {
    const d = await insertDevice(store, { model: null });
    const res = await s.member.post(`/api/home/devices/${d.id}/lookup`, {});
    expect(res.status).toBe(202);
    expect(res.body.device.lookupStatus).toBe('skipped');
    const after = (await store.getDevice(d.id))!;
    expect(after.lookupError).toBe(LOOKUP_SKIPPED.noBrandOrModel);
    expect(after.lookupQueuedAt).toBeNull();
  });

  it('an admin sets the web search address in the app: checked by the SSRF guard, then the lookup uses it', async () => {
    // no WEB_SEARCH_URL; the fake search server's origin is let through as the tests' public stand-in
    const other = await startTestServer({ seed: 'household', config: { ...serverConfig(), webSearchUrl: undefined, fetchAllowOrigins: [site.url, search.url] } });
    try {
      await other.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
      const st = new HomeInventoryStore(other.handle.deps.db);
      const d = await insertDevice(st);
      // nothing set: skipped with a sentence that names no environment variable, and the page knows why
      expect((await other.member.post(`/api/home/devices/${d.id}/lookup`, {})).body.device.lookupStatus).toBe('skipped');
      expect((await st.getDevice(d.id))!.lookupError).toBe(LOOKUP_SKIPPED.noSearch);
      expect(LOOKUP_SKIPPED.noSearch).not.toMatch(/\b[A-Z]+_[A-Z_]+\b/);
      expect((await other.member.get('/api/home/web-search')).body.webSearch).toEqual({ configured: false, url: null, setWhereHearthStarted: false, canChange: false });
      expect((await other.admin.get('/api/home/web-search')).body.webSearch).toEqual({ configured: false, url: null, setWhereHearthStarted: false, canChange: true });
      // only an admin may set it; the guard refuses the home network, this computer and what is not a web address
      expect((await other.member.put('/api/home/web-search', { url: search.url })).status).toBe(403);
      for (const url of ['http://192.168.1.20:8888', intranetUrl, 'http://localhost:8888/', 'file:///etc/passwd', 'not an address']) {
        const r = await other.admin.put('/api/home/web-search', { url });
        expect(r.status, url).toBe(400);
        expect(r.body.error.message, url).toMatch(/^(Hearth only searches through a public web address|That is not a web address)/);
      }
      expect((await other.admin.get('/api/home/web-search')).body.webSearch.configured).toBe(false);
      const set = await other.admin.put('/api/home/web-search', { url: search.url });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body.webSearch).toEqual({ configured: true, url: search.url, setWhereHearthStarted: false, canChange: true });
      expect((await other.member.get('/api/home/web-search')).body.webSearch).toEqual({ configured: true, url: null, setWhereHearthStarted: false, canChange: false });
      // the lookup now searches there
      const before = search.requests.length;
      expect((await other.member.post(`/api/home/devices/${d.id}/lookup`, {})).body.device.lookupStatus).toBe('pending');
      await until(async () => (await st.getDevice(d.id))!.lookupStatus !== 'pending', 'the lookup to end');
      expect(search.requests.length).toBeGreaterThan(before);
      expect((await st.getDevice(d.id))!.lookupStatus).toBe('complete');
      // removing it: skipped again
      expect((await other.admin.put('/api/home/web-search', { url: null })).body.webSearch.configured).toBe(false);
    } finally {
      await other.close();
    }
    // WEB_SEARCH_URL wins and is read-only in the app
    expect((await s.admin.get('/api/home/web-search')).body.webSearch).toEqual({ configured: true, url: search.url, setWhereHearthStarted: true, canChange: false });
    const refused = await s.admin.put('/api/home/web-search', { url: 'https://search.example.org' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/set where Hearth was started/);
  });

  it('is skipped without WEB_SEARCH_URL, and in offline mode', async () => {
    for (const [config, reason] of [
      [{ webSearchUrl: undefined }, LOOKUP_SKIPPED.noSearch],
      [{ offline: true }, LOOKUP_SKIPPED.offline],
    ] as const) {
      const other = await startTestServer({ seed: 'household', config: { ...serverConfig(), ...config } });
      try {
        const st = new HomeInventoryStore(other.handle.deps.db);
        const d = await insertDevice(st);
        const before = search.requests.length;
        expect((await other.member.post(`/api/home/devices/${d.id}/lookup`, {})).body.device.lookupStatus).toBe('skipped');
        expect((await st.getDevice(d.id))!.lookupError).toBe(reason);
        expect(search.requests.length).toBe(before);
      } finally {
        await other.close();
      }
    }
  });

  it('refuses every private address the search leads to: manual, redirect, picture, support page, the search server itself', async () => {
    site.redirectTarget = `${intranetUrl}/manual.pdf`;
    search.answer = searchAnswer(site, {
      // the search server's own origin is let through for searching only, not for what it finds
      manuals: ['http://192.168.1.20/manual.pdf', '/manuals/moved.pdf', `${search.url}/files/manual.pdf`],
      support: [`${intranetUrl}/support`, 'http://10.0.0.9/support'],
      images: ['http://10.1.2.3/p.jpg', `${intranetUrl}/p.jpg`, '/images/broken.jpg', '/images/page.jpg', '/images/product-2.jpg'],
    });
    const d = await insertDevice(store);
    await s.member.post(`/api/home/devices/${d.id}/lookup`, {});
    const done = await settled(store, d.id);
    expect(done.lookupStatus).toBe('complete');
    expect(done.manualText).toBeNull();
    expect(done.supportPhone).toBeNull();
    expect(intranetHits).toBe(0);
    expect(search.requests.filter((r) => r.q === '')).toEqual([]);
    // only the real picture was kept: not the private ones, the broken JPEG or the web page
    const files = await store.listFiles(d.id);
    expect(files).toHaveLength(1);
    expect(done.mainPhotoId).toBe(files[0]!.id);
    expect(s.logger.lines.some((l) => l.msg === 'inventory lookup: manual not kept' && String(l.err).includes('private or local network'))).toBe(true);
  });

  it('a device deleted during its lookup leaves no files behind', async () => {
    const d = await insertDevice(store);
    await search.setMode('slow', { slowMs: 300 });
    await s.member.post(`/api/home/devices/${d.id}/lookup`, {});
    await until(() => search.requests.some((r) => r.category === 'images'), 'the lookup to search for pictures');
    // what deleting a device does: the row, then its folder
    await store.deleteDevice(d.id);
    const files = new InventoryFiles(s.dataDir);
    await files.removeDevice(d.id);
    await until(() => !s.handle.deps.homeLookup.isRunning(d.id), 'the lookup to end');
    expect(existsSync(path.join(files.root, d.id))).toBe(false);
    expect(await store.getDevice(d.id)).toBeNull();
  });

  it('answers 404 for a device that is not there, and 400 for a bad id', async () => {
    expect((await s.member.post('/api/home/devices/nope/lookup', {})).status).toBe(404);
    expect((await s.member.post(`/api/home/devices/${'x'.repeat(101)}/lookup`, {})).status).toBe(400);
    expect((await s.member.post('/api/home/devices/nope/generate-specs', {})).status).toBe(404);
  });

  it('generate-specs: the text model\'s specs to review, nothing written; 503 with a sentence when the runtime is down', async () => {
    const d = await insertDevice(store, { specs: { Voltage: '230 V' } });
    const res = await s.member.post(`/api/home/devices/${d.id}/generate-specs`, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ specs: AI_SPECS });
    expect((await store.getDevice(d.id))!.specs).toEqual({ Voltage: '230 V' });

    runtime.chatReply = 'Sure! Here are the specs: power 1450 W';
    expect((await s.member.post(`/api/home/devices/${d.id}/generate-specs`, {})).status).toBe(502);

    await runtime.setMode('down');
    const down = await s.member.post(`/api/home/devices/${d.id}/generate-specs`, {});
    expect(down.status).toBe(503);
    // the models module's picker says so before anything is asked
    expect(down.body.error.code).toBe('model_runtime_unavailable');
    expect(down.body.error.message).toMatch(/^The AI model isn't running on the Hearth computer\. Start Ollama.*\.$/);

    const noModel = await insertDevice(store, { model: null });
    expect((await s.member.post(`/api/home/devices/${noModel.id}/generate-specs`, {})).body.error.code).toBe('brand_and_model_needed');
  });

  it('a lookup cut off by a stop stays pending and runs again at the next start', async () => {
    const temp = makeTempDir('hearth-lookup-restart-');
    try {
      const first = await startTestServer({ seed: 'household', dataDir: temp.dir, config: serverConfig() });
      const d: DeviceRecord = await insertDevice(new HomeInventoryStore(first.handle.deps.db));
      await search.setMode('slow', { slowMs: 5_000 });
      await first.member.post(`/api/home/devices/${d.id}/lookup`, {});
      await until(() => search.requests.some((r) => r.q.startsWith('Brewtide CM-4200')), 'the lookup to search');
      await first.close(); // aborts the run; close does not wait out the slow search
      await search.setMode('ok');
      const second = await startTestServer({ dataDir: temp.dir, config: serverConfig() });
      try {
        const st = new HomeInventoryStore(second.handle.deps.db);
        const done = await settled(st, d.id);
        expect(done.lookupStatus).toBe('complete');
        expect(done.manualText).toContain(MANUAL_FACTS.filter);
      } finally {
        await second.close();
      }
    } finally {
      temp.remove();
    }
  });
});
