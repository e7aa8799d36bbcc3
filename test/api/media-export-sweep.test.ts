// Rule 6's watched sweep on a moved clock against the fake Plex: with removeWatched on, Hearth's
// own file of a home video the member watched (the server's view count with their token) is
// deleted, the folder rescanned and the row marked removed with the reason; a section swept less
// than 15 minutes ago waits; syncMode recent keeps only the newest syncRecentCount.
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaServerGuard, createPlexServerClient } from '../../server/adapters/media-server/plex.js';
import type { MediaConnection } from '../../server/modules/media-server/parts.js';
import { createManualClock } from '../../server/platform/clock.js';
import { PART_BYTES, startFakeMediaServer, TOKENS, type FakeMediaServer } from '../fakes/media-server.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const SERVER_ROOT = '/srv/plex-media/hearth';
const MINUTE = 60_000;

describe('media export: the watched sweep', () => {
  let s: TestServer;
  let fake: FakeMediaServer;
  const temp = makeTempDir();
  const store = path.join(temp.dir, 'media');
  const clock = createManualClock(new Date('2026-11-26T08:00:00Z'));
  let closeGuard: () => Promise<void>;

  const upload = async (name: string) => {
    const headers = { 'tus-resumable': '1.0.0', origin: s.url, cookie: s.member.cookie! };
    const made = await request(`${s.url}/api/mediaserver/me/uploads`, { method: 'POST', headers: { ...headers, 'upload-length': '5000', 'upload-metadata': `filename ${Buffer.from(name).toString('base64')},filetype ${Buffer.from('video/mp4').toString('base64')}` } });
    await made.body.text();
    const done = await request(`${s.url}${String(made.headers.location)}`, { method: 'PATCH', headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: PART_BYTES.subarray(0, 5000) });
    await done.body.text();
    expect(done.statusCode).toBe(204);
    clock.advance(MINUTE);
  };
  const list = async () => (await s.member.get('/api/mediaserver/me/videos')).body.videos as Array<{ id: string; title: string; state: string; ratingKey: string | null; removedReason: string | null }>;
  const allScanned = async () => {
    for (let i = 0; i < 100; i++) {
      const v = await list();
      if (v.every((x) => x.state !== 'stored')) return v;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the fake never scanned the uploads');
  };
  const byTitle = async (title: string) => (await list()).find((v) => v.title === title)!;
  const files = () => readdirSync(path.join(store, 'mine', readdirSync(path.join(store, 'mine'))[0]!)).sort();
  /** The member watches a video on the server (their own token, as a Plex app would). */
  const watchOnServer = async (ratingKey: string) => {
    const r = await request(`${fake.url}/:/scrobble?key=${ratingKey}&identifier=com.plexapp.plugins.library`, { headers: { 'X-Plex-Token': TOKENS.aliceServer, Accept: 'application/json' } });
    await r.body.text();
    expect(r.statusCode).toBe(200);
  };

  beforeAll(async () => {
    mkdirSync(store, { recursive: true });
    fake = await startFakeMediaServer({ refreshMs: 20, mounts: { [SERVER_ROOT]: store } });
    const guard = createMediaServerGuard(fake.url);
    closeGuard = () => guard.close();
    const client = createPlexServerClient({ baseUrl: fake.url, guard, client: { clientIdentifier: 'hearth-test', product: 'Hearth', version: '0', platform: 'Linux', device: 'Hearth', deviceName: 'Hearth' } });
    let memberId = '';
    const conn: MediaConnection = {
      shared: async () => ({ client, token: TOKENS.admin, machineIdentifier: fake.machineIdentifier, name: 'Living Room Plex' }),
      // linked (provisioning waits for a link); the sweep reads watched state with memberServerToken
      memberToken: async () => 'linked-in-test',
      // the member's linked account is the fake's alice (a friend of the server)
      memberServerToken: async (userId) => (userId === memberId ? TOKENS.aliceServer : null),
      reportMemberUnauthorized: async () => undefined,
      reportShared: async () => undefined,
    };
    s = await startTestServer({ seed: 'household', overrides: { clock, mediaConnection: conn, tuning: { mediaScanPollMs: 20 } }, config: { fetchAllowOrigins: [fake.url] } });
    memberId = s.users.member.id;
    const loc = (await s.admin.post('/api/admin/storage-locations', { name: 'Media', localPath: store, contentTypes: ['mine'], serverPath: SERVER_ROOT })).body.location;
    expect((await s.admin.post(`/api/admin/storage-locations/${loc.id}/check`)).body.ok).toBe(true);
    await s.admin.post('/api/mediaserver/admin/provision', { userId: memberId, contentType: 'mine' });
    await s.handle.deps.mediaExport.idle();
    for (const name of ['Picnic.mp4', 'Recital.mp4', 'Snow day.mp4']) await upload(name);
    await allScanned();
  });
  afterAll(async () => {
    await s.close();
    await closeGuard();
    await fake.close();
    temp.remove();
  });

  it('leaves everything alone while removeWatched is off', async () => {
    await watchOnServer((await byTitle('Recital')).ratingKey!);
    expect(await s.handle.deps.mediaSweep.run()).toEqual({ removed: 0 });
    expect(files()).toHaveLength(3);
  });

  it('removes what the member watched, rescans, and waits 15 minutes between sweeps of a section', async () => {
    await s.member.patch('/api/mediaserver/me/library-sections', { contentType: 'mine', removeWatched: true });
    const before = fake.log.length;
    expect(await s.handle.deps.mediaSweep.run()).toEqual({ removed: 1 });
    expect(await byTitle('Recital')).toMatchObject({ state: 'removed', removedReason: 'Watched, so it was removed to make room.' });
    expect(files().some((f) => f.startsWith('recital'))).toBe(false);
    expect(files()).toHaveLength(2);
    expect(fake.log.slice(before).some((l) => l.path.endsWith('/refresh'))).toBe(true);
    const section = (await s.member.get('/api/mediaserver/me/library-sections')).body.sections[0].section;
    expect(section.lastSweptAt).toBe(clock.now().toISOString());

    // watched a minute later: the next sweep of this section is 15 minutes after the last
    await watchOnServer((await byTitle('Picnic')).ratingKey!);
    clock.advance(14 * MINUTE);
    expect(await s.handle.deps.mediaSweep.run()).toEqual({ removed: 0 });
    expect((await byTitle('Picnic')).state).toBe('ready');
    clock.advance(MINUTE);
    expect(await s.handle.deps.mediaSweep.run()).toEqual({ removed: 1 });
    expect((await byTitle('Picnic')).state).toBe('removed');
    expect((await byTitle('Snow day')).state).toBe('ready');
  });

  it('keeps only the newest syncRecentCount with syncMode recent', async () => {
    await upload('Fireworks.mp4');
    await allScanned();
    await s.member.patch('/api/mediaserver/me/library-sections', { contentType: 'mine', removeWatched: false, syncMode: 'recent', syncRecentCount: 1 });
    clock.advance(15 * MINUTE);
    expect(await s.handle.deps.mediaSweep.run()).toEqual({ removed: 1 });
    expect(await byTitle('Snow day')).toMatchObject({ state: 'removed', removedReason: 'Only your newest 1 are kept.' });
    expect((await byTitle('Fireworks')).state).toBe('ready');
    expect(files()).toEqual([expect.stringMatching(/^fireworks-/)]);
  });
});
