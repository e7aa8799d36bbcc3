// "On this day" from the household's installed Wikipedia archive (catalog id `wikipedia`) when
// Wikipedia cannot be reached or Hearth is in OFFLINE_MODE: a real test archive built with
// zimwriterfs (its day article "May 20"), served by the real kiwix-serve. The day's lists come from
// the article's sections, newest year first, BC years negative, links opening the archive viewer;
// with Wikipedia reachable the feed is used as before; a day the archive has no article for is a 503.
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchivesStore } from '../../server/modules/archives/store.js';
import { BriefingResponse, OnThisDayResponse } from '../../server/modules/today/schema.js';
import { createManualClock } from '../../server/platform/clock.js';
import { startFakeWikimedia, type FakeWikimedia } from '../fakes/wikimedia.js';
import { writeCatalog } from '../harness/archives.js';
import { freePort } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { buildWikipediaDayZim, kiwixServeOnPath } from '../harness/zims.js';

const temp = makeTempDir('hearth-otd-zim-');
let zim: string;

/** A test server whose catalog offers the test Wikipedia, with it installed and served. */
async function serverWithWikipedia(config: Record<string, unknown>): Promise<TestServer> {
  const catalog = writeCatalog(temp.dir, [
    {
      id: 'wikipedia',
      label: 'Wikipedia',
      description: 'The encyclopedia',
      category: 'Encyclopedia',
      faviconUrl: 'https://example.org/w.ico',
      variants: [{ key: 'nopic', label: 'No pictures', url: 'https://example.org/wikipedia.zim', sizeBytes: statSync(zim).size, date: '2024-05', language: 'eng' }],
    },
  ]);
  const s = await startTestServer({
    seed: 'household',
    config: { archiveCatalogPath: catalog, archiveServerPort: await freePort(), kiwixServePath: kiwixServeOnPath(), ...config },
    overrides: { clock: createManualClock(new Date('2026-05-20T09:00:00')) },
  });
  const dest = path.join(s.handle.deps.config.dataDir, 'archives', 'wikipedia', path.basename(zim));
  mkdirSync(path.dirname(dest), { recursive: true });
  copyFileSync(zim, dest);
  const now = new Date().toISOString();
  await new ArchivesStore(s.handle.deps.db).upsert({ sourceId: 'wikipedia', variantKey: 'nopic', filePath: dest, fileSizeBytes: statSync(dest).size, zimDate: '2024-05', downloadedAt: now, verifiedAt: now }, now);
  await s.handle.deps.archives.serve();
  return s;
}

beforeAll(() => {
  zim = buildWikipediaDayZim(temp.dir);
}, 60_000);
afterAll(() => temp.remove());

describe('On this day from the Wikipedia archive in OFFLINE_MODE', () => {
  let s: TestServer;
  let wiki: FakeWikimedia;

  beforeAll(async () => {
    wiki = await startFakeWikimedia();
    s = await serverWithWikipedia({ offline: true, wikipediaUrl: `${wiki.url}/{lang}`, fetchAllowOrigins: [wiki.origin] });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await wiki?.close();
  });

  it('reads the day article: each section, newest year first, BC years negative, links to the archive viewer', async () => {
    const r = await s.member.get('/api/on-this-day?date=05-20');
    expect(r.status, r.text).toBe(200);
    const day = OnThisDayResponse.parse(r.body);
    expect(day).toMatchObject({ date: '05-20', origin: 'archive', source: 'on-this-day', stale: false, lastError: null, selected: [] });
    expect(day.credit).toMatch(/offline Wikipedia archive/);
    expect(day.events.map((e) => e.year)).toEqual([1931, 1498, -325]);
    expect(day.events[0]).toEqual({
      year: 1931,
      text: 'A ferry line opens between Island Town and Harbourton.',
      pages: [
        { title: 'Island Town', url: '/read/wikipedia/A/Island_Town' },
        { title: 'Harbourton', url: '/read/wikipedia/A/Harbourton' },
      ],
    });
    // the reference mark [1] is not text and not a page; the link's title names the page
    expect(day.events[1]).toEqual({ year: 1498, text: 'The first ferry crosses the sound.', pages: [{ title: 'Example Ferry', url: '/read/wikipedia/A/Example_Ferry' }] });
    expect(day.events[2]!.text).toBe('A harbour lighthouse is lit for the first time at Example Point.');
    expect(day.births.map((b) => [b.year, b.text])).toEqual([
      [1902, 'Ada Sample, engineer'],
      [1470, 'Pietro Example, harbour master (d. 1547)'],
    ]);
    expect(day.deaths).toEqual([{ year: 1506, text: 'Cristo Example, navigator (b. 1451)', pages: [{ title: 'Cristo Example', url: '/read/wikipedia/A/Cristo_Example' }] }]);
    // the heading line of a nested list is not an observance; "See also" is not part of the day
    expect(day.holidays.map((h) => h.text)).toEqual(['Saint Example', 'Harbour Day (Examplia)']);
    expect(JSON.stringify(day)).not.toContain('not a day event');
    expect(wiki.requests).toHaveLength(0);
  });

  it('its links open in the archive viewer', async () => {
    const page = await s.member.get('/api/archives/view/wikipedia/A/Island_Town');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Island Town is an article of the test archive.');
  });

  it('answers 503 source_unavailable with a sentence for a day the archive has no article for', async () => {
    const r = await s.member.get('/api/on-this-day?date=05-21');
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe('source_unavailable');
    expect(r.body.error.message).toMatch(/could not be fetched/);
    expect(wiki.requests).toHaveLength(0);
  });

  it('the morning briefing takes this day from the archive, still without an outside request', async () => {
    const r = await s.member.get('/api/briefing');
    expect(r.status, r.text).toBe(200);
    const b = BriefingResponse.parse(r.body);
    expect(b.onThisDay.map((e) => e.year)).toEqual([1931, 1498, -325]);
    expect(b.sentences.join(' ')).toContain('On this day in 1931: A ferry line opens');
    expect(wiki.requests).toHaveLength(0);
  });

  it('is for signed-in people only', async () => {
    expect((await s.anon.get('/api/on-this-day?date=05-20')).status).toBe(401);
  });
});

describe('On this day from the Wikipedia archive when Wikipedia is down', () => {
  let s: TestServer;
  let wiki: FakeWikimedia;

  beforeAll(async () => {
    wiki = await startFakeWikimedia();
    s = await serverWithWikipedia({ wikipediaUrl: `${wiki.url}/{lang}`, fetchAllowOrigins: [wiki.origin] });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await wiki?.close();
  });

  it('with no copy kept, the archive answers; once Wikipedia is back, the feed does', async () => {
    await wiki.down();
    const offline = await s.member.get('/api/on-this-day?date=05-20');
    expect(offline.status, offline.text).toBe(200);
    expect(offline.body).toMatchObject({ origin: 'archive', date: '05-20' });
    expect(offline.body.events[0].pages[0].url).toBe('/read/wikipedia/A/Island_Town');

    await wiki.up();
    // the failed fetch backs off; the admin's refresh skips that backoff
    const refreshed = await s.admin.post('/api/admin/briefing/refresh', { source: 'on-this-day' });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.body.outcome).toBe('fetched');
    const online = await s.member.get('/api/on-this-day?date=05-20');
    expect(online.status).toBe(200);
    expect(online.body).toMatchObject({ origin: 'wikipedia', stale: false });
    expect(online.body.credit).toMatch(/^From Wikipedia/);
  });
});
