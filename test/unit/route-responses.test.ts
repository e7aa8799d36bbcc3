// defineRoutes' declared responses: the route table records what each route answers, and with
// checkResponses on (every test server) an answer or a stream event outside its schema fails loudly
// instead of reaching the web app, while production sends what the handler returned unchecked.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createErrorHandler } from '../../server/http/error-handler.js';
import { NO_CONTENT, bytes, defineRoutes, events } from '../../server/http/routes.js';
import { SseRegistry } from '../../server/http/sse.js';
import { createMemoryLogger } from '../../server/platform/logger.js';

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

const Count = z.object({ count: z.number().int() });

function routes(sse: SseRegistry) {
  return defineRoutes((r) => {
    r.get('/good', { access: 'none', response: Count }, () => ({ count: 2 }));
    // a handler typed loosely (as a service returning unknown data would be) that breaks its schema
    r.get('/bad', { access: 'none', response: Count }, () => JSON.parse('{"count":"two"}') as { count: number });
    // a field the schema does not declare (how a secret would leak) is a mismatch too
    r.get('/extra', { access: 'none', response: Count }, () => ({ count: 1, pinHash: 'scrypt$…' }));
    r.get('/file', { access: 'none', response: bytes('text/plain') }, (_req, res) => {
      res.type('text/plain').send('hello');
    });
    r.delete('/thing', { access: 'none', response: NO_CONTENT }, () => undefined);
    r.get('/stream', { access: 'none', response: events(z.object({ progress: z.object({ n: z.number() }), done: z.object({}) })) }, (req, res) =>
      sse.run(req, res, async (open) => {
        const s = open();
        s.send('progress', { n: 1 });
        s.send(String(req.query.then ?? 'done'), req.query.then === 'progress' ? { n: 'x' } : {});
      }),
    );
  });
}

async function serve(checkResponses: boolean) {
  const logger = createMemoryLogger('debug');
  const sse = new SseRegistry(logger);
  const app = express();
  app.locals.checkResponses = checkResponses;
  const built = routes(sse);
  app.use(built.router);
  app.use(createErrorHandler(logger));
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, table: built.table, logger };
}

const eventsOf = (text: string) => [...text.matchAll(/event: (\S+)\ndata: (.*)\n/g)].map((m) => ({ event: m[1], data: JSON.parse(m[2]!) as unknown }));

describe('declared responses', () => {
  it('the route table records each route\'s kind of answer', async () => {
    const { table } = await serve(true);
    expect(table.map((r) => [r.method, r.path, r.response])).toEqual([
      ['get', '/good', 'json'],
      ['get', '/bad', 'json'],
      ['get', '/extra', 'json'],
      ['get', '/file', 'bytes'],
      ['delete', '/thing', 'empty'],
      ['get', '/stream', 'events'],
    ]);
  });

  it('checking on: a JSON answer outside its schema is a logged 500, a matching one passes', async () => {
    const { base, logger } = await serve(true);
    expect(await (await fetch(`${base}/good`)).json()).toEqual({ count: 2 });
    const bad = await fetch(`${base}/bad`);
    expect(bad.status).toBe(500);
    expect(JSON.stringify(await bad.json())).not.toContain('two');
    const failure = logger.lines.find((l) => l.msg === 'request failed');
    expect(JSON.stringify(failure)).toContain('GET /bad answered outside its response schema: count');
    const extra = await fetch(`${base}/extra`);
    expect(extra.status).toBe(500);
    expect(JSON.stringify(await extra.json())).not.toContain('scrypt');
    expect(JSON.stringify(logger.lines)).toContain('GET /extra answered outside its response schema: fields not in the schema: pinHash');
    expect((await fetch(`${base}/file`)).headers.get('content-type')).toMatch(/text\/plain/);
    expect((await fetch(`${base}/thing`, { method: 'DELETE' })).status).toBe(204);
  });

  it('checking on: an event outside its schema or not declared ends the stream with response_mismatch', async () => {
    const { base } = await serve(true);
    expect(eventsOf(await (await fetch(`${base}/stream`)).text())).toEqual([
      { event: 'progress', data: { n: 1 } },
      { event: 'done', data: {} },
    ]);
    const wrongData = eventsOf(await (await fetch(`${base}/stream?then=progress`)).text());
    expect(wrongData[1]).toMatchObject({ event: 'error', data: { code: 'response_mismatch' } });
    const undeclared = eventsOf(await (await fetch(`${base}/stream?then=surprise`)).text());
    expect(undeclared[1]).toMatchObject({ event: 'error', data: { code: 'response_mismatch', message: expect.stringContaining('"surprise" is not declared') } });
  });

  it('checking off (production): the handler\'s answer is sent unchecked', async () => {
    const { base } = await serve(false);
    expect(await (await fetch(`${base}/bad`)).json()).toEqual({ count: 'two' });
    expect(eventsOf(await (await fetch(`${base}/stream?then=surprise`)).text())[1]).toEqual({ event: 'surprise', data: {} });
  });
});
