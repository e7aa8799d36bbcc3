// A fake Wyoming speech server on 127.0.0.1 (what wyoming-piper and wyoming-faster-whisper speak),
// backed by the real local engines: `synthesize` is spoken by flite and sent as audio-start,
// audio-chunk… (22 050 Hz), audio-stop; `transcribe` + audio is read by pocketsphinx and answered
// with `transcript`. Modes: down (the connection is dropped), garbage (a line that is not an event).
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { readWav, resample } from '../../server/adapters/speech/pcm.js';
import { encodeEvent, EventReader } from '../../server/adapters/speech/wyoming.js';

export interface FakeWyoming {
  url: string;
  mode: 'ok' | 'down' | 'garbage';
  close(): Promise<void>;
}

const scratch = (ext: string) => path.join(os.tmpdir(), `fake-wyoming-${process.pid}-${Math.random().toString(16).slice(2)}${ext}`);

export async function startFakeWyoming(): Promise<FakeWyoming> {
  const fake: FakeWyoming = { url: '', mode: 'ok', close: async () => undefined };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (fake.mode === 'down') {
      socket.destroy();
      return;
    }
    const reader = new EventReader();
    const audio: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      for (const e of reader.push(chunk)) {
        if (fake.mode === 'garbage') {
          socket.end('this is not an event\n');
          return;
        }
        if (e.type === 'synthesize') {
          const file = scratch('.wav');
          execFileSync('flite', ['-voice', 'kal16', '-t', String(e.data.text), '-o', file]);
          const { sampleRate, pcm } = readWav(readFileSync(file));
          rmSync(file, { force: true });
          const out = resample(pcm, sampleRate, 22_050);
          const fmt = { rate: 22_050, width: 2, channels: 1 };
          socket.write(encodeEvent('audio-start', fmt));
          for (let at = 0; at < out.length; at += 8_820) socket.write(encodeEvent('audio-chunk', fmt, out.subarray(at, at + 8_820)));
          socket.end(encodeEvent('audio-stop'));
        } else if (e.type === 'audio-chunk' && e.payload) {
          audio.push(e.payload);
        } else if (e.type === 'audio-stop') {
          const file = scratch('.raw');
          writeFileSync(file, Buffer.concat(audio));
          const text = execFileSync('pocketsphinx_continuous', ['-infile', file, '-logfn', '/dev/null']).toString().trim().split('\n').join(' ');
          rmSync(file, { force: true });
          socket.end(encodeEvent('transcript', { text }));
        }
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  return fake;
}
