// The media server's proxies over HTTP (proxy-service.ts, proxy-routes.ts) against the fake Plex: /img
// resizes a library picture with sharp, keeps it on disk (the second ask never reaches the
// server), refuses anything that is not a library picture and says "not set up" with a 404;
// /stream/:ratingKey passes Range through (200, 206 with the exact bytes, a suffix range, 416,
// HEAD), refuses episodes and shows in a sentence, and stops reading the server when the browser
// leaves. No token in any answer or log line.
//
// A real Hearth (startTestServer) whose admin connects the fake as the household's server; the
// adapter, the SSRF guard, sharp, the disk cache and the fake are all real.
import sharp from 'sharp';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PART_BYTES, PART_SIZE, startFakeMediaServer, type FakeMediaServer } from '../fakes/media-server.js';
import { createTokenScan } from '../harness/media-token-scan.js';
import { waitFor } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const THUMB = '/library/metadata/101/thumb/1735693200';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

describe('media proxies (/img, /stream)', () => {
  let fake: FakeMediaServer;
  let s: TestServer;
  let base: string;
  const scan = createTokenScan();

  const connect = async () => expect((await s.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: fake.url, token: fake.tokens.admin })).status).toBe(200);
  const disconnect = async () => expect((await s.admin.post('/api/mediaserver/config', { mode: 'disconnect' })).status).toBe(200);

  beforeAll(async () => {
    fake = await startFakeMediaServer();
    s = await startTestServer({ seed: 'household', config: { fetchAllowOrigins: [fake.url], mediaAccountUrl: fake.accountUrl, mediaDiscoverUrl: fake.discoverUrl } });
    scan.watch(s);
    base = `${s.url}/api/mediaserver`;
    await connect();
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());
  /** What the connection heard from the proxies (it logs each change of the server's health). */
  const healthHeard = () => s.logger.lines.filter((l) => l.msg === 'Media server health changed').map((l) => l.health);

  async function get(path: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET', who: 'member' | 'anon' = 'member'): Promise<Answer> {
    const res = await request(`${base}${path}`, { method, headers: { ...(who === 'member' ? { cookie: s.member.cookie! } : {}), ...headers } });
    const body = Buffer.from(await res.body.arrayBuffer());
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) flat[k] = Array.isArray(v) ? v.join(', ') : String(v);
    const answer = { status: res.statusCode, headers: flat, body };
    scan.record(`${method} ${path} -> ${answer.status}`, { status: answer.status, headers: flat, text: body.toString('latin1') });
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
      await disconnect();
      const a = await get(img(64, 96));
      await connect();
      expect(a.status).toBe(404);
      expect(errorOf(a)).toMatchObject({ code: 'media_not_configured', message: expect.stringMatching(/No media server/) as unknown });
    });

    it('answers 503 in a sentence when the server is down or refuses the shared token (as the library does), and tells the connection', async () => {
      await fake.setMode('down', { role: 'server' });
      const down = await get(img(64, 97));
      expect(down.status).toBe(503);
      expect(errorOf(down)).toMatchObject({ code: 'media_server_down' });
      expect(errorOf(down).message).not.toMatch(/\d{3}|ECONN|undici/);
      await fake.setMode('ok');
      fake.revoke(fake.tokens.admin);
      const refused = await get(img(64, 98));
      expect(refused.status).toBe(503);
      expect(errorOf(refused)).toMatchObject({ code: 'media_server_refused' });
      expect(healthHeard().slice(-2)).toEqual(['unreachable', 'unauthorized']);
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
      const res = await request(`${base}/stream/102`, { headers: { cookie: s.member.cookie! } });
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

    it('says not set up (404) and server down (503) in sentences', async () => {
      await disconnect();
      expect(errorOf(await get('/stream/101'))).toMatchObject({ code: 'media_not_configured' });
      await connect();
      await fake.setMode('down', { role: 'server' });
      const down = await get('/stream/103');
      expect(down.status).toBe(503);
      expect(errorOf(down).code).toBe('media_server_down');
      await fake.setMode('ok');
    });

    it('asks who is asking', async () => {
      expect((await get('/stream/101', {}, 'GET', 'anon')).status).toBe(401);
      expect((await get('/stream/101', {}, 'HEAD', 'anon')).status).toBe(401);
    });
  });

  it('put no token in any answer (headers or body) or log line', () => {
    expect(scan.answers.length).toBeGreaterThan(20);
    scan.expectNoTokens(fake.allTokens());
  });
});
