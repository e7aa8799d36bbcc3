// The media server's proxies over HTTP (proxy.ts, proxy-routes.ts) against the fake Plex: /img
// resizes a library picture with sharp, keeps it on disk (the second ask never reaches the
// server), refuses anything that is not a library picture and says "not set up" with a 404;
// /stream/:ratingKey passes Range through (200, 206 with the exact bytes, a suffix range, 416,
// HEAD), refuses episodes and shows in a sentence, and stops reading the server when the browser
// leaves. No token in any answer or log line.
//
// The routes run on a small express app with the real error handler and response checks, an
// actor from a test header and an in-test MediaConnection (the connection part is built beside
// this one); everything under it (adapter, SSRF guard, sharp, the disk cache, the fake) is real.
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import express from 'express';
import sharp from 'sharp';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMediaServerGuard, createPlexServerClient, type PlexClientInfo } from '../../server/adapters/media-server/plex.js';
import type { UserActor } from '../../server/actor.js';
import { createErrorHandler } from '../../server/http/error-handler.js';
import type { MediaConnection, SharedServer } from '../../server/modules/media-server/ports.js';
import { MediaProxy } from '../../server/modules/media-server/proxy.js';
import { createMediaProxyRoutes } from '../../server/modules/media-server/proxy-routes.js';
import type { ServerHealth } from '../../server/modules/media-server/schema.js';
import { createMemoryLogger } from '../../server/platform/logger.js';
import type { SsrfGuard } from '../../server/platform/ssrf.js';
import { PART_BYTES, PART_SIZE, startFakeMediaServer, type FakeMediaServer } from '../fakes/media-server.js';
import { waitFor } from '../harness/net.js';
import { makeTempDir } from '../harness/temp-dir.js';

const CLIENT: PlexClientInfo = { clientIdentifier: 'hearth-proxy-test', product: 'Hearth', version: '0.1.0', platform: 'Linux', device: 'Hearth server', deviceName: 'Hearth' };
const MEMBER: UserActor = { kind: 'user', id: 'u-member', name: 'Sam', role: 'member', sessionId: 's1' };
const THUMB = '/library/metadata/101/thumb/1735693200';

class TestConnection implements MediaConnection {
  server: SharedServer | null = null;
  readonly reports: ServerHealth[] = [];
  shared = () => Promise.resolve(this.server);
  memberToken = () => Promise.resolve(null);
  memberServerToken = () => Promise.resolve(null);
  reportMemberUnauthorized = () => Promise.resolve();
  reportShared(health: ServerHealth) {
    this.reports.push(health);
    return Promise.resolve();
  }
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

describe('media proxies (/img, /stream)', () => {
  let fake: FakeMediaServer;
  let guard: SsrfGuard;
  let shared: SharedServer;
  const connection = new TestConnection();
  const logger = createMemoryLogger();
  const tmp = makeTempDir('hearth-media-proxy-');
  let proxy: MediaProxy;
  let server: http.Server;
  let base: string;
  /** Every answer of this file, for the token search at the end. */
  const answers: Answer[] = [];

  beforeAll(async () => {
    fake = await startFakeMediaServer();
    guard = createMediaServerGuard(fake.url);
    shared = {
      client: createPlexServerClient({ baseUrl: fake.url, guard, client: CLIENT, logger, timeoutMs: 1_500 }),
      token: fake.tokens.admin,
      machineIdentifier: fake.machineIdentifier,
      name: 'Living Room Plex',
    };
    proxy = new MediaProxy({ connection, cacheDir: `${tmp.dir}/cache/media-img`, logger });
    const app = express();
    app.locals.checkResponses = true;
    app.use((req, _res, next) => {
      if (req.get('x-test-user') === 'member') req.actor = MEMBER;
      next();
    });
    app.use('/api/mediaserver', createMediaProxyRoutes(proxy).router);
    app.use(createErrorHandler(logger));
    server = http.createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mediaserver`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await guard.close();
    await fake.close();
    tmp.remove();
  });
  beforeEach(() => {
    fake.reset();
    connection.server = shared;
    connection.reports.length = 0;
  });

  async function get(path: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET', who: 'member' | 'anon' = 'member'): Promise<Answer> {
    const res = await request(`${base}${path}`, { method, headers: { ...(who === 'member' ? { 'x-test-user': 'member' } : {}), ...headers } });
    const body = Buffer.from(await res.body.arrayBuffer());
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) flat[k] = Array.isArray(v) ? v.join(', ') : String(v);
    const answer = { status: res.statusCode, headers: flat, body };
    answers.push(answer);
    return answer;
  }
  const errorOf = (a: Answer) => (JSON.parse(a.body.toString('utf8')) as { error: { code: string; message: string } }).error;
  const serverLog = (fragment: string) => fake.log.filter((l) => l.path.includes(fragment));

  describe('/img', () => {
    const img = (w: number, h: number, path = THUMB) => `/img?${new URLSearchParams({ path, w: String(w), h: String(h) }).toString()}`;

    it('resizes a library picture to the asked box with sharp, as webp for a browser that takes it, with a cache header', async () => {
      const a = await get(img(64, 96), { accept: 'image/avif,image/webp,*/*' });
      expect(a.status).toBe(200);
      expect(a.headers['content-type']).toBe('image/webp');
      expect(a.headers['cache-control']).toMatch(/^private, max-age=\d{5,}$/);
      expect(a.headers.vary).toMatch(/Accept/);
      const meta = await sharp(a.body).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 64, height: 96 });
      // asked of the server's resizer with the token in the header only
      const asked = serverLog('/photo/:/transcode');
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ tokenVia: 'header', user: 'admin' });
      expect(new URLSearchParams(asked[0]!.query).get('url')).toBe(THUMB);

      const jpeg = await get(img(120, 80), { accept: 'image/*' });
      expect(jpeg.headers['content-type']).toBe('image/jpeg');
      expect(await sharp(jpeg.body).metadata()).toMatchObject({ format: 'jpeg', width: 120, height: 80 });
    });

    it('answers the second ask of the same picture and size from the disk cache, without the server', async () => {
      const first = await get(img(80, 120));
      expect(first.status).toBe(200);
      expect(serverLog('/photo/:/transcode')).toHaveLength(1);
      const second = await get(img(80, 120));
      expect(second.status).toBe(200);
      expect(second.body.equals(first.body)).toBe(true);
      expect(serverLog('/photo/:/transcode')).toHaveLength(1);
      // the phone's own cache: the same validator answers 304 without bytes
      const again = await get(img(80, 120), { 'if-none-match': first.headers.etag! });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      // another size is another picture
      expect((await get(img(81, 120))).status).toBe(200);
      expect(serverLog('/photo/:/transcode')).toHaveLength(2);
    });

    it('refuses anything but a library picture of the configured server with a 400 sentence, asking nothing', async () => {
      for (const path of [
        'http://169.254.169.254/latest/meta-data',
        '//evil.example/x.jpg',
        '/library/metadata/101/../../../etc/passwd',
        '/library/metadata/101/thumb/%2e%2e/%2e%2e/x',
        '/library/parts/2101/1/file.mp4',
        '/photo/:/transcode',
        '/library/sections/1/all',
      ]) {
        const a = await get(img(64, 64, path));
        expect(a.status, path).toBe(400);
        expect(errorOf(a).message.length).toBeGreaterThan(10);
      }
      expect((await get('/img?w=64&h=64')).status).toBe(400);
      expect((await get(img(8, 64))).status).toBe(400);
      expect(fake.log).toHaveLength(0);
    });

    it('answers 404 in a sentence when no media server is set up', async () => {
      connection.server = null;
      const a = await get(img(64, 96));
      expect(a.status).toBe(404);
      expect(errorOf(a)).toMatchObject({ code: 'media_not_configured', message: expect.stringMatching(/No media server/) as unknown });
    });

    it('answers 502 in a sentence when the server is down or refuses the shared token, and tells the connection', async () => {
      await fake.setMode('down', { role: 'server' });
      const down = await get(img(64, 97));
      expect(down.status).toBe(502);
      expect(errorOf(down)).toMatchObject({ code: 'media_server_unreachable' });
      expect(errorOf(down).message).not.toMatch(/\d{3}|ECONN|undici/);
      await fake.setMode('ok');
      fake.revoke(fake.tokens.admin);
      const refused = await get(img(64, 98));
      expect(refused.status).toBe(502);
      expect(errorOf(refused)).toMatchObject({ code: 'media_server_refused' });
      expect(connection.reports).toEqual(['unreachable', 'unauthorized']);
    });

    it('asks who is asking', async () => {
      expect((await get(img(64, 96), {}, 'GET', 'anon')).status).toBe(401);
    });
  });

  describe('/stream/:ratingKey', () => {
    it('sends a film whole with the server’s length and type, the token only in the header', async () => {
      const a = await get('/stream/101');
      expect(a.status).toBe(200);
      expect(a.headers).toMatchObject({ 'content-length': String(PART_SIZE), 'accept-ranges': 'bytes', 'content-type': 'video/mp4' });
      expect(a.body.equals(PART_BYTES)).toBe(true);
      const part = serverLog('/library/parts/');
      expect(part).toHaveLength(1);
      expect(part[0]).toMatchObject({ tokenVia: 'header', query: '' });
    });

    it('passes Range through: 206 with the exact bytes and Content-Range, a suffix range, an open range', async () => {
      const a = await get('/stream/104', { range: 'bytes=1000-1999' });
      expect(a.status).toBe(206);
      expect(a.headers).toMatchObject({ 'content-range': `bytes 1000-1999/${PART_SIZE}`, 'content-length': '1000', 'accept-ranges': 'bytes' });
      expect(a.body.equals(PART_BYTES.subarray(1000, 2000))).toBe(true);

      const suffix = await get('/stream/104', { range: 'bytes=-500' });
      expect(suffix.status).toBe(206);
      expect(suffix.headers['content-range']).toBe(`bytes ${PART_SIZE - 500}-${PART_SIZE - 1}/${PART_SIZE}`);
      expect(suffix.body.equals(PART_BYTES.subarray(PART_SIZE - 500))).toBe(true);

      const open = await get('/stream/104', { range: `bytes=${PART_SIZE - 10}-`, 'if-range': 'Wed, 01 Jan 2025 00:00:00 GMT' });
      expect(open.status).toBe(206);
      expect(open.body.equals(PART_BYTES.subarray(PART_SIZE - 10))).toBe(true);
      expect(serverLog('/library/parts/').map((l) => l.range)).toEqual(['bytes=1000-1999', 'bytes=-500', `bytes=${PART_SIZE - 10}-`]);
      // the part key is reused: one metadata read for the three
      expect(serverLog('/library/metadata/104')).toHaveLength(1);
    });

    it('passes 416 through for a range past the end', async () => {
      const a = await get('/stream/101', { range: `bytes=${PART_SIZE + 5}-` });
      expect(a.status).toBe(416);
      expect(a.headers['content-range']).toBe(`bytes */${PART_SIZE}`);
      expect(a.body.length).toBe(0);
    });

    it('answers HEAD with the headers and no bytes', async () => {
      const a = await get('/stream/101', {}, 'HEAD');
      expect(a.status).toBe(200);
      expect(a.headers).toMatchObject({ 'content-length': String(PART_SIZE), 'accept-ranges': 'bytes' });
      expect(a.body.length).toBe(0);
      expect(serverLog('/library/parts/')[0]).toMatchObject({ method: 'HEAD' });
    });

    it('stops reading the server when the browser leaves in the middle of a large film', async () => {
      const file = fake.state().items.find((i) => i.ratingKey === '102')!.file!;
      fake.addFile(file, 1024 * 1024 * 1024);
      const res = await request(`${base}/stream/102`, { headers: { 'x-test-user': 'member' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-length']).toBe(String(1024 * 1024 * 1024));
      let got = 0;
      for await (const chunk of res.body) {
        got += (chunk as Buffer).length;
        if (got > 2 * 1024 * 1024) break;
      }
      res.body.destroy();
      const upstream = await waitFor(() => serverLog('/library/parts/').find((l) => l.aborted), 'the server’s part answer to be closed early', 5_000);
      expect(upstream.status).toBe(200);
      // the proxy is still there for the next one
      expect((await get('/stream/101', { range: 'bytes=0-9' })).status).toBe(206);
    });

    it('refuses episodes and shows in a sentence, and a title the server does not know with a 404', async () => {
      const episode = await get('/stream/20111');
      expect(episode.status).toBe(422);
      expect(errorOf(episode)).toMatchObject({ code: 'not_playable', message: expect.stringMatching(/Episodes/) as unknown });
      expect((await get('/stream/201')).status).toBe(422);
      expect((await get('/stream/99999')).status).toBe(404);
      expect((await get('/stream/abc')).status).toBe(400);
      expect(serverLog('/library/parts/')).toHaveLength(0);
    });

    it('says not set up (404) and server down (502) in sentences', async () => {
      connection.server = null;
      expect(errorOf(await get('/stream/101'))).toMatchObject({ code: 'media_not_configured' });
      connection.server = shared;
      await fake.setMode('down', { role: 'server' });
      const down = await get('/stream/103');
      expect(down.status).toBe(502);
      expect(errorOf(down).code).toBe('media_server_unreachable');
      await fake.setMode('ok');
    });

    it('asks who is asking', async () => {
      expect((await get('/stream/101', {}, 'GET', 'anon')).status).toBe(401);
      expect((await get('/stream/101', {}, 'HEAD', 'anon')).status).toBe(401);
    });
  });

  it('put no token in any answer (headers or body) or log line', () => {
    expect(answers.length).toBeGreaterThan(20);
    const tokens = fake.allTokens();
    for (const a of answers) {
      const text = JSON.stringify(a.headers) + a.body.toString('latin1');
      for (const t of tokens) expect(text.includes(t), `a ${a.status} answer`).toBe(false);
    }
    const logged = JSON.stringify(logger.lines);
    for (const t of tokens) expect(logged.includes(t)).toBe(false);
  });
});
