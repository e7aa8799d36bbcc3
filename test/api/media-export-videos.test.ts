// Home videos (content type mine) against the fake Plex: the resumable upload (tus) refused
// before the member's library is ready, for a declared non-video and over the size cap; an upload
// cut mid-piece and resumed from the offset the server kept; a "video" whose first bytes are not
// one deleted with a sentence; the finished file moved into the member's folder and scanned, its
// ratingKey picked up; privacy (another member's upload and video are 404s); delete with rescan;
// abandoned uploads cleaned when they expire.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaServerGuard, createPlexServerClient } from '../../server/adapters/media-server/plex.js';
import type { MediaConnection } from '../../server/modules/media-server/parts.js';
import { DISK_RESERVE_BYTES } from '../../server/platform/disk.js';
import { PART_BYTES, startFakeMediaServer, TOKENS, type FakeMediaServer } from '../fakes/media-server.js';
import type { TestClient } from '../harness/client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const SERVER_ROOT = '/srv/plex-media/hearth';
const UPLOADS = '/api/mediaserver/me/uploads';
const CAP = 1024 * 1024;
const LIMITS = '/api/mediaserver/admin/upload-limits';

function fakeConnection(fake: FakeMediaServer): MediaConnection & { close(): Promise<void> } {
  const guard = createMediaServerGuard(fake.url);
  const client = createPlexServerClient({ baseUrl: fake.url, guard, client: { clientIdentifier: 'hearth-test', product: 'Hearth', version: '0', platform: 'Linux', device: 'Hearth', deviceName: 'Hearth' } });
  return {
    shared: async () => ({ client, token: TOKENS.admin, machineIdentifier: fake.machineIdentifier, name: 'Living Room Plex' }),
    // linked (provisioning waits for a link)
    memberToken: async () => 'linked-in-test',
    memberServerToken: async () => null,
    reportMemberUnauthorized: async () => undefined,
    reportShared: async () => undefined,
    close: () => guard.close(),
  };
}

const meta = (o: Record<string, string>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

describe('media export: home videos', () => {
  let s: TestServer;
  let fake: FakeMediaServer;
  let conn: ReturnType<typeof fakeConnection>;
  const temp = makeTempDir();
  const store = path.join(temp.dir, 'media');
  /** The free space the server reads for every disk (a figure, so no test fills a real disk). */
  let freeBytes = 10 * 1024 ** 4;

  /** A tus request as the web app's client sends it. */
  const tus = async (c: TestClient, method: 'POST' | 'PATCH' | 'HEAD' | 'DELETE' | 'GET', url: string, headers: Record<string, string> = {}, body?: Buffer) => {
    const res = await request(`${s.url}${url}`, {
      method,
      headers: { 'tus-resumable': '1.0.0', origin: s.url, ...(c.cookie ? { cookie: c.cookie } : {}), ...(body ? { 'content-type': 'application/offset+octet-stream' } : {}), ...headers },
      body,
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) as { error: { code: string; message: string } } };
  };
  const create = (c: TestClient, size: number, name: string, type: string) => tus(c, 'POST', UPLOADS, { 'upload-length': String(size), 'upload-metadata': meta({ filename: name, filetype: type }) });
  const offsetOf = async (c: TestClient, url: string) => Number((await tus(c, 'HEAD', url)).headers['upload-offset']);
  const memberDir = () => {
    const mine = path.join(store, 'mine');
    const [folder] = readdirSync(mine).filter((f) => f.startsWith('sam-'));
    return path.join(mine, folder!);
  };
  const videos = async () => (await s.member.get('/api/mediaserver/me/videos')).body;

  beforeAll(async () => {
    mkdirSync(store, { recursive: true });
    fake = await startFakeMediaServer({ refreshMs: 20, mounts: { [SERVER_ROOT]: store } });
    conn = fakeConnection(fake);
    s = await startTestServer({ seed: 'household', overrides: { mediaConnection: conn, diskFree: async () => freeBytes, tuning: { mediaScanPollMs: 20, homeVideoMaxBytes: CAP } }, config: { fetchAllowOrigins: [fake.url] } });
    const loc = (await s.admin.post('/api/admin/storage-locations', { name: 'Media', localPath: store, contentTypes: ['mine'], serverPath: SERVER_ROOT })).body.location;
    expect((await s.admin.post(`/api/admin/storage-locations/${loc.id}/check`)).body.ok).toBe(true);
    expect((await s.admin.post('/api/mediaserver/admin/provision', { userId: s.users.member.id, contentType: 'mine' })).status).toBe(202);
    await s.handle.deps.mediaExport.idle();
  });
  afterAll(async () => {
    await s.close();
    await conn.close();
    await fake.close();
    temp.remove();
  });

  it('refuses an upload before the library is ready, a declared non-video, and one over the cap, in sentences', async () => {
    expect((await tus(s.anon, 'POST', UPLOADS, { 'upload-length': '10' })).status).toBe(401);
    // the admin has no library of their own
    const notReady = await create(s.admin, 1000, 'a.mp4', 'video/mp4');
    expect(notReady.status).toBe(409);
    expect(notReady.json().error.message).toMatch(/not set up yet: an admin sets it up/);
    const text = await create(s.member, 1000, 'notes.txt', 'text/plain');
    expect(text.status).toBe(415);
    expect(text.json().error.message).toMatch(/Only videos can be uploaded/);
    const big = await create(s.member, CAP + 1, 'long.mp4', 'video/mp4');
    expect(big.status).toBe(413);
    expect(big.json().error.message).toMatch(/larger than/);
    expect((await videos()).videos).toEqual([]);
  });

  it('resumes an upload cut mid-piece from the offset kept, then stores, scans and lists the video', async () => {
    const bytes = Buffer.concat([PART_BYTES.subarray(0, 200_000)]);
    const made = await create(s.member, bytes.length, 'Birthday at the lake.mp4', 'video/mp4');
    expect(made.status).toBe(201);
    const url = String(made.headers.location);
    expect(url).toMatch(new RegExp(`^${UPLOADS}/${s.users.member.id}_[0-9a-f]{32}$`));

    expect((await tus(s.member, 'PATCH', url, { 'upload-offset': '0' }, bytes.subarray(0, 64_000))).status).toBe(204);
    expect(await offsetOf(s.member, url)).toBe(64_000);

    // the next piece: the connection drops after part of it
    await new Promise<void>((resolve) => {
      const req = http.request(`${s.url}${url}`, {
        method: 'PATCH',
        headers: { 'tus-resumable': '1.0.0', origin: s.url, cookie: s.member.cookie!, 'content-type': 'application/offset+octet-stream', 'upload-offset': '64000', 'content-length': String(bytes.length - 64_000) },
      });
      req.on('error', () => resolve());
      req.write(bytes.subarray(64_000, 100_000), () => setTimeout(() => req.destroy(), 100));
      req.on('close', () => resolve());
    });
    let offset = 0;
    for (let i = 0; i < 50; i++) {
      offset = await offsetOf(s.member, url);
      if (offset > 64_000) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(offset).toBeGreaterThanOrEqual(64_000);
    expect(offset).toBeLessThan(bytes.length);

    const done = await tus(s.member, 'PATCH', url, { 'upload-offset': String(offset) }, bytes.subarray(offset));
    expect(done.status).toBe(204);
    const id = String(done.headers['hearth-video-id']);

    // in the member's folder under a safe unique name, the same bytes; the upload's parts are gone
    const files = readdirSync(memberDir());
    expect(files).toEqual([expect.stringMatching(/^birthday-at-the-lake-[0-9a-f]{8}\.mp4$/)]);
    expect(readdirSync(path.join(s.dataDir, 'media-uploads')).filter((f) => !f.startsWith('.'))).toEqual([]);
    expect(fake.log.some((l) => l.path.endsWith('/refresh') && new URLSearchParams(l.query).get('path')?.startsWith(`${SERVER_ROOT}/mine/sam-`))).toBe(true);

    // the scan has it after a moment: ratingKey and thumbnail through Hearth's proxy
    let list = await videos();
    for (let i = 0; i < 50 && list.videos[0]?.state !== 'ready'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      list = await videos();
    }
    expect(list.videos).toEqual([
      expect.objectContaining({ id, title: 'Birthday at the lake', bytes: bytes.length, contentType: 'video/mp4', state: 'ready', ratingKey: expect.stringMatching(/^\d+$/), item: expect.objectContaining({ title: 'Birthday at the lake', playable: true }) }),
    ]);
    // its picture, through Hearth's proxy, is a 16:9 frame for the list's slot (the browser test loads it)
    const thumbUrl = list.videos[0].item.thumbUrl as string;
    expect(thumbUrl.startsWith('/api/mediaserver/img?')).toBe(true);
    expect(Object.fromEntries(new URL(thumbUrl, s.url).searchParams)).toEqual({ path: expect.stringMatching(/^\/library\/metadata\/\d+\/thumb/) as unknown, w: '192', h: '108' });
    expect(list.usedBytes).toBe(bytes.length);
    expect(list.maxBytes).toBe(CAP);
    expect(JSON.stringify(list)).not.toContain(fake.url);
    expect(JSON.stringify(list)).not.toContain(store);
  });

  it('deletes a "video" whose first bytes are not one, with a sentence', async () => {
    const fakeVideo = Buffer.from('This is a letter to grandma, not a video at all.'.repeat(20));
    const made = await create(s.member, fakeVideo.length, 'sneaky.mp4', 'video/mp4');
    const url = String(made.headers.location);
    const done = await tus(s.member, 'PATCH', url, { 'upload-offset': '0' }, fakeVideo);
    expect(done.status).toBe(415);
    expect(done.json().error.message).toMatch(/not a video Hearth can keep/);
    expect(readdirSync(memberDir()).some((f) => f.startsWith('sneaky'))).toBe(false);
    expect(readdirSync(path.join(s.dataDir, 'media-uploads')).filter((f) => !f.startsWith('.'))).toEqual([]);
    expect((await videos()).videos).toHaveLength(1);
  });

  it('checks the very id the upload server reads: another member’s upload behind an extra segment, a query or an encoded slash is a 404, and a POST to a path is no new upload', async () => {
    const made = await create(s.member, 1000, 'Sam secret.mp4', 'video/mp4');
    expect(made.status).toBe(201);
    const url = String(made.headers.location);
    const id = url.slice(UPLOADS.length + 1);
    // the admin plays "Bob": a path that starts with his own id but whose last segment is Sam's
    const bob = s.users.admin.id;
    const tries = [`${UPLOADS}/${bob}_x/${id}`, `${UPLOADS}/${bob}_x/${id}/`, `${UPLOADS}/${bob}_x?next=/${id}`, `${UPLOADS}/${bob}_x%2F${id}`, `${UPLOADS}//${id}`];
    for (const u of tries) {
      const head = await tus(s.admin, 'HEAD', u);
      expect({ u, status: head.status }).toEqual({ u, status: 404 });
      expect(head.headers['upload-metadata']).toBeUndefined();
      const get = await tus(s.admin, 'GET', u);
      expect({ u, status: get.status }).toEqual({ u, status: 404 });
      const patch = await tus(s.admin, 'PATCH', u, { 'upload-offset': '0' }, PART_BYTES.subarray(0, 1000));
      expect({ u, status: patch.status }).toEqual({ u, status: 404 });
      expect(patch.json().error.message).toBe('That upload does not exist.');
      expect((await tus(s.admin, 'DELETE', u)).status).toBe(404);
    }
    // Sam's upload is untouched and still hers
    expect(await offsetOf(s.member, url)).toBe(0);
    expect((await tus(s.member, 'HEAD', url)).headers['upload-metadata']).toContain(Buffer.from('Sam secret.mp4').toString('base64'));
    // a POST below the uploads path made an upload without the new-upload checks (the admin has no library; text is no video)
    for (const u of [`${UPLOADS}/${bob}_x`, `${UPLOADS}/${bob}_x/y`]) {
      const sneaky = await tus(s.admin, 'POST', u, { 'upload-length': '1000', 'upload-metadata': meta({ filename: 'notes.txt', filetype: 'text/plain' }) });
      expect({ u, status: sneaky.status }).toEqual({ u, status: 404 });
      expect(sneaky.headers.location).toBeUndefined();
    }
    expect((await tus(s.member, 'DELETE', url)).status).toBe(204);
  });

  it('limits each member’s open uploads (10 and 50 GB by default, a household setting), refuses what the disk cannot hold beside the other uploads and the reserve (507), all as JSON sentences', async () => {
    expect((await s.anon.get(LIMITS)).status).toBe(401);
    expect((await s.member.get(LIMITS)).status).toBe(403);
    expect((await s.member.put(LIMITS, { maxOpenUploads: 100, maxOpenBytes: 10 * 1024 ** 3 })).status).toBe(403);
    expect((await s.admin.get(LIMITS)).body).toEqual({ maxOpenUploads: 10, maxOpenBytes: 50 * 1024 ** 3 });
    expect((await s.admin.put(LIMITS, { maxOpenUploads: 0, maxOpenBytes: 10 })).status).toBe(400);

    const open: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await create(s.member, 500_000, `clip ${i}.mp4`, 'video/mp4');
      expect(r.status).toBe(201);
      open.push(String(r.headers.location));
    }
    const eleventh = await create(s.member, 500_000, 'clip 10.mp4', 'video/mp4');
    expect(eleventh.status).toBe(429);
    expect(eleventh.json().error).toMatchObject({ code: 'too_many_open_uploads', message: expect.stringMatching(/You already have 10 uploads that are not finished/) });
    // cancelling one makes room for another
    expect((await tus(s.member, 'DELETE', open.pop()!)).status).toBe(204);
    const tenth = await create(s.member, 500_000, 'clip 10.mp4', 'video/mp4');
    expect(tenth.status).toBe(201);
    open.push(String(tenth.headers.location));

    // the declared total: 10 × 500 KB are open; with a 5 MB limit another 500 KB is too much, 200 KB is not
    expect((await s.admin.put(LIMITS, { maxOpenUploads: 20, maxOpenBytes: 5 * 1024 ** 2 })).body).toEqual({ maxOpenUploads: 20, maxOpenBytes: 5 * 1024 ** 2 });
    const over = await create(s.member, 500_000, 'long.mp4', 'video/mp4');
    expect(over.status).toBe(413);
    expect(over.json().error).toMatchObject({ code: 'open_uploads_too_large', message: 'Your unfinished uploads would come to 5.2 MB, more than the 5.0 MB a member may have on the way at once. Let the others finish first, or ask an admin to raise the limit.' });
    const small = await create(s.member, 200_000, 'short.mp4', 'video/mp4');
    expect(small.status).toBe(201);
    open.push(String(small.headers.location));
    await s.admin.put(LIMITS, { maxOpenUploads: 20, maxOpenBytes: 50 * 1024 ** 3 });

    // the disk: what the open uploads still have to write is spoken for, and the reserve stays free
    freeBytes = DISK_RESERVE_BYTES + 1_000_000;
    const full = await create(s.member, 500_000, 'one more.mp4', 'video/mp4');
    expect(full.status).toBe(507);
    expect(full.json().error).toMatchObject({ code: 'not_enough_disk', message: 'This video, with the uploads not finished yet, needs 5.4 MB but only 977 KB is free on the data disk. Free some space and try again.' });
    for (const u of open.splice(0)) expect((await tus(s.member, 'DELETE', u)).status).toBe(204);
    freeBytes = DISK_RESERVE_BYTES + 600_000;
    const fits = await create(s.member, 500_000, 'fits.mp4', 'video/mp4');
    expect(fits.status).toBe(201);
    expect((await tus(s.member, 'DELETE', String(fits.headers.location))).status).toBe(204);
    const tooBig = await create(s.member, 700_000, 'too big.mp4', 'video/mp4');
    expect(tooBig.status).toBe(507);
    expect(tooBig.json().error.message).toBe('This video needs 684 KB but only 586 KB is free on the data disk. Free some space and try again.');
    freeBytes = 10 * 1024 ** 4;

    // tus's own refusals are sentences too: no protocol header, a piece at the wrong place, no size
    const made = await create(s.member, 1000, 'a.mp4', 'video/mp4');
    const url = String(made.headers.location);
    const noTus = await tus(s.member, 'PATCH', url, { 'tus-resumable': '', 'upload-offset': '0' }, PART_BYTES.subarray(0, 10));
    expect(noTus.status).toBe(412);
    expect(noTus.headers['content-type']).toMatch(/^application\/json/);
    expect(noTus.json().error.code).toBe('resumable_upload_required');
    const wrongPlace = await tus(s.member, 'PATCH', url, { 'upload-offset': '5' }, PART_BYTES.subarray(0, 10));
    expect(wrongPlace.status).toBe(409);
    expect(wrongPlace.json().error.message).toMatch(/does not continue where the upload stopped/);
    const unknownSize = await tus(s.member, 'POST', UPLOADS, { 'upload-defer-length': '1', 'upload-metadata': meta({ filename: 'a.mp4', filetype: 'video/mp4' }) });
    expect(unknownSize.status).toBe(400);
    expect(unknownSize.json().error.message).toMatch(/needs to know how large the video is/);
    expect((await tus(s.member, 'DELETE', url)).status).toBe(204);
  });

  it('keeps uploads and videos private: another member’s are 404s; the owner deletes and the folder is rescanned', async () => {
    const made = await create(s.member, 1000, 'Half.mp4', 'video/mp4');
    const url = String(made.headers.location);
    expect((await tus(s.admin, 'HEAD', url)).status).toBe(404);
    expect((await tus(s.admin, 'PATCH', url, { 'upload-offset': '0' }, PART_BYTES.subarray(0, 1000))).status).toBe(404);
    expect((await tus(s.admin, 'DELETE', url)).status).toBe(404);
    expect(await offsetOf(s.member, url)).toBe(0);

    const [video] = (await videos()).videos;
    expect((await s.admin.delete(`/api/mediaserver/me/videos/${video.id}`)).status).toBe(404);
    expect((await s.anon.delete(`/api/mediaserver/me/videos/${video.id}`)).status).toBe(401);
    const before = fake.log.length;
    expect((await s.member.delete(`/api/mediaserver/me/videos/${video.id}`)).status).toBe(204);
    expect(readdirSync(memberDir()).filter((f) => f.endsWith('.mp4'))).toEqual([]);
    expect(fake.log.slice(before).some((l) => l.path.endsWith('/refresh'))).toBe(true);
    const after = (await videos()).videos;
    expect(after[0]).toMatchObject({ id: video.id, state: 'removed', removedReason: 'You deleted it.' });
    expect((await s.member.delete(`/api/mediaserver/me/videos/${video.id}`)).status).toBe(404);

    // the half-finished upload above is abandoned: once it has expired it is cleaned
    const uploads = await s.handle.deps.homeVideos.uploads();
    const partsOf = () => readdirSync(path.join(s.dataDir, 'media-uploads')).filter((f) => !f.startsWith('.'));
    expect(partsOf().length).toBeGreaterThan(0);
    expect(await s.handle.deps.homeVideos.cleanExpiredUploads()).toBe(0);
    uploads.expirationPeriodInMilliseconds = 1;
    await new Promise((r) => setTimeout(r, 5));
    expect(await s.handle.deps.homeVideos.cleanExpiredUploads()).toBe(1);
    expect(partsOf()).toEqual([]);
    expect(existsSync(memberDir())).toBe(true);
  });
});
