// /api/music: a member's own pieces — whether music can be made here, generate as an event stream
// (start, step, done or error), the history, each piece's audio (Range) and delete. Thin over the
// music service.
import type { Request } from 'express';
import { actorOf } from '../../http/auth.js';
import { bytes, defineRoutes, events, NO_CONTENT } from '../../http/routes.js';
import type { SseRegistry } from '../../http/sse.js';
import { parse } from '../../http/validate.js';
import { GenerateMusicBody, MusicEvents, MusicHistoryResponse, MusicStatusResponse, PieceIdParams } from './schema.js';
import type { MusicService } from './service.js';

const idOf = (req: Request) => parse(PieceIdParams, req.params).id;

export function createMusicRoutes(music: MusicService, sse: SseRegistry) {
  return defineRoutes((r) => {
    r.get('/status', { access: 'user', response: MusicStatusResponse }, () => music.status());
    r.get('/', { access: 'user', response: MusicHistoryResponse }, (req) => music.history(actorOf(req)));

    r.post('/generate', { access: 'user', response: events(MusicEvents) }, async (req, res) => {
      const job = await music.generate(actorOf(req), parse(GenerateMusicBody, req.body));
      await sse.run(req, res, async (open) => {
        const stream = open();
        stream.send('start', { id: job.id, seconds: job.seconds, seed: job.seed, steps: job.steps });
        // the client going away does not stop the piece: it still lands in the member's history
        await new Promise<void>((resolve) => {
          const end = () => {
            unsubscribe();
            resolve();
          };
          const unsubscribe = job.subscribe((e) => {
            if (e.type === 'queued') return stream.send('queued', { id: job.id, position: e.position });
            if (e.type === 'step') return stream.send('step', { id: job.id, current: e.current, total: e.total });
            if (e.type === 'done') stream.send('done', { id: job.id, piece: e.piece });
            else stream.send('error', { code: e.code, message: e.message });
            end();
          });
          stream.signal.addEventListener('abort', end, { once: true });
        });
      });
    });

    r.get('/:id/audio', { access: 'user', response: bytes('the piece (audio/flac, or audio/wav) with Range requests answered') }, async (req, res) => {
      const { file, contentType } = await music.audio(actorOf(req), idOf(req));
      await new Promise<void>((resolve, reject) => {
        res.sendFile(file, { headers: { 'Content-Type': contentType, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, no-store' }, acceptRanges: true, dotfiles: 'deny' }, (err) => (err && !res.headersSent ? reject(err) : resolve()));
      });
    });

    r.delete('/:id', { access: 'user', response: NO_CONTENT }, async (req, res) => {
      await music.delete(actorOf(req), idOf(req));
      res.status(204);
    });
  });
}
