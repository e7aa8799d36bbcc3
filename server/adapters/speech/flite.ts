// flite (apt `flite`, BSD-style): one short-lived process per sentence, a WAV at 16 000 Hz (kal16,
// slt, rms, awb) written to a scratch file (flite cannot write to a socket), upsampled to 24 000 Hz
// by the caller (browsers reject buffers under 22 050 Hz).
import { readWav } from './pcm.js';
import { readScratchFile, runProgram, SpeechEngineError, withScratchFile, type PcmChunk, type SynthesizeOptions, type TtsEngine } from './engine.js';

export function createFlite(program: string, opts: { timeoutMs: number; scratchDir: string }): TtsEngine {
  return {
    id: 'flite',
    sampleRate: 24_000,
    async *synthesize(sentence: string, o: SynthesizeOptions): AsyncIterable<PcmChunk> {
      const wav = await withScratchFile(opts.scratchDir, '.wav', async (file) => {
        const args = ['-voice', o.voice ?? 'slt', '--setf', `duration_stretch=${(1 / o.rate).toFixed(3)}`, '-t', sentence, '-o', file];
        await runProgram(program, args, { signal: o.signal, timeoutMs: opts.timeoutMs, maxOutputBytes: 64 * 1024 });
        return readScratchFile(file);
      });
      let chunk: PcmChunk;
      try {
        chunk = readWav(wav);
      } catch {
        throw new SpeechEngineError('failed', 'flite wrote something that is not a WAV file.');
      }
      yield chunk;
    },
  };
}
