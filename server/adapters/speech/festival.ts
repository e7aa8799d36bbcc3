// festival's HTS voice (apt `festival` + `festvox-us-slt-hts`, free licences): the clearest local
// voice, as a short-lived `text2wave` per sentence, the sentence on its standard input (never on
// the command line) and a 32 kHz WAV on its standard output, brought down to 24 000 Hz by the
// caller. Each start costs about a second here (festival loads the voice), so the first sentence
// comes later than with flite; the later ones are made while the first plays.
import { readWav } from './pcm.js';
import { runProgram, SpeechEngineError, type PcmChunk, type SynthesizeOptions, type TtsEngine } from './engine.js';

/** Where Debian's festvox-us-slt-hts puts the voice (the probe looks for it). */
export const FESTIVAL_HTS_VOICE_DIR = '/usr/share/festival/voices/us/cmu_us_slt_arctic_hts';

export function createFestival(program: string, timeoutMs: number): TtsEngine {
  return {
    id: 'festival',
    sampleRate: 24_000,
    async *synthesize(sentence: string, opts: SynthesizeOptions): AsyncIterable<PcmChunk> {
      // hts_engine's -r is its speaking speed (1 = the voice's own); the rate is a checked number
      const speed = Math.min(2, Math.max(0.5, opts.rate)).toFixed(2);
      const args = ['-eval', '(voice_cmu_us_slt_arctic_hts)', '-eval', `(set! hts_engine_params (append hts_engine_params (list (list "-r" ${speed}))))`];
      const wav = await runProgram(program, args, { stdin: Buffer.from(sentence, 'utf8'), signal: opts.signal, timeoutMs, maxOutputBytes: 64 * 1024 * 1024 });
      let chunk: PcmChunk;
      try {
        chunk = readWav(wav);
      } catch {
        throw new SpeechEngineError('failed', 'festival wrote something that is not a WAV file.');
      }
      yield chunk;
    },
  };
}
