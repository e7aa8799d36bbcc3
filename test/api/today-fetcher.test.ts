// Today's one outbound fetcher against a local source: the conditional GET proven by the source's
// own log (validators sent back byte for byte, a 304 keeps the copy), Retry-After in both forms,
// the last good copy served stale when the source is down or sends garbage, 503 source_unavailable
// with no copy, no request at all in offline mode, at most 3 requests at a time per host, a body
// over the cap and a source that never answers both end as failures (the server is not stalled).
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { up } from '../../migrations/20261203084100_create_today_cache.js';
import { createDb } from '../../server/db/connection.js';
import { SourceCacheStore } from '../../server/platform/outside-sources/cache-store.js';
import { TODAY_USER_AGENT } from '../../server/modules/today/module.js';
import { parseRetryAfter, SourceFetcher, SourceUnavailableError, type SourceSpec } from '../../server/platform/outside-sources/fetcher.js';
import { createManualClock } from '../../server/platform/clock.js';
import { createMemoryLogger } from '../../server/platform/logger.js';
import { createSsrfGuard } from '../../server/platform/ssrf.js';
import { sendJson, startFakeHttp, type FakeHttp } from '../fakes/today-http.js';
import { makeTempDir } from '../harness/temp-dir.js';

const ETAG = 'W/"v1-abc"';
const LAST_MODIFIED = 'Wed, 13 May 2026 07:00:00 GMT';

describe('the Today fetcher', () => {
  let db: Knex;
  let tmp: ReturnType<typeof makeTempDir>;
  let fake: FakeHttp;
  let behaviour: 'ok' | 'limited-seconds' | 'limited-date' | 'garbage' | 'huge' | 'hang' | 'hold' = 'ok';
  let version = 1;
  let inFlight = 0;
  let maxInFlight = 0;
  const held: Array<() => void> = [];
  const clock = createManualClock(new Date('2026-05-14T07:00:00Z'));
  const guards: Array<ReturnType<typeof createSsrfGuard>> = [];
  const guard = () => {
    const g = createSsrfGuard({ allowOrigins: [fake.origin] });
    guards.push(g);
    return g;
  };

  beforeAll(async () => {
    tmp = makeTempDir();
    db = createDb(path.join(tmp.dir, 'today.db'));
    await up(db);
    fake = await startFakeHttp(async (req, res, url) => {
      if (behaviour === 'hang') return; // never answers
      if (behaviour === 'hold') {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise<void>((r) => held.push(r));
        inFlight--;
        return sendJson(res, 200, { version: url.pathname.length });
      }
      if (behaviour === 'limited-seconds') return sendJson(res, 429, { error: 'slow down' }, { 'retry-after': '600' });
      if (behaviour === 'limited-date') return sendJson(res, 503, { error: 'maintenance' }, { 'retry-after': new Date(clock.now().getTime() + 2 * 3600_000).toUTCString() });
      if (behaviour === 'garbage') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('<html>oops');
      }
      if (behaviour === 'huge') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        for (let i = 0; i < 100; i++) res.write(chunk); // 6.4 MB
        return void res.end('{}');
      }
      if (req.headers['if-none-match'] === ETAG || req.headers['if-modified-since'] === LAST_MODIFIED) {
        res.writeHead(304, { etag: ETAG });
        return void res.end();
      }
      sendJson(res, 200, { version }, { etag: ETAG, 'last-modified': LAST_MODIFIED });
    });
  });
  afterAll(async () => {
    await Promise.all(guards.map((g) => g.close()));
    await fake.close();
    await db.destroy();
    tmp.remove();
  });
  beforeEach(async () => {
    behaviour = 'ok';
    version = 1;
    fake.requests.length = 0;
    await db('today_cache').delete();
  });

  const spec = (key = 'k', p = '/doc'): SourceSpec<{ version: number }> => ({
    key,
    source: 'test',
    url: `${fake.url}${p}`,
    ttlMs: 30 * 60_000,
    parse: (body) => {
      const v = JSON.parse(body.toString('utf8')) as { version?: unknown };
      if (typeof v.version !== 'number') throw new Error('no version');
      return { version: v.version };
    },
  });
  const make = (over: Partial<ConstructorParameters<typeof SourceFetcher>[0]> = {}) =>
    new SourceFetcher({ guard: guard(), store: new SourceCacheStore(db, 'today_cache'), userAgent: TODAY_USER_AGENT, label: 'Today', clock, logger: createMemoryLogger(), ...over });

  it('sends one identifying User-Agent and the stored validators back exactly; a 304 keeps the copy', async () => {
    const f = make();
    const first = await f.refresh(spec());
    expect(first.kind).toBe('fetched');
    version = 2; // a 304 means the copy kept is still version 1
    const second = await f.refresh(spec(), { force: true });
    expect(second.kind).toBe('not_modified');
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]).toMatchObject({ userAgent: TODAY_USER_AGENT, ifNoneMatch: undefined, ifModifiedSince: undefined });
    expect(fake.requests[1]).toMatchObject({ userAgent: TODAY_USER_AGENT, ifNoneMatch: ETAG, ifModifiedSince: LAST_MODIFIED });
    const read = await f.read(spec(), 'none');
    expect(read.payload).toEqual({ version: 1 });
    expect(read.freshness).toMatchObject({ source: 'test', stale: false, ageSeconds: 0, lastError: null });
    expect(fake.requests).toHaveLength(2); // fresh: served from the cache
  });

  it('serves the last good copy stale, with its age, when the source goes down, and 503 with no copy', async () => {
    const f = make();
    await f.refresh(spec());
    clock.advance(31 * 60_000);
    await fake.down();
    try {
      const read = await f.read(spec(), 'none');
      expect(read.payload).toEqual({ version: 1 });
      expect(read.freshness).toMatchObject({ stale: true, ageSeconds: 31 * 60 });
      expect(read.freshness.lastError).toMatch(/could not be reached/);
      await expect(f.read(spec('other', '/other'), 'Nothing kept for that one.')).rejects.toMatchObject({ status: 503, code: 'source_unavailable', message: 'Nothing kept for that one.' });
    } finally {
      await fake.up();
    }
  });

  it('keeps the copy and its validators when the source sends garbage', async () => {
    const f = make();
    await f.refresh(spec());
    behaviour = 'garbage';
    const outcome = await f.refresh(spec(), { force: true });
    expect(outcome.kind).toBe('failed');
    const row = await new SourceCacheStore(db, 'today_cache').get('k');
    expect(row).toMatchObject({ payload: { version: 1 }, etag: ETAG, lastModified: LAST_MODIFIED, failCount: 1 });
    expect(row?.lastError).toMatch(/cannot read/);
    expect((await f.read(spec(), 'none')).freshness.stale).toBe(true);
  });

  it('honours Retry-After in seconds and as an HTTP date, even when a refresh is forced', async () => {
    const f = make();
    behaviour = 'limited-seconds';
    const limited = await f.refresh(spec());
    expect(limited.kind).toBe('failed');
    const row = await new SourceCacheStore(db, 'today_cache').get('k');
    expect(Date.parse(row!.nextTryAt!) - clock.now().getTime()).toBe(600_000);
    behaviour = 'ok';
    expect((await f.refresh(spec(), { force: true })).kind).toBe('skipped');
    expect(fake.requests).toHaveLength(1);
    clock.advance(600_001);
    expect((await f.refresh(spec())).kind).toBe('fetched');

    behaviour = 'limited-date';
    await f.refresh(spec('dated', '/dated'));
    const dated = await new SourceCacheStore(db, 'today_cache').get('dated');
    expect(Date.parse(dated!.nextTryAt!) - clock.now().getTime()).toBeGreaterThan(7_000_000);
    expect(parseRetryAfter('garbage', clock.now())).toBeNull();
  });

  it('makes no request at all in offline mode', async () => {
    const online = make();
    await online.refresh(spec());
    clock.advance(31 * 60_000);
    fake.requests.length = 0;
    const offline = make({ offline: { isOn: () => true } });
    const read = await offline.read(spec(), 'none');
    expect(read).toMatchObject({ payload: { version: 1 }, freshness: { stale: true } });
    await expect(offline.read(spec('never', '/never'), 'No copy.')).rejects.toBeInstanceOf(SourceUnavailableError);
    await expect(offline.fetchOnce(`${fake.url}/search`)).rejects.toThrow(/offline/);
    expect(fake.requests).toHaveLength(0);
  });

  it('asks one host at most 3 things at a time', async () => {
    const f = make();
    behaviour = 'hold';
    maxInFlight = 0;
    const all = Promise.all(Array.from({ length: 7 }, (_, i) => f.refresh(spec(`h${i}`, `/h${i}`))));
    const release = async () => {
      while (fake.requests.length < 7 || held.length > 0) {
        await new Promise((r) => setTimeout(r, 20));
        held.splice(0).forEach((r) => r());
      }
    };
    await release();
    const outcomes = await all;
    expect(outcomes.map((o) => o.kind)).toEqual(Array(7).fill('fetched'));
    expect(maxInFlight).toBe(3);
  });

  it('ends a body over the cap and a source that never answers as failures', async () => {
    behaviour = 'huge';
    const big = await make().refresh(spec());
    expect(big).toMatchObject({ kind: 'failed', error: expect.stringMatching(/more than 5 MB/) });
    behaviour = 'hang';
    const hung = await make({ timeoutMs: 300 }).refresh(spec('hang', '/hang'));
    expect(hung).toMatchObject({ kind: 'failed', error: expect.stringMatching(/did not answer/) });
  });
});
