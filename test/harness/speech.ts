// Speech fixtures made by the real engines (apt flite, ffmpeg): a WAV spoken by flite (pocketsphinx
// reads flite well, espeak-ng badly: shared/reference/voice.md §4), the same as opus in webm, and
// word accuracy for a transcript.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The PATH's folders, for a server that should find the real engines. */
export const SYSTEM_PATH = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);

export function fliteWav(dir: string, name: string, text: string, voice = 'slt'): { file: string; bytes: Buffer } {
  const file = path.join(dir, `${name}.wav`);
  execFileSync('flite', ['-voice', voice, '-t', text, '-o', file]);
  return { file, bytes: readFileSync(file) };
}

export function toWebmOpus(dir: string, wav: string, name: string): Buffer {
  const file = path.join(dir, `${name}.webm`);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', wav, '-c:a', 'libopus', '-b:a', '24k', file]);
  return readFileSync(file);
}

const words = (s: string) => s.toLowerCase().match(/[a-z']+/g) ?? [];

/** 1 − word error rate (Levenshtein over words), at least 0. */
export function wordAccuracy(expected: string, got: string): number {
  const a = words(expected);
  const b = words(got);
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  }
  return Math.max(0, 1 - d[a.length]![b.length]! / a.length);
}

/** The lines of an NDJSON body. */
export const ndjson = (text: string): any[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
