// Shows in OFFLINE_MODE (issue 35), after a household used them online: the watchlist, a show's
// guide kept from before (with the member's ticks, and a new tick saved), the schedule and the
// poster work from what Hearth kept; a search, or a show never fetched, is a 503 that says Hearth is
// in offline mode; TVmaze is never asked. One data folder, two starts (online, then offline).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTvmaze, type FakeTvmaze } from '../fakes/tvmaze.js';
import { TestClient } from '../harness/client.js';
import { getBytes } from '../harness/multipart.js';
import { mintSession, startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const API = '/api/shows';

describe('shows offline', () => {
  const temp = makeTempDir();
  let tv: FakeTvmaze;
  let s: TestServer;

  beforeAll(async () => {
    tv = await startFakeTvmaze({ now: () => new Date() });
    s = await startTestServer({ seed: 'household', dataDir: temp.dir, config: { tvmazeUrl: tv.url, fetchAllowOrigins: [tv.origin] }, overrides: { tuning: { todayFetchTimeoutMs: 1_500 } } });
  });
  afterAll(async () => {
    await s?.close();
    await tv?.close();
    temp.remove();
  });

  it('keeps the watchlist, the kept guide, ticks, the schedule and posters working; the rest says Hearth is in offline mode', async () => {
    expect((await s.member.post(`${API}/watchlist`, { tvmazeId: 9901 })).status).toBe(201);
    expect((await s.member.req('PUT', `${API}/9901/episodes/990121`, { watched: true })).status).toBe(200);
    expect((await getBytes(s.url, s.member, `${API}/9901/image`)).status).toBe(200);
    const online = await s.member.get(`${API}/schedule`);
    expect(online.body.episodes.length).toBeGreaterThan(0);
    const memberId = s.users.member.id;
    await s.close();

    s = await startTestServer({ dataDir: temp.dir, config: { tvmazeUrl: tv.url, fetchAllowOrigins: [tv.origin], offline: true } });
    const member = new TestClient(s.url, await mintSession(s.handle, memberId));
    tv.reset();

    expect((await member.get(`${API}/watchlist`)).body.shows).toEqual([expect.objectContaining({ tvmazeId: 9901, name: 'Harbor Lights', watchedCount: 1 })]);
    const show = await member.get(`${API}/9901`);
    expect(show.status).toBe(200);
    expect(show.body.episodes.filter((e: { watched: boolean }) => e.watched).map((e: { id: number }) => e.id)).toEqual([990121]);
    expect((await member.req('PUT', `${API}/9901/episodes/990122`, { watched: true })).status).toBe(200);
    expect((await member.get(`${API}/watchlist`)).body.shows[0].watchedCount).toBe(2);
    const schedule = await member.get(`${API}/schedule`);
    expect(schedule.status).toBe(200);
    expect(schedule.body.episodes).toEqual(online.body.episodes);
    const poster = await getBytes(s.url, member, `${API}/9901/image`);
    expect(poster.status).toBe(200);
    expect((await member.req('DELETE', `${API}/watchlist/9901`)).status).toBe(204);

    for (const r of [await member.get(`${API}/search?q=harbor`), await member.get(`${API}/9902`), await member.post(`${API}/watchlist`, { tvmazeId: 9902 })]) {
      expect(r.status).toBe(503);
      expect(r.body.error.message).toMatch(/^Hearth is in offline mode, so .+\./);
    }
    expect(tv.requests).toEqual([]);
  });
});
