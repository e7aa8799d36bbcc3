// Credentials go only to the origin they were meant for: a redirect to another origin (a model
// hub's download answering 307 to its file store) drops Authorization and Cookie, on both GET
// paths through the SSRF guard (undici's guardedRequest and the downloads' guardedGet); a redirect
// within the same origin keeps them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedGet } from '../../server/adapters/web/http-get.js';
import { createSsrfGuard, guardedRequest, type SsrfGuard } from '../../server/platform/ssrf.js';

interface Seen {
  path: string;
  authorization: string | undefined;
  cookie: string | undefined;
}

async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization, cookie: req.headers.cookie });
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise((r) => server.close(() => r())) };
}

describe('credentials across redirects', () => {
  let store: Awaited<ReturnType<typeof serve>>;
  let hub: Awaited<ReturnType<typeof serve>>;
  let guard: SsrfGuard;
  const headers = { authorization: 'Bearer hub-key-123456', cookie: 'session=abc' };

  beforeAll(async () => {
    store = await serve((_req, res) => res.end('file bytes'));
    hub = await serve((req, res) => {
      if (req.url === '/elsewhere') res.writeHead(307, { location: `${store.url}/file` }).end();
      else if (req.url === '/here') res.writeHead(307, { location: '/file' }).end();
      else res.end('file bytes');
    });
    guard = createSsrfGuard({ allowOrigins: [store.url, hub.url] });
  });
  afterAll(async () => {
    await guard.close();
    await store.close();
    await hub.close();
  });

  it('guardedRequest drops them at another origin and keeps them within the same one', async () => {
    const res = await guardedRequest(guard, `${hub.url}/elsewhere`, { headers });
    expect(await res.body.text()).toBe('file bytes');
    expect(hub.seen.at(-1)).toEqual({ path: '/elsewhere', ...headers });
    expect(store.seen.at(-1)).toEqual({ path: '/file', authorization: undefined, cookie: undefined });

    const same = await guardedRequest(guard, `${hub.url}/here`, { headers });
    await same.body.text();
    expect(hub.seen.at(-1)).toEqual({ path: '/file', ...headers });
  });

  it('guardedGet (the download path) does the same', async () => {
    const res = await guardedGet(guard, `${hub.url}/elsewhere`, { headers });
    await res.readBody(() => true);
    expect(store.seen.at(-1)).toEqual({ path: '/file', authorization: undefined, cookie: undefined });

    const same = await guardedGet(guard, `${hub.url}/here`, { headers });
    await same.readBody(() => true);
    expect(hub.seen.at(-1)).toEqual({ path: '/file', ...headers });
  });
});
