// /api/voice/memos: upload (202, transcribed in the background), list, one, its audio (Range),
// rename, delete. Thin: parse, call the service, answer.
import { actorOf } from '../../http/auth.js';
import { bytes, defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { MemosService } from './memos-service.js';
import { MemoListQuery, MemoResponse, MemosResponse, MemoUpdate } from './schema.js';
import { receiveRecording } from './speech-routes.js';

export function createMemoRoutes(memos: MemosService) {
  return defineRoutes((r) => {
    r.post('/', { access: 'user', response: MemoResponse, jsonLimit: false }, async (req, res) => {
      const actor = actorOf(req);
      const file = await memos.uploadTarget(actor);
      let got;
      try {
        got = await receiveRecording(req, file);
      } catch (err) {
        await memos.discardUpload(file);
        throw err;
      }
      const title = got.fields.title?.trim().slice(0, 200) || null;
      const memo = await memos.create(actor, { file, bytes: got.bytes, head: got.head, title });
      res.status(202);
      return { memo };
    });

    r.get('/', { access: 'user', response: MemosResponse }, async (req) => {
      const { limit } = parse(MemoListQuery, req.query);
      return { memos: await memos.list(actorOf(req), limit) };
    });

    r.get('/:id', { access: 'user', response: MemoResponse }, async (req) => ({ memo: await memos.get(actorOf(req), String(req.params.id)) }));

    r.get('/:id/audio', { access: 'user', response: bytes('the recording as it was sent (Range requests answered)') }, async (req, res) => {
      const { file, mime } = await memos.audio(actorOf(req), String(req.params.id));
      await new Promise<void>((resolve, reject) => {
        res.sendFile(file, { headers: { 'Content-Type': mime, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, no-store' }, acceptRanges: true, dotfiles: 'deny' }, (err) => (err && !res.headersSent ? reject(err) : resolve()));
      });
    });

    r.patch('/:id', { access: 'user', response: MemoResponse }, async (req) => {
      const { title } = parse(MemoUpdate, req.body);
      return { memo: await memos.rename(actorOf(req), String(req.params.id), title) };
    });

    r.delete('/:id', { access: 'user', response: NO_CONTENT }, async (req, res) => {
      await memos.delete(actorOf(req), String(req.params.id));
      res.status(204).end();
    });
  });
}
