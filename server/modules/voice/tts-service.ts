// Speech: a text split into sentences, each synthesized by the chosen engine while the one before
// is being sent (one sentence ahead), resampled to the stream's one rate and cut into lines of at
// most one second. Transport-neutral: the route writes the lines as NDJSON. Stopping the caller's
// signal kills the engine's process.
import type { TtsEngine } from '../../adapters/speech/engine.js';
import { resample, splitPcm, writeWav } from '../../adapters/speech/pcm.js';
import { speechAppError, speechFailureKind } from '../../adapter-errors/speech.js';
import type { UserActor } from '../../actor.js';
import { publicError } from '../../errors.js';
import type { Logger } from '../../platform/logger.js';
import type { SpeakRequest, TtsLine } from './schema.js';
import { splitSentences } from './sentences.js';
import type { VoiceConfigService } from './config-service.js';

export interface PreparedSpeech {
  voice: string;
  sampleRate: number;
  sentences: string[];
  engine: TtsEngine;
  engineVoice: string;
  rate: number;
}

export class TtsService {
  constructor(private readonly deps: { config: VoiceConfigService; logger: Logger }) {}

  /** Everything that can be refused before the first byte: the voice, the engine, the sentences. */
  async prepare(actor: UserActor, req: SpeakRequest): Promise<PreparedSpeech> {
    const choices = await this.deps.config.choicesOf(actor);
    const picked = this.deps.config.pick(req.voice ?? choices.voice ?? (await this.deps.config.defaultVoice()));
    return { voice: picked.id, sampleRate: picked.engine.sampleRate, sentences: splitSentences(req.text), engine: picked.engine, engineVoice: picked.name, rate: req.rate ?? choices.rate };
  }

  /** One sentence's samples at the stream's rate, in pieces as the engine gives them. */
  private async sentencePcm(p: PreparedSpeech, text: string, signal: AbortSignal): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const chunk of p.engine.synthesize(text, { voice: p.engineVoice, rate: p.rate, signal })) parts.push(resample(chunk.pcm, chunk.sampleRate, p.sampleRate));
    return Buffer.concat(parts);
  }

  /** The stream's lines: start, audio (≤ 1 s each, `final` on a sentence's last), end; or an error line. */
  async *stream(p: PreparedSpeech, signal: AbortSignal): AsyncGenerator<TtsLine> {
    yield { type: 'start', sampleRate: p.sampleRate, voice: p.voice, sentences: p.sentences.length };
    let seq = 0;
    let total = 0;
    // the next sentence is synthesized while this one is sent
    const inner = new AbortController();
    const stop = () => inner.abort();
    signal.addEventListener('abort', stop, { once: true });
    const start = (i: number) => {
      const work = this.sentencePcm(p, p.sentences[i]!, inner.signal);
      work.catch(() => undefined); // awaited below; a rejection before then is not unhandled
      return work;
    };
    let next: Promise<Buffer> | null = p.sentences.length > 0 ? start(0) : null;
    try {
      for (let i = 0; i < p.sentences.length; i++) {
        const pcm = await next!;
        next = i + 1 < p.sentences.length ? start(i + 1) : null;
        const pieces = splitPcm(pcm, p.sampleRate);
        if (pieces.length === 0) pieces.push(Buffer.alloc(0));
        for (let k = 0; k < pieces.length; k++) {
          const piece = pieces[k]!;
          total += piece.length / 2;
          yield { type: 'audio', seq: seq++, sentence: i, ...(k === 0 ? { text: p.sentences[i] } : {}), pcm: piece.toString('base64'), samples: piece.length / 2, sampleRate: p.sampleRate, final: k === pieces.length - 1 };
        }
      }
      yield { type: 'end', sentences: p.sentences.length, samples: total };
    } catch (err) {
      if (signal.aborted) return;
      this.deps.logger.warn({ failure: speechFailureKind(err), error: String(err) }, 'speech stream failed');
      yield { type: 'error', ...publicError(speechAppError(err)) };
    } finally {
      signal.removeEventListener('abort', stop);
      inner.abort();
    }
  }

  /** A short text as one WAV file. */
  async wav(p: PreparedSpeech, signal: AbortSignal): Promise<Buffer> {
    const parts: Buffer[] = [];
    try {
      for (const s of p.sentences) parts.push(await this.sentencePcm(p, s, signal));
    } catch (err) {
      throw speechAppError(err);
    }
    return writeWav(Buffer.concat(parts), p.sampleRate);
  }
}
