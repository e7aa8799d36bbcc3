// Issue 32, media: every library route and proxy hides titles rated above the member's Media level
// (child: G, PG, TV-Y, TV-Y7, TV-G, TV-PG; teen: those and PG-13, TV-14; adult: all; no rating
// counts as adult), against the fake Plex whose seeded items all carry a contentRating. Feeds and
// find leave such a title out; meta, img and the stream proxy answer 404 as for a title that is not
// there. Each feed and find answer says how many titles the dials kept out of it (hiddenByContent).
// An adult's media does not depend on the adult state.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeMediaServer, type FakeMediaServer } from '../fakes/media-server.js';
import type { TestClient } from '../harness/client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const API = '/api/mediaserver';
const thumb = (rk: string) => `${API}/img?${new URLSearchParams({ path: `/library/metadata/${rk}/thumb/1`, w: '64', h: '64' }).toString()}`;

describe('media under the content dials', () => {
  let fake: FakeMediaServer;
  let s: TestServer;

  beforeAll(async () => {
    fake = await startFakeMediaServer();
    s = await startTestServer({
      seed: 'household',
      config: { fetchAllowOrigins: [fake.url], mediaAccountUrl: fake.accountUrl, mediaDiscoverUrl: fake.discoverUrl, mediaLinkPageUrl: `${fake.url}/auth` },
      overrides: { tuning: { mediaHealthTtlMs: 0, mediaProbeMs: 1_000 } },
    });
    expect((await s.admin.post(`${API}/config`, { mode: 'manual', serverUrl: fake.url, token: fake.tokens.admin })).status).toBe(200);
    const pin = await s.member.post(`${API}/auth/pin`);
    fake.approvePin(pin.body.id, 'alice');
    expect((await s.member.post(`${API}/me/link`, { pinId: pin.body.id })).status).toBe(200);
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    fake.reset();
    // Glass Orchard is R; the 1987 Northbound has no rating (counts as adult)
    fake.setContentRating('103', 'R');
    fake.setContentRating('105', null);
  });

  const setLevel = async (level: 'child' | 'teen' | 'adult') => expect((await s.admin.put(`/api/admin/content/members/${s.users.member.id}`, { level })).status).toBe(200);
  /** Every rating key a member is shown by the feeds (items, hub items, a season's or episode's show too). */
  async function shown(c: TestClient): Promise<Set<string>> {
    const keys = new Set<string>();
    for (const path of ['/recent?limit=40', '/ondeck', '/hubs?limit=40', '/sessions']) {
      const r = await c.get(`${API}${path}`);
      expect(r.status, path).toBe(200);
      const walk = (v: unknown): void => {
        if (Array.isArray(v)) v.forEach(walk);
        else if (v && typeof v === 'object') {
          const o = v as Record<string, unknown>;
          if (typeof o.ratingKey === 'string') keys.add(o.ratingKey);
          Object.values(o).forEach(walk);
        }
      };
      walk(r.body);
    }
    return keys;
  }
  const status = async (c: TestClient, path: string) => (await c.get(path)).status;

  it('teen (the default): no R or unrated title from any feed, find, meta, img or stream; PG-13 and TV-14 are there', async () => {
    await setLevel('teen');
    const keys = await shown(s.member);
    expect(keys.has('101')).toBe(true); // PG-13
    expect(keys.has('103')).toBe(false);
    expect(keys.has('105')).toBe(false);
    expect((await s.member.get(`${API}/find?type=movie&title=Glass%20Orchard`)).body).toMatchObject({ found: false, item: null });
    expect((await s.member.get(`${API}/find?type=movie&title=Northbound&year=1987`)).body.found).toBe(false);
    expect((await s.member.get(`${API}/find?type=movie&title=Northbound&year=2008`)).body.found).toBe(true);
    for (const rk of ['103', '105']) {
      const meta = await s.member.get(`${API}/meta/${rk}`);
      expect(meta.status, rk).toBe(404);
      expect(meta.body.error.message).toBe('That title is not in the household’s library any more.');
      expect(await status(s.member, thumb(rk)), `img ${rk}`).toBe(404);
      expect(await status(s.member, `${API}/stream/${rk}`), `stream ${rk}`).toBe(404);
    }
    expect(await status(s.member, `${API}/meta/101`)).toBe(200);
    expect(await status(s.member, thumb('101'))).toBe(200);
    // the show's seasons are there for a teen (TV-14)
    expect((await s.member.get(`${API}/meta/201`)).body.children.length).toBeGreaterThan(0);
  });

  it('child: only G/PG and the TV-Y…TV-PG ratings; the TV-14 show and its episodes are gone everywhere', async () => {
    await setLevel('child');
    try {
      const keys = await shown(s.member);
      expect(keys.has('102')).toBe(true); // G
      for (const rk of ['101', '103', '105', '201', '2011', '20111']) expect(keys.has(rk), rk).toBe(false);
      for (const rk of ['101', '201', '2011', '20111']) expect(await status(s.member, `${API}/meta/${rk}`), rk).toBe(404);
      expect(await status(s.member, thumb('201'))).toBe(404);
      expect(await status(s.member, `${API}/stream/101`)).toBe(404);
      expect((await s.member.get(`${API}/find?type=show&title=Harbor%20Lights`)).body.found).toBe(false);
      expect((await s.member.get(`${API}/find?type=show&source=tvdb&id=300201`)).body.found).toBe(false);
      expect(await status(s.member, `${API}/meta/202`)).toBe(200); // TV-G
      expect(await status(s.member, `${API}/stream/102`)).toBe(200);
    } finally {
      await setLevel('teen');
    }
  });

  it('each feed and find answer counts the titles the dials kept out of it, so the page can say some are hidden', async () => {
    const count = async (path: string) => {
      const r = await s.member.get(`${API}${path}`);
      expect(r.status, path).toBe(200);
      return r.body.hiddenByContent as number;
    };
    // teen: Glass Orchard (R) and the unrated Northbound, each once
    expect(await count('/recent?limit=40')).toBe(2);
    expect(await count('/hubs?limit=40')).toBeGreaterThan(0);
    expect((await s.member.get(`${API}/find?type=movie&title=Glass%20Orchard`)).body).toEqual({ found: false, item: null, hiddenByContent: 1 });
    expect((await s.member.get(`${API}/find?type=movie&title=Northbound&year=2008`)).body).toMatchObject({ found: true, hiddenByContent: 0 });
    // a title that is not there at all is not "hidden"
    expect((await s.member.get(`${API}/find?type=movie&title=Nothing%20Like%20It`)).body).toEqual({ found: false, item: null, hiddenByContent: 0 });
    await setLevel('child');
    try {
      // and the PG-13 film, the TV-14 show's episodes
      expect(await count('/recent?limit=40')).toBeGreaterThan(2);
      expect((await s.member.get(`${API}/find?type=show&source=tvdb&id=300201`)).body).toEqual({ found: false, item: null, hiddenByContent: 1 });
    } finally {
      await setLevel('teen');
    }
    await setLevel('adult');
    try {
      for (const path of ['/recent?limit=40', '/ondeck', '/hubs?limit=40', '/sessions', '/find?type=movie&title=Glass%20Orchard']) expect(await count(path), path).toBe(0);
    } finally {
      await setLevel('teen');
    }
  });

  it('adult: everything, without the adult state', async () => {
    await setLevel('adult');
    try {
      expect((await s.member.get('/api/privacy')).body.adultState).toBe(false);
      const keys = await shown(s.member);
      expect(keys.has('103')).toBe(true);
      expect(await status(s.member, `${API}/meta/103`)).toBe(200);
      expect(await status(s.member, `${API}/meta/105`)).toBe(200);
      expect(await status(s.member, `${API}/stream/103`)).toBe(200);
      expect((await s.member.get(`${API}/find?type=movie&title=Glass%20Orchard`)).body.found).toBe(true);
    } finally {
      await setLevel('teen');
    }
  });
});
