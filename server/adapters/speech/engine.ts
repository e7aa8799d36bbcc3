// The two small interfaces every speech engine sits behind (local programs now, remote servers
// later), the engines' one error with its failure kind, and the child-process runner the local
// engines share: an argument array (no shell), killed on abort and past its time limit.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A piece of synthesized speech: signed 16-bit little-endian mono samples at `sampleRate`. */
export interface PcmChunk {
  sampleRate: number;
  pcm: Buffer;
}

export interface SynthesizeOptions {
  /** The engine's own voice name (flite's "slt"); undefined for its default. */
  voice?: string;
  /** Speed multiplier, 0.5–2. */
  rate: number;
  signal: AbortSignal;
}

export interface TtsEngine {
  readonly id: string;
  /** What the engine's chunks are resampled to (one rate per stream, never under 22 050 Hz). */
  readonly sampleRate: number;
  synthesize(sentence: string, opts: SynthesizeOptions): AsyncIterable<PcmChunk>;
}

export interface SttEngine {
  readonly id: string;
  /** `pcm16k`: s16le mono at 16 000 Hz. */
  transcribe(pcm16k: Buffer, opts: { language: string; signal: AbortSignal }): Promise<{ text: string }>;
}

/**
 * - `missing`: the program is not on this computer;
 * - `timeout`: it ran past its time limit and was killed;
 * - `failed`: it exited with an error or wrote nothing usable;
 * - `unreadable_audio`: the decoder could not read the input as audio;
 * - `aborted`: the caller stopped it;
 * - `unreachable`: a speech server an admin added does not answer (or its address is refused);
 * - `bad_response`: it answered something unusable (an error status, garbage, cut off).
 */
export type SpeechFailure = 'missing' | 'timeout' | 'failed' | 'unreadable_audio' | 'aborted' | 'unreachable' | 'bad_response';

export class SpeechEngineError extends Error {
  constructor(
    readonly failure: SpeechFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SpeechEngineError';
  }
}

export interface RunOptions {
  stdin?: Buffer;
  signal: AbortSignal;
  timeoutMs: number;
  /** Output past this many bytes kills the program (a runaway engine). */
  maxOutputBytes: number;
}

/** Runs `program args` to its end and answers its standard output; kills it on abort or time-out. */
export function runProgram(program: string, args: string[], opts: RunOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (opts.signal.aborted) {
      reject(new SpeechEngineError('aborted', 'Stopped before it started.'));
      return;
    }
    const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let ending: SpeechEngineError | null = null;
    const stop = (err: SpeechEngineError) => {
      ending ??= err;
      child.kill('SIGKILL');
    };
    const onAbort = () => stop(new SpeechEngineError('aborted', 'Stopped by the caller.'));
    opts.signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => stop(new SpeechEngineError('timeout', `${program} ran past ${opts.timeoutMs} ms.`)), opts.timeoutMs);
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > opts.maxOutputBytes) stop(new SpeechEngineError('failed', `${program} wrote more than ${opts.maxOutputBytes} bytes.`));
      else chunks.push(c);
    });
    child.stdin.on('error', () => undefined); // a program that exits early closes its input
    child.stdin.end(opts.stdin ?? Buffer.alloc(0));
    child.on('error', (err: NodeJS.ErrnoException) => {
      ending ??= new SpeechEngineError(err.code === 'ENOENT' ? 'missing' : 'failed', `${program} could not start: ${err.message}`);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      opts.signal.removeEventListener('abort', onAbort);
      if (ending) reject(ending);
      else if (code !== 0) reject(new SpeechEngineError('failed', `${program} exited with ${code}.`));
      else resolve(Buffer.concat(chunks));
    });
  });
}

/**
 * A scratch file for a program that cannot write to or read from a pipe (Node's child pipes are
 * sockets, which flite's `-o /dev/stdout` and pocketsphinx's `-infile /dev/stdin` cannot open):
 * removed once `work` ends, however it ends.
 */
export async function withScratchFile<T>(dir: string, suffix: string, work: (file: string) => Promise<T>, content?: Buffer): Promise<T> {
  const file = path.join(dir, `${randomUUID()}${suffix}`);
  try {
    if (content) await writeFile(file, content);
    return await work(file);
  } finally {
    await rm(file, { force: true });
  }
}

export { readFile as readScratchFile };
