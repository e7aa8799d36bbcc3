// A fake OpenAI-compatible speech server on 127.0.0.1 (what speaches, openedai-speech or LocalAI
// answer), backed by the real local engines: /v1/audio/speech speaks with flite and sends raw
// s16le mono 24 kHz in pieces as a streaming server does; /v1/audio/transcriptions runs ffmpeg and
// pocketsphinx on the uploaded file. Modes for the failures: down (connection refused), slow (no
// answer for `slowMs`), cut (the speech stops mid-stream), garbage (a 200 that is not a transcript;
// an error status for speech), and it records the Authorization header it was sent.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import busboy from 'busboy';
import { readWav, resample } from '../../server/adapters/speech/pcm.js';

export type FakeSpeechMode = 'ok' | 'down' | 'slow' | 'cut' | 'garbage';

export interface FakeOpenAiSpeech {
  url: string;
  mode: FakeSpeechMode;
  slowMs: number;
  /** Authorization headers received, in order. */
  authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

function speak(text: string): Buffer {
  const file = path.join(os.tmpdir(), `fake-tts-${process.pid}-${Math.random().toString(16).slice(2)}.wav`);
  try {
    execFileSync('flite', ['-voice', 'kal16', '-t', text, '-o', file]);
    const { sampleRate, pcm } = readWav(readFileSync(file));
    return resample(pcm, sampleRate, 24_000);
  } finally {
    rmSync(file, { force: true });
  }
}

function transcribe(audio: Buffer): string {
  const dir = os.tmpdir();
  const input = path.join(dir, `fake-stt-${process.pid}-${Math.random().toString(16).slice(2)}`);
  writeFileSync(input, audio);
  try {
    const raw = execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', input, '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1'], { maxBuffer: 64 * 1024 * 1024 });
    writeFileSync(`${input}.raw`, raw);
    return execFileSync('pocketsphinx_continuous', ['-infile', `${input}.raw`, '-logfn', '/dev/null']).toString().trim().split('\n').join(' ');
  } finally {
    rmSync(input, { force: true });
    rmSync(`${input}.raw`, { force: true });
  }
}

export async function startFakeOpenAiSpeech(): Promise<FakeOpenAiSpeech> {
  const fake: FakeOpenAiSpeech = { url: '', mode: 'ok', slowMs: 60_000, authorizations: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    fake.authorizations.push(req.headers.authorization);
    if (fake.mode === 'down') {
      req.socket.destroy();
      return;
    }
    const go = () => {
      if (req.method === 'POST' && req.url === '/v1/audio/speech') {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString()) as { input: string; response_format: string };
          if (fake.mode === 'garbage' || body.response_format !== 'pcm') {
            res.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"boom"}');
            return;
          }
          const pcm = speak(body.input);
          res.writeHead(200, { 'content-type': 'audio/pcm' });
          // pieces of an odd size, as a streaming server sends them
          const piece = 4_801;
          let at = 0;
          const next = () => {
            if (fake.mode === 'cut' && at > pcm.length / 3) {
              res.socket?.destroy();
              return;
            }
            if (at >= pcm.length) {
              res.end();
              return;
            }
            res.write(pcm.subarray(at, at + piece));
            at += piece;
            setImmediate(next);
          };
          next();
        });
        return;
      }
      if (req.method === 'POST' && req.url === '/v1/audio/transcriptions') {
        const bb = busboy({ headers: req.headers });
        const file: Buffer[] = [];
        bb.on('file', (_n, s) => s.on('data', (c: Buffer) => file.push(c)));
        bb.on('close', () => {
          if (fake.mode === 'garbage') {
            res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not a transcript</html>');
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: transcribe(Buffer.concat(file)) }));
        });
        req.pipe(bb);
        return;
      }
      res.writeHead(404).end();
    };
    if (fake.mode === 'slow') setTimeout(go, fake.slowMs).unref();
    else go();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return fake;
}
