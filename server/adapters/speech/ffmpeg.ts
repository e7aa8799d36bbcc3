// ffmpeg (apt `ffmpeg`): any recording a browser makes (webm/opus, ogg, mp4/aac, wav, mp3) to
// 16 kHz mono s16le, read from a file, at most `maxSeconds` (one more second is read so the caller
// can tell a recording that is too long).
import { runProgram, SpeechEngineError } from './engine.js';

export async function decodeTo16k(program: string, file: string, opts: { maxSeconds: number; signal: AbortSignal; timeoutMs: number }): Promise<Buffer> {
  const args = ['-nostdin', '-loglevel', 'error', '-i', file, '-t', String(opts.maxSeconds + 1), '-vn', '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1'];
  try {
    return await runProgram(program, args, { signal: opts.signal, timeoutMs: opts.timeoutMs, maxOutputBytes: (opts.maxSeconds + 2) * 32_000 });
  } catch (err) {
    if (err instanceof SpeechEngineError && err.failure === 'failed') throw new SpeechEngineError('unreadable_audio', 'ffmpeg could not read the audio.');
    throw err;
  }
}
