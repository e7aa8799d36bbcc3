// The LAN speed test (issue 38, LibreSpeed's protocol) against loopback with bounded bytes: the
// garbage is ckSize MiB of incompressible bytes (at most 1024), the upload sink drains what it is
// sent (bounded), the ping target answers empty; signed-in members only; none of it in the request
// log or compressed; results stored per member, the household's history for admins only.
import { deflateRawSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminSpeedtestResponse, SpeedtestResultResponse } from '../../server/modules/speedtest/schema.js';
import { rawRequest } from '../harness/raw-http.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('speed test', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
  });
  afterAll(async () => {
    await s?.close();
  });

  const get = (path: string, cookie = s.member.cookie!) => request(`${s.url}${path}`, { headers: { cookie, 'accept-encoding': 'gzip, deflate, br' } });

  it('garbage sends ckSize MiB of incompressible bytes, uncached and uncompressed (4 MiB by default)', async () => {
    const r = await get('/api/speedtest/garbage?ckSize=3&r=0.123');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/octet-stream');
    expect(r.headers['cache-control']).toMatch(/no-store/);
    expect(r.headers['cache-control']).toMatch(/no-transform/);
    expect(r.headers['content-encoding'] ?? 'identity').toBe('identity');
    const body = Buffer.from(await r.body.arrayBuffer());
    expect(body.length).toBe(3 * 1024 * 1024);
    // random bytes do not compress: a compressor gains nothing on one MiB of them
    expect(deflateRawSync(body.subarray(0, 1024 * 1024)).length).toBeGreaterThan(1024 * 1024 * 0.99);
    const plain = await get('/api/speedtest/garbage');
    expect(Buffer.from(await plain.body.arrayBuffer()).length).toBe(4 * 1024 * 1024);
  });

  it('ckSize is bounded: over 1024, zero or not a number is 400 with a sentence', async () => {
    for (const [q, sentence] of [
      ['2000', 'ckSize is at most 1024 (1 GiB a request).'],
      ['0', 'ckSize is at least 1.'],
      ['lots', 'ckSize is a number of 1 MiB chunks.'],
    ] as const) {
      const r = await s.member.get(`/api/speedtest/garbage?ckSize=${q}`);
      expect(r.status, q).toBe(400);
      expect(JSON.stringify(r.body.error)).toContain(sentence);
    }
  });

  it('the upload sink drains the body and answers empty; the ping target answers empty', async () => {
    const blob = Buffer.alloc(5 * 1024 * 1024, 9);
    const up = await request(`${s.url}/api/speedtest/empty?r=1`, { method: 'POST', body: blob, headers: { cookie: s.member.cookie!, origin: s.url, 'content-type': 'application/octet-stream' } });
    expect(up.statusCode).toBe(200);
    expect(await up.body.text()).toBe('');
    const ping = await get('/api/speedtest/empty?r=2');
    expect(ping.statusCode).toBe(200);
    expect(await ping.body.text()).toBe('');
  });

  it('an upload over 256 MB is refused before it is read', async () => {
    // a body that says it is 257 MB: the answer comes at once, from the header
    const r = await rawRequest(s.url, {
      method: 'POST',
      path: '/api/speedtest/empty',
      body: 'x',
      headers: { cookie: s.member.cookie!, origin: s.url, 'content-type': 'application/octet-stream', 'content-length': String(257 * 1024 * 1024) },
    });
    expect(r.status).toBe(413);
    expect(r.headers.connection).toBe('close');
    expect(r.json()).toMatchObject({ error: { code: 'payload_too_large', message: 'One upload of the speed test is at most 256 MB.' } });
  });

  it('anonymous requests to every speed test route are 401', async () => {
    for (const path of ['/api/speedtest/garbage?ckSize=1', '/api/speedtest/empty', '/api/speedtest/results']) expect((await s.anon.get(path)).status, path).toBe(401);
    expect((await s.anon.post('/api/speedtest/empty', {})).status).toBe(401);
    expect((await s.anon.post('/api/speedtest/results', {})).status).toBe(401);
  });

  it('the bulk routes stay out of the request log; the others are logged', async () => {
    const before = s.logger.lines.length;
    await (await get('/api/speedtest/garbage?ckSize=1')).body.arrayBuffer();
    await (await get('/api/speedtest/empty')).body.text();
    await s.member.get('/api/speedtest/results');
    const paths = s.logger.lines.slice(before).filter((e) => e.msg === 'request').map((e) => e.path);
    expect(paths).toEqual(['/api/speedtest/results']);
  });

  it('a result is stored for its member; bad numbers are 400; the history is for admins (403 for members)', async () => {
    const body = { downloadMbps: 412.5, uploadMbps: 380.1, pingMs: 1.2, jitterMs: 0.4, device: 'Sam’s phone' };
    const r = await s.member.post('/api/speedtest/results', body);
    expect(r.status).toBe(201);
    expect(SpeedtestResultResponse.parse(r.body).result).toMatchObject(body);
    expect((await s.member.post('/api/speedtest/results', { ...body, pingMs: -1 })).status).toBe(400);
    expect((await s.member.post('/api/speedtest/results', { ...body, device: '' })).status).toBe(400);
    expect((await s.member.post('/api/speedtest/results', { ...body, extra: 1 })).status).toBe(400);
    await s.admin.post('/api/speedtest/results', { ...body, device: 'Office PC', downloadMbps: 940 });
    const mine = await s.member.get('/api/speedtest/results');
    expect(mine.body.results.map((x: { device: string }) => x.device)).toEqual(['Sam’s phone']);
    expect((await s.member.get('/api/admin/speedtest')).status).toBe(403);
    expect((await s.anon.get('/api/admin/speedtest')).status).toBe(401);
    const history = AdminSpeedtestResponse.parse((await s.admin.get('/api/admin/speedtest')).body);
    expect(history.results.map((x) => [x.userName, x.device])).toEqual([
      ['Alex', 'Office PC'],
      ['Sam', 'Sam’s phone'],
    ]);
  });
});
