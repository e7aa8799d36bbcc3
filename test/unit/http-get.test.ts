// guardedGet, the reused-buffer GET behind large downloads, against local servers that answer with
// exact bytes (so framing can be split anywhere), a real node:http server and a real TLS server.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { guardedGet, HttpGetError } from '../../server/adapters/web/http-get.js';
import { BlockedUrlError, createSsrfGuard, type SsrfGuard } from '../../server/platform/ssrf.js';
import { makeContent, sha256 } from '../fakes/file-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const closers: Array<() => void> = [];
afterEach(() => {
  while (closers.length) closers.pop()!();
});

/** A TCP server that runs `answer` for every connection once the request's head has arrived. */
async function rawServer(answer: (socket: net.Socket, requestHead: string) => unknown): Promise<{ origin: string; heads: string[] }> {
  const heads: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    let head = '';
    socket.on('data', (d) => {
      if (head.includes('\r\n\r\n')) return;
      head += d.toString('latin1');
      if (head.includes('\r\n\r\n')) {
        heads.push(head);
        void answer(socket, head);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  closers.push(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, heads };
}

/** Writes bytes one at a time, each in its own TCP segment, so every parse state sees a split. */
async function trickle(socket: net.Socket, text: string): Promise<void> {
  socket.setNoDelay(true);
  for (const byte of Buffer.from(text, 'latin1')) {
    socket.write(Buffer.of(byte));
    await new Promise((r) => setTimeout(r, 1));
  }
}

function guardFor(origin: string): SsrfGuard {
  const guard = createSsrfGuard({ allowOrigins: [origin] });
  closers.push(() => void guard.close());
  return guard;
}

async function readAll(res: Awaited<ReturnType<typeof guardedGet>>): Promise<Buffer> {
  const parts: Buffer[] = [];
  await res.readBody((chunk) => void parts.push(Buffer.from(chunk)));
  return Buffer.concat(parts);
}

describe('guardedGet', () => {
  it('reads a Content-Length body and the headers (lower-case names, repeated ones as a list), sending its request headers', async () => {
    const { origin, heads } = await rawServer((s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Twice: a\r\nx-twice: b\r\nETag: "v1"\r\n\r\nhello'));
    const res = await guardedGet(guardFor(origin), `${origin}/file?x=1`, { headers: { range: 'bytes=0-' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBe('"v1"');
    expect(res.headers['x-twice']).toEqual(['a', 'b']);
    expect((await readAll(res)).toString()).toBe('hello');
    expect(heads[0]).toMatch(/^GET \/file\?x=1 HTTP\/1\.1\r\n/);
    expect(heads[0]).toMatch(/\r\nrange: bytes=0-\r\n/);
    expect(heads[0]).toMatch(/\r\naccept-encoding: identity\r\n/i);
  });

  it('decodes a chunked body split at every byte, with chunk extensions and trailers, after a 100 Continue', async () => {
    const response =
      'HTTP/1.1 100 Continue\r\n\r\n' +
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n' +
      '5;name=value\r\nhello\r\n' +
      '1\r\n \r\n' +
      'A\r\n0123456789\r\n' +
      '0\r\nX-Trailer: yes\r\n\r\n';
    const { origin } = await rawServer((s) => trickle(s, response));
    const res = await guardedGet(guardFor(origin), `${origin}/`);
    expect(res.statusCode).toBe(200);
    expect((await readAll(res)).toString()).toBe('hello 0123456789');
  });

  it('reads a body that ends with the connection', async () => {
    const { origin } = await rawServer((s) => s.end('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end'));
    const res = await guardedGet(guardFor(origin), `${origin}/`);
    expect((await readAll(res)).toString()).toBe('until the end');
  });

  it('a 204 has no body', async () => {
    const { origin } = await rawServer((s) => s.write('HTTP/1.1 204 No Content\r\n\r\n'));
    const res = await guardedGet(guardFor(origin), `${origin}/`);
    expect(res.statusCode).toBe(204);
    expect((await readAll(res)).length).toBe(0);
  });

  it('a connection cut before the end of the body is an error that says how far it got', async () => {
    const { origin } = await rawServer((s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789'));
    const res = await guardedGet(guardFor(origin), `${origin}/`);
    await expect(readAll(res)).rejects.toThrow('The connection closed after 10 bytes of the body.');
  });

  it('a chunked body cut short is an error, not a short file', async () => {
    const { origin } = await rawServer((s) => s.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel'));
    const res = await guardedGet(guardFor(origin), `${origin}/`);
    await expect(readAll(res)).rejects.toThrow(HttpGetError);
  });

  it('refuses malformed answers: not HTTP, a bad header line, a bad chunk size, a bad Content-Length, endless headers', async () => {
    const answers: Array<[string, RegExp]> = [
      ['SSH-2.0-OpenSSH\r\n\r\n', /did not answer with HTTP/],
      ['HTTP/1.1 200 OK\r\nno colon here\r\n\r\n', /malformed header/],
      ['HTTP/1.1 200 OK\r\n folded: value\r\n\r\n', /malformed header/],
      ['HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!', /invalid Content-Length/],
      ['HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', /invalid Content-Length/],
      [`HTTP/1.1 200 OK\r\n${'X-Big: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n'.repeat(1200)}\r\n`, /too many headers/],
    ];
    for (const [answer, error] of answers) {
      const { origin } = await rawServer((s) => s.end(answer));
      await expect(guardedGet(guardFor(origin), `${origin}/`), answer.slice(0, 30)).rejects.toThrow(error);
    }
    const { origin } = await rawServer((s) => s.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'));
    const res = await guardedGet(guardFor(origin), `${origin}/`);
    await expect(readAll(res)).rejects.toThrow(/malformed chunked body/);
  });

  it('refuses a request header that would inject another line, before connecting', async () => {
    const { origin, heads } = await rawServer((s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'));
    await expect(guardedGet(guardFor(origin), `${origin}/`, { headers: { 'if-range': '"x"\r\nX-Evil: 1' } })).rejects.toThrow(TypeError);
    await new Promise((r) => setTimeout(r, 50));
    expect(heads).toEqual([]);
  });

  it('follows redirects, checking every hop with the guard', async () => {
    const { origin } = await rawServer((s, head) => {
      if (head.startsWith('GET /start ')) s.end('HTTP/1.1 302 Found\r\nLocation: /next\r\nContent-Length: 3\r\n\r\nabc');
      else if (head.startsWith('GET /next ')) s.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      else s.end('HTTP/1.1 301 Moved\r\nLocation: http://169.254.169.254/latest/meta-data\r\nContent-Length: 0\r\n\r\n');
    });
    const guard = guardFor(origin);
    const res = await guardedGet(guard, `${origin}/start`);
    expect(res.url).toBe(`${origin}/next`);
    expect(res.redirects).toEqual([`${origin}/start`]);
    expect((await readAll(res)).toString()).toBe('ok');
    await expect(guardedGet(guard, `${origin}/metadata`)).rejects.toThrow(BlockedUrlError);
    await expect(guardedGet(guard, `${origin}/start`, { maxRedirects: 0 })).rejects.toThrow(/Too many redirects/);
  });

  it('connects only to the address the guard checked: a name that resolves to this computer is refused', async () => {
    const guard = createSsrfGuard({ lookup: ((_h: string, _o: unknown, cb: (e: null, a: Array<{ address: string; family: number }>) => void) => cb(null, [{ address: '127.0.0.1', family: 4 }])) as never });
    closers.push(() => void guard.close());
    await expect(guardedGet(guard, 'http://rebind.example/')).rejects.toThrow(BlockedUrlError);
    await expect(guardedGet(guard, 'http://10.0.0.1/')).rejects.toThrow(BlockedUrlError);
  });

  it('gives up on a server that never answers, and on a body that stops', async () => {
    const silent = await rawServer(() => {});
    await expect(guardedGet(guardFor(silent.origin), `${silent.origin}/`, { headersTimeoutMs: 200 })).rejects.toThrow('The server did not answer in time.');
    const stalling = await rawServer((s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc'));
    const res = await guardedGet(guardFor(stalling.origin), `${stalling.origin}/`, { bodyTimeoutMs: 200 });
    await expect(readAll(res)).rejects.toThrow('The server stopped sending.');
  });

  it('a false from the sink pauses reading until resume(), and time paused is not a stall', async () => {
    const body = makeContent(4 * 1024 * 1024, 7);
    const server = http.createServer((_req, res) => res.writeHead(200, { 'content-length': body.length }).end(body));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    closers.push(() => server.close());
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const res = await guardedGet(guardFor(origin), `${origin}/`, { bodyTimeoutMs: 150 });
    const hash = createHash('sha256');
    let received = 0;
    let pauses = 0;
    const reading = res.readBody((chunk) => {
      hash.update(chunk);
      received += chunk.length;
      if (received < body.length && pauses < 3) {
        pauses++;
        const at = received;
        // nothing more arrives while paused, for longer than the body timeout
        setTimeout(() => {
          expect(received).toBe(at);
          res.resume();
        }, 300);
        return false;
      }
      return true;
    });
    await reading;
    expect(pauses).toBe(3);
    expect(received).toBe(body.length);
    expect(hash.digest('hex')).toBe(sha256(body));
  });

  it('delivers megabytes through its one reused read buffer without mixing reads up', async () => {
    const body = makeContent(16 * 1024 * 1024, 3);
    const server = http.createServer((_req, res) => {
      // chunked, in writes of odd sizes
      res.writeHead(200);
      for (let at = 0; at < body.length; at += 100_003) res.write(body.subarray(at, at + 100_003));
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    closers.push(() => server.close());
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const res = await guardedGet(guardFor(origin), `${origin}/`);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const hash = createHash('sha256');
    let n = 0;
    await res.readBody((chunk) => {
      hash.update(chunk);
      n += chunk.length;
    });
    expect(n).toBe(body.length);
    expect(hash.digest('hex')).toBe(sha256(body));
  });

  it('an abort stops the transfer with its reason', async () => {
    const { origin } = await rawServer((s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\nabc'));
    const ac = new AbortController();
    const res = await guardedGet(guardFor(origin), `${origin}/`, { signal: ac.signal });
    const reading = readAll(res);
    ac.abort(new Error('cancelled by the household'));
    await expect(reading).rejects.toThrow('cancelled by the household');
    await expect(guardedGet(guardFor(origin), `${origin}/`, { signal: ac.signal })).rejects.toThrow('cancelled by the household');
  });

  describe('over TLS', () => {
    const temp = makeTempDir('hearth-tls-');
    afterAll(() => temp.remove());

    it('reads an https body, verifying the certificate against the given authority (and refusing an unknown one)', async () => {
      const key = path.join(temp.dir, 'key.pem');
      const cert = path.join(temp.dir, 'cert.pem');
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
      const body = makeContent(3 * 1024 * 1024 + 17, 5);
      const server = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => res.writeHead(200, { 'content-length': body.length }).end(body));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      closers.push(() => server.close());
      const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const guard = guardFor(origin);
      const res = await guardedGet(guard, `${origin}/x`, { ca: readFileSync(cert) });
      expect(sha256(await readAll(res))).toBe(sha256(body));
      await expect(guardedGet(guard, `${origin}/x`)).rejects.toThrow(/self-signed|certificate/i);
    });
  });
});
