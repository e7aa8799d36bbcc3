// A Wyoming speech server an admin added (Home Assistant's wyoming-piper, wyoming-faster-whisper):
// one TCP connection per request, events as a JSON header line, then `data_length` bytes of JSON
// merged into the event's data, then `payload_length` raw bytes (OHF-Voice/wyoming event.py).
// TTS: `synthesize {text}` → audio-start, audio-chunk…, audio-stop; STT: `transcribe`, audio-start,
// audio-chunk…, audio-stop → `transcript {text}`. The socket's DNS lookup is the SSRF guard's.
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { SpeechEngineError, type PcmChunk, type SttEngine, type SynthesizeOptions, type TtsEngine } from './engine.js';

export interface WyomingOptions {
  id: string;
  host: string;
  port: number;
  lookup: LookupFunction;
  /** The SSRF guard's check of the server's address (a literal address never reaches `lookup`). */
  checkAddress: () => void;
  timeoutMs: number;
}

export interface WyomingEvent {
  type: string;
  data: Record<string, unknown>;
  payload: Buffer | null;
}

/** One event on the wire. */
export function encodeEvent(type: string, data: Record<string, unknown> = {}, payload?: Buffer): Buffer {
  const body = Buffer.from(JSON.stringify(data));
  const header: Record<string, unknown> = { type, version: '1.5.0', data_length: body.length };
  if (payload) header.payload_length = payload.length;
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body, payload ?? Buffer.alloc(0)]);
}

/** Reads events from a byte stream as they complete. */
export class EventReader {
  private buf = Buffer.alloc(0);

  push(chunk: Buffer): WyomingEvent[] {
    this.buf = Buffer.concat([this.buf, chunk]);
    const out: WyomingEvent[] = [];
    for (;;) {
      const nl = this.buf.indexOf(10);
      if (nl < 0) return out;
      const header = JSON.parse(this.buf.subarray(0, nl).toString('utf8')) as { type?: unknown; data?: Record<string, unknown>; data_length?: number; payload_length?: number };
      const dataLength = header.data_length ?? 0;
      const payloadLength = header.payload_length ?? 0;
      if (typeof header.type !== 'string') throw new Error('an event without a type');
      if (this.buf.length < nl + 1 + dataLength + payloadLength) return out;
      const extra = dataLength ? (JSON.parse(this.buf.subarray(nl + 1, nl + 1 + dataLength).toString('utf8')) as Record<string, unknown>) : {};
      const payload = payloadLength ? Buffer.from(this.buf.subarray(nl + 1 + dataLength, nl + 1 + dataLength + payloadLength)) : null;
      out.push({ type: header.type, data: { ...(header.data ?? {}), ...extra }, payload });
      this.buf = this.buf.subarray(nl + 1 + dataLength + payloadLength);
    }
  }
}

/** Sends `events`, then yields what the server answers until `until` says the exchange is over. */
async function* exchange(o: WyomingOptions, events: Buffer[], until: (e: WyomingEvent) => boolean, signal: AbortSignal): AsyncGenerator<WyomingEvent> {
  if (signal.aborted) throw new SpeechEngineError('aborted', 'Stopped before it started.');
  try {
    o.checkAddress();
  } catch {
    throw new SpeechEngineError('unreachable', 'The Wyoming server address is refused.');
  }
  const socket = net.connect({ host: o.host, port: o.port, lookup: o.lookup });
  const reader = new EventReader();
  const queue: WyomingEvent[] = [];
  let failure: SpeechEngineError | null = null;
  let ended = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  const fail = (err: SpeechEngineError) => {
    failure ??= err;
    socket.destroy();
    notify();
  };
  let connected = false;
  const timer = setTimeout(() => fail(new SpeechEngineError('timeout', 'The Wyoming server took too long.')), o.timeoutMs);
  const onAbort = () => fail(new SpeechEngineError('aborted', 'Stopped by the caller.'));
  signal.addEventListener('abort', onAbort, { once: true });
  socket.on('connect', () => {
    connected = true;
    for (const e of events) socket.write(e);
  });
  socket.on('data', (c: Buffer) => {
    try {
      queue.push(...reader.push(c));
    } catch {
      fail(new SpeechEngineError('bad_response', 'The Wyoming server sent something that is not an event.'));
    }
    notify();
  });
  socket.on('error', () => fail(new SpeechEngineError(connected ? 'bad_response' : 'unreachable', 'The Wyoming server did not answer.')));
  socket.on('close', () => {
    ended = true;
    notify();
  });
  try {
    for (;;) {
      while (queue.length) {
        const e = queue.shift()!;
        yield e;
        if (until(e)) return;
      }
      if (failure) throw failure;
      if (ended) throw new SpeechEngineError(connected ? 'bad_response' : 'unreachable', 'The Wyoming server closed the connection early.');
      await new Promise<void>((r) => (wake = r));
    }
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    socket.destroy();
  }
}

export function createWyomingTts(o: WyomingOptions): TtsEngine {
  return {
    id: o.id,
    // piper voices are 22 050 Hz; a stream keeps one rate, so chunks are resampled to it
    sampleRate: 22_050,
    async *synthesize(sentence: string, opts: SynthesizeOptions): AsyncIterable<PcmChunk> {
      let rate = 0;
      for await (const e of exchange(o, [encodeEvent('synthesize', { text: sentence })], (ev) => ev.type === 'audio-stop', opts.signal)) {
        if (e.type === 'audio-start' || e.type === 'audio-chunk') {
          rate = Number(e.data.rate) || rate;
          if (e.data.width !== undefined && Number(e.data.width) !== 2) throw new SpeechEngineError('bad_response', 'The Wyoming server sent audio Hearth cannot play.');
        }
        if (e.type === 'audio-chunk' && e.payload && rate) yield { sampleRate: rate, pcm: e.payload };
        if (e.type === 'error') throw new SpeechEngineError('bad_response', 'The Wyoming server answered with an error.');
      }
    },
  };
}

export function createWyomingStt(o: WyomingOptions): SttEngine {
  return {
    id: o.id,
    async transcribe(pcm16k, opts) {
      const fmt = { rate: 16_000, width: 2, channels: 1 };
      const events = [encodeEvent('transcribe', { language: opts.language }), encodeEvent('audio-start', fmt)];
      for (let at = 0; at < pcm16k.length; at += 32_000) events.push(encodeEvent('audio-chunk', fmt, pcm16k.subarray(at, at + 32_000)));
      events.push(encodeEvent('audio-stop'));
      for await (const e of exchange(o, events, (ev) => ev.type === 'transcript' || ev.type === 'error', opts.signal)) {
        if (e.type === 'transcript' && typeof e.data.text === 'string') return { text: e.data.text.trim() };
        if (e.type === 'error') throw new SpeechEngineError('bad_response', 'The Wyoming server answered with an error.');
      }
      throw new SpeechEngineError('bad_response', 'The Wyoming server sent no transcript.');
    },
  };
}
