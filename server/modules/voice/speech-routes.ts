// POST /api/tts/stream (NDJSON speech, sentence by sentence), POST /api/tts (one WAV) and
// POST /api/stt (a recording's text). Thin: parse, call the services, write.
import type { Request, Response } from 'express';
import { actorOf } from '../../http/auth.js';
import { clientGone } from '../../http/client-gone.js';
import { bytes, defineRoutes } from '../../http/routes.js';
import { assertMultipartForm, receiveFile, uploadSize } from '../../http/upload.js';
import { parse } from '../../http/validate.js';
import { MAX_RECORDING_BYTES, SpeakRequest, SttQuery, TranscriptResponse, WavRequest } from './schema.js';
import type { SttService, UploadTemp } from './stt-service.js';
import type { TtsService } from './tts-service.js';

/** Writes one line, waiting while the client's buffer is full. */
async function writeLine(res: Response, value: unknown, signal: AbortSignal): Promise<void> {
  if (res.write(`${JSON.stringify(value)}\n`) || signal.aborted) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export function createTtsRoutes(tts: TtsService) {
  return defineRoutes((r) => {
    r.post('/stream', { access: 'user', response: bytes('application/x-ndjson: start, audio (base64 s16le mono, ≤ 1 s each), end or error lines') }, async (req, res) => {
      const prepared = await tts.prepare(actorOf(req), parse(SpeakRequest, req.body));
      const signal = clientGone(req, res);
      res.status(200).set({ 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
      res.flushHeaders();
      for await (const line of tts.stream(prepared, signal)) {
        if (signal.aborted) break;
        await writeLine(res, line, signal);
      }
      res.end();
    });

    r.post('/', { access: 'user', response: bytes('audio/wav') }, async (req, res) => {
      const prepared = await tts.prepare(actorOf(req), parse(WavRequest, req.body));
      const wav = await tts.wav(prepared, clientGone(req, res));
      res.status(200).set({ 'Content-Type': 'audio/wav', 'Content-Length': String(wav.length), 'Cache-Control': 'no-store' }).end(wav);
    });
  });
}

/** A recording sent as a form's `file`, saved to a temp file; the caller removes it. */
export function receiveRecording(req: Request, target: string) {
  return receiveFile(req, target, MAX_RECORDING_BYTES, {
    tooLarge: `That recording is larger than ${uploadSize(MAX_RECORDING_BYTES)}. Send one of up to 2 minutes.`,
    noFile: 'The form has no recording in it. Send the audio as a field named file.',
    maxFields: 5,
  });
}

export function createSttRoutes(stt: SttService, temp: UploadTemp) {
  return defineRoutes((r) => {
    r.post('/', { access: 'user', response: TranscriptResponse, jsonLimit: false }, async (req, res) => {
      const { language } = parse(SttQuery, req.query);
      // a body that is not a recording is refused before the engine is looked at
      assertMultipartForm(req);
      await stt.assertAvailable();
      const file = temp.path();
      try {
        await receiveRecording(req, file);
        return await stt.transcribeFile(file, language, clientGone(req, res));
      } finally {
        await temp.remove(file);
      }
    });
  });
}
