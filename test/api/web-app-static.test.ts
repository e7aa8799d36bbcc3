// The built web app as the server sends it: a file's brotli or gzip twin (written by the build,
// renderer/precompress.ts) when the browser takes that encoding, the file itself otherwise; hashed
// assets cached for a year, everything else revalidated. The build step itself is checked too.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../renderer/precompress.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const INDEX = '<!doctype html><title>Hearth</title><div id="root">WEBAPP-INDEX</div>';
const SCRIPT = `console.log(${JSON.stringify('hearth '.repeat(500))});\n`;

function get(base: string, pathname: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${pathname}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('the web app’s files on the wire', () => {
  let s: TestServer;
  let temp: { dir: string; remove(): void };
  beforeAll(async () => {
    temp = makeTempDir('hearth-static-');
    const webDir = path.join(temp.dir, 'web');
    mkdirSync(path.join(webDir, 'assets'), { recursive: true });
    writeFileSync(path.join(webDir, 'index.html'), INDEX);
    writeFileSync(path.join(webDir, 'index.html.br'), brotliCompressSync(INDEX));
    const script = path.join(webDir, 'assets', 'index-AbC123.js');
    writeFileSync(script, SCRIPT);
    writeFileSync(`${script}.br`, brotliCompressSync(SCRIPT));
    writeFileSync(`${script}.gz`, gzipSync(SCRIPT));
    // a file the build left without twins
    writeFileSync(path.join(webDir, 'assets', 'plain-XyZ789.css'), 'body{color:red}');
    s = await startTestServer({ config: { webDir } });
  });
  afterAll(async () => {
    await s.close();
    temp.remove();
  });

  it('sends the brotli twin to a browser that takes br, as JavaScript, cached for good', async () => {
    const r = await get(s.url, '/assets/index-AbC123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['content-type']).toMatch(/^text\/javascript/);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.headers.vary).toMatch(/Accept-Encoding/i);
    expect(brotliDecompressSync(r.body).toString('utf8')).toBe(SCRIPT);
    expect(r.body.length).toBeLessThan(SCRIPT.length / 10);
  });

  it('sends the gzip twin when br is not taken (or refused with q=0)', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip']) {
      const r = await get(s.url, '/assets/index-AbC123.js', { 'accept-encoding': accept });
      expect(r.headers['content-encoding'], accept).toBe('gzip');
      expect(gunzipSync(r.body).toString('utf8'), accept).toBe(SCRIPT);
    }
  });

  it('sends the file itself to a client that takes no encoding, and a file without twins as it is', async () => {
    const plain = await get(s.url, '/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const css = await get(s.url, '/assets/plain-XyZ789.css', { 'accept-encoding': 'br, gzip' });
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.body.toString('utf8')).toBe('body{color:red}');
  });

  it('a client route gets the app’s page, compressed as /index.html is, revalidated on every load', async () => {
    const page = await get(s.url, '/reader', { 'accept-encoding': 'br, gzip' });
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(String(page.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(brotliDecompressSync(page.body).toString('utf8')).toBe(INDEX);
    const plain = await get(s.url, '/reader');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toBe(INDEX);
  });
});

describe('the build’s precompress step', () => {
  it('writes a .br and a .gz next to each text file over 1 KB, and leaves small and binary files alone', async () => {
    const temp = makeTempDir('hearth-precompress-');
    try {
      mkdirSync(path.join(temp.dir, 'assets'));
      const big = 'a'.repeat(4000);
      writeFileSync(path.join(temp.dir, 'assets', 'app.js'), big);
      writeFileSync(path.join(temp.dir, 'assets', 'app.css'), big);
      writeFileSync(path.join(temp.dir, 'favicon.svg'), '<svg/>');
      writeFileSync(path.join(temp.dir, 'assets', 'font.woff2'), big);
      const plugin = precompress(temp.dir);
      const hook = plugin.closeBundle as { handler: () => void | Promise<void> };
      await hook.handler();
      for (const f of ['assets/app.js', 'assets/app.css']) {
        expect(brotliDecompressSync(readFileSync(path.join(temp.dir, `${f}.br`))).toString('utf8'), f).toBe(big);
        expect(gunzipSync(readFileSync(path.join(temp.dir, `${f}.gz`))).toString('utf8'), f).toBe(big);
      }
      for (const f of ['favicon.svg', 'assets/font.woff2']) {
        expect(() => readFileSync(path.join(temp.dir, `${f}.br`)), f).toThrow();
      }
    } finally {
      temp.remove();
    }
  });
});
