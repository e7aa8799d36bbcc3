// SseRegistry.run, the one way a route streams: a failure after the stream opened is an `error`
// event {code, message} through the JSON error handler's mapping, never an exception's own message.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError, UnprocessableError } from '../../server/errors.js';
import { createErrorHandler } from '../../server/http/error-handler.js';
import { SseRegistry, type SseWork } from '../../server/http/sse.js';
import { ImportFailedError } from '../../server/modules/reader/transfer-service.js';
import { createMemoryLogger } from '../../server/platform/logger.js';

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** Serves one stream route whose work is `work`; returns its status, content type, events and the log. */
async function runOnce(work: SseWork) {
  const logger = createMemoryLogger('debug');
  const sse = new SseRegistry(logger);
  const app = express();
  app.get('/stream', (req, res) => sse.run(req, res, work));
  app.use(createErrorHandler(logger));
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((r) => server.once('listening', r));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`);
  const text = await res.text();
  const events = [...text.matchAll(/event: (\S+)\ndata: (.*)\n/g)].map((m) => ({ event: m[1], data: JSON.parse(m[2]!) as unknown }));
  return { status: res.status, type: res.headers.get('content-type'), text, events, logger, sse };
}

describe('SseRegistry.run', () => {
  it('sends an unexpected error as the generic internal_error sentence, never its message, and logs it', async () => {
    const r = await runOnce(async (open) => {
      open().send('progress', { n: 1 });
      throw new Error('ENOENT: /home/someone/secret/path.db');
    });
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/text\/event-stream/);
    expect(r.events).toEqual([
      { event: 'progress', data: { n: 1 } },
      { event: 'error', data: { code: 'internal_error', message: 'Something went wrong on the server. It has been logged.' } },
    ]);
    expect(r.text).not.toContain('secret');
    expect(r.logger.lines.filter((l) => l.msg === 'request failed')).toHaveLength(1);
    expect(r.sse.size).toBe(0); // closed
  });

  it('sends an AppError with its code and message', async () => {
    const r = await runOnce(async (open) => {
      open();
      throw new UnprocessableError('install_failed', 'Chat could not be installed. Retry from Downloads.');
    });
    expect(r.events).toEqual([{ event: 'error', data: { code: 'install_failed', message: 'Chat could not be installed. Retry from Downloads.' } }]);
    expect(r.logger.lines.filter((l) => l.msg === 'request failed')).toEqual([]);
  });

  it("adds an AppError's details object to the event (the code and message stay the error's own)", async () => {
    const r = await runOnce(async (open) => {
      open();
      throw new ImportFailedError(120);
    });
    expect(r.events).toEqual([{ event: 'error', data: { code: 'import_failed', message: expect.stringMatching(/after 120 links were saved/), imported: 120 } }]);
    const listed = await runOnce(async (open) => {
      open();
      throw new UnprocessableError('install_failed', 'Chat could not be installed.', ['not', 'an', 'object']);
    });
    expect(listed.events).toEqual([{ event: 'error', data: { code: 'install_failed', message: 'Chat could not be installed.' } }]);
  });

  it('leaves an error thrown before the stream opened to the JSON error handler', async () => {
    const r = await runOnce(async () => {
      throw new NotFoundError('Nothing is downloading.');
    });
    expect(r.status).toBe(404);
    expect(JSON.parse(r.text)).toEqual({ error: { code: 'not_found', message: 'Nothing is downloading.' } });
  });

  it('closes the stream when the work returns', async () => {
    const r = await runOnce(async (open) => {
      open().send('done', { ok: true });
    });
    expect(r.events).toEqual([{ event: 'done', data: { ok: true } }]);
    expect(r.sse.size).toBe(0);
  });
});
