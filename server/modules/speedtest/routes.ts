// /api/speedtest (LibreSpeed's protocol, signed-in members): `garbage` (download), `empty` (upload
// sink and ping target), and the results a member stores; /api/admin/speedtest, the household's
// history. The bulk routes are left out of the request log and are never compressed (no-transform,
// identity: a compressed download would measure the compressor). Thin: parse, call, answer.
import type { Request, Response } from 'express';
import { actorOf } from '../../http/auth.js';
import { clientGone } from '../../http/client-gone.js';
import { bytes, defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { PayloadTooLargeError } from '../../errors.js';
import {
  AdminSpeedtestResponse,
  GarbageQuery,
  HistoryQuery,
  MAX_EMPTY_BODY_BYTES,
  SpeedtestResultBody,
  SpeedtestResultResponse,
  SpeedtestResultsResponse,
} from './schema.js';
import type { SpeedtestService } from './service.js';

const UNCACHED = { 'Cache-Control': 'no-store, no-cache, must-revalidate, max-age=0, no-transform', Pragma: 'no-cache', 'Content-Encoding': 'identity' };

/** Writes the same chunk `chunks` times, waiting while the client's buffer is full; stops at the deadline or when the client goes. */
async function sendGarbage(req: Request, res: Response, g: { chunk: Buffer; chunks: number; deadlineMs: number }): Promise<void> {
  const gone = clientGone(req, res);
  const deadline = performance.now() + g.deadlineMs;
  for (let i = 0; i < g.chunks && !gone.aborted && performance.now() < deadline; i++) {
    if (res.write(g.chunk)) continue;
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        gone.removeEventListener('abort', done);
        resolve();
      };
      res.on('drain', done);
      gone.addEventListener('abort', done, { once: true });
    });
  }
  if (!res.writableEnded) res.end();
}

/** Reads and drops an upload's body, at most MAX_EMPTY_BODY_BYTES (413 and the connection closed past it). */
async function drain(req: Request, res: Response): Promise<void> {
  const tooLarge = () => {
    res.set('Connection', 'close');
    return new PayloadTooLargeError('One upload of the speed test is at most 256 MB.');
  };
  const declared = Number(req.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > MAX_EMPTY_BODY_BYTES) throw tooLarge();
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_EMPTY_BODY_BYTES) throw tooLarge();
  }
}

const empty = (res: Response) => void res.status(200).set({ ...UNCACHED, 'Content-Length': '0', Connection: 'keep-alive' }).end();

export function createSpeedtestRoutes(speedtest: SpeedtestService) {
  return defineRoutes((r) => {
    r.get('/garbage', { access: 'user', unlogged: true, response: bytes('application/octet-stream: ckSize MiB of random bytes') }, async (req, res) => {
      const { ckSize } = parse(GarbageQuery, req.query);
      res.status(200).set({ ...UNCACHED, 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename=random.dat', 'Content-Description': 'File Transfer' });
      await sendGarbage(req, res, speedtest.garbage(ckSize));
    });

    r.post('/empty', { access: 'user', unlogged: true, jsonLimit: false, response: bytes('nothing (200, empty): the upload is read and dropped') }, async (req, res) => {
      await drain(req, res);
      empty(res);
    });

    r.get('/empty', { access: 'user', unlogged: true, response: bytes('nothing (200, empty): the ping target') }, (_req, res) => empty(res));

    r.post('/results', { access: 'user', response: SpeedtestResultResponse }, async (req, res) => {
      const result = await speedtest.record(actorOf(req), parse(SpeedtestResultBody, req.body));
      res.status(201);
      return { result };
    });

    r.get('/results', { access: 'user', response: SpeedtestResultsResponse }, async (req) => ({ results: await speedtest.mine(actorOf(req), parse(HistoryQuery, req.query).limit) }));
  });
}

export function createAdminSpeedtestRoutes(speedtest: SpeedtestService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: AdminSpeedtestResponse }, async (req) => ({ results: await speedtest.history(actorOf(req), parse(HistoryQuery, req.query).limit) }));
  });
}
