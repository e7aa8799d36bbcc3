// espeak-ng (apt `espeak-ng`, GPL-3, called as a program): one short-lived process per sentence,
// `--stdout` WAV at 22 050 Hz. Formant speech: fast and robotic.
import { readWav } from './pcm.js';
import { runProgram, SpeechEngineError, type PcmChunk, type SynthesizeOptions, type TtsEngine } from './engine.js';

const WORDS_PER_MINUTE = 175;

export function createEspeakNg(program: string, timeoutMs: number): TtsEngine {
  return {
    id: 'espeak-ng',
    sampleRate: 22_050,
    async *synthesize(sentence: string, opts: SynthesizeOptions): AsyncIterable<PcmChunk> {
      const args = ['--stdout', '-s', String(Math.round(WORDS_PER_MINUTE * opts.rate)), '-v', opts.voice ?? 'en-us', '--', sentence];
      const wav = await runProgram(program, args, { signal: opts.signal, timeoutMs, maxOutputBytes: 64 * 1024 * 1024 });
      let chunk: PcmChunk;
      try {
        chunk = readWav(wav);
      } catch {
        throw new SpeechEngineError('failed', 'espeak-ng wrote something that is not a WAV file.');
      }
      yield chunk;
    },
  };
}
