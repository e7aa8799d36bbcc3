// An OpenAI-compatible speech server an admin added (speaches, openedai-speech, Kokoro-FastAPI,
// LocalAI, whisper.cpp's server): `POST {base}/v1/audio/speech` answers raw s16le mono 24 kHz
// (`response_format: "pcm"`), streamed as it arrives; `POST {base}/v1/audio/transcriptions` takes
// a WAV as multipart `file`. Every request goes through the SSRF guard it is given (the one guard's
// rules plus this server's own origin on the home network); the key is sent, never logged.
import type { Dispatcher } from 'undici';
import { undici } from '../../platform/lazy.js';
import { writeWav } from './pcm.js';
import { SpeechEngineError, type PcmChunk, type SttEngine, type SynthesizeOptions, type TtsEngine } from './engine.js';

export interface OpenAiSpeechOptions {
  id: string;
  baseUrl: string;
  apiKey: string | null;
  /** The guard's URL check and its dispatcher. */
  checkUrl: (raw: string) => URL;
  dispatcher: Dispatcher;
  timeoutMs: number;
}

const PCM_RATE = 24_000;

type UndiciResponse = Awaited<ReturnType<ReturnType<typeof undici>['fetch']>>;

async function call(o: OpenAiSpeechOptions, path: string, init: { body: string | InstanceType<ReturnType<typeof undici>['FormData']>; json: boolean; signal: AbortSignal }): Promise<UndiciResponse> {
  let url: URL;
  try {
    url = o.checkUrl(new URL(path, o.baseUrl.endsWith('/') ? o.baseUrl : `${o.baseUrl}/`).toString());
  } catch {
    throw new SpeechEngineError('unreachable', 'The speech server address is refused.');
  }
  const headers: Record<string, string> = {};
  if (init.json) headers['content-type'] = 'application/json';
  if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
  const timeout = AbortSignal.timeout(o.timeoutMs);
  let res: UndiciResponse;
  try {
    res = await undici().fetch(url, { method: 'POST', headers, body: init.body, signal: AbortSignal.any([init.signal, timeout]), dispatcher: o.dispatcher });
  } catch {
    if (init.signal.aborted) throw new SpeechEngineError('aborted', 'Stopped by the caller.');
    if (timeout.aborted) throw new SpeechEngineError('timeout', 'The speech server took too long.');
    throw new SpeechEngineError('unreachable', 'The speech server did not answer.');
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new SpeechEngineError('bad_response', `The speech server answered ${res.status}.`);
  }
  return res;
}

export function createOpenAiTts(o: OpenAiSpeechOptions & { voice: string }): TtsEngine {
  return {
    id: o.id,
    sampleRate: PCM_RATE,
    async *synthesize(sentence: string, opts: SynthesizeOptions): AsyncIterable<PcmChunk> {
      const res = await call(o, 'v1/audio/speech', { json: true, signal: opts.signal, body: JSON.stringify({ model: 'tts-1', input: sentence, voice: opts.voice ?? o.voice, response_format: 'pcm', speed: opts.rate }) });
      if (!res.body) throw new SpeechEngineError('bad_response', 'The speech server sent no audio.');
      let odd: Buffer | null = null;
      let any = false;
      try {
        for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
          let chunk: Buffer = odd ? Buffer.concat([odd, part]) : Buffer.from(part);
          odd = chunk.length % 2 ? chunk.subarray(chunk.length - 1) : null;
          if (odd) chunk = chunk.subarray(0, chunk.length - 1);
          if (chunk.length) {
            any = true;
            yield { sampleRate: PCM_RATE, pcm: chunk };
          }
        }
      } catch {
        if (opts.signal.aborted) throw new SpeechEngineError('aborted', 'Stopped by the caller.');
        throw new SpeechEngineError('bad_response', 'The speech server stopped in the middle of a sentence.');
      }
      if (!any) throw new SpeechEngineError('bad_response', 'The speech server sent no audio.');
    },
  };
}

export function createOpenAiStt(o: OpenAiSpeechOptions): SttEngine {
  return {
    id: o.id,
    async transcribe(pcm16k, opts) {
      const form = new (undici().FormData)();
      form.append('file', new Blob([new Uint8Array(writeWav(pcm16k, 16_000))], { type: 'audio/wav' }), 'audio.wav');
      form.append('model', 'whisper-1');
      form.append('language', opts.language);
      form.append('response_format', 'json');
      const res = await call(o, 'v1/audio/transcriptions', { json: false, signal: opts.signal, body: form });
      const body = (await res.json().catch(() => null)) as { text?: unknown } | null;
      if (!body || typeof body.text !== 'string') throw new SpeechEngineError('bad_response', 'The speech server sent something that is not a transcript.');
      return { text: body.text.trim() };
    },
  };
}
