// Speaks texts through POST /api/tts/stream: the NDJSON lines are read as they arrive and each
// audio line is scheduled right after the one before on one AudioContext (gapless; the context
// resamples). Stop aborts the request (the server kills its engine) and silences what is queued.
// Create the player inside the tap handler: browsers only let a tap start audio.

export interface SpeechPlayer {
  /** Resolves when the last sentence has finished playing (or after stop()). */
  done: Promise<void>;
  stop(): void;
}

interface Line {
  type: 'start' | 'audio' | 'end' | 'error';
  pcm?: string;
  sampleRate?: number;
  message?: string;
}

function toFloats(b64: string): Float32Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Float32Array(new ArrayBuffer((bin.length >> 1) * 4));
  for (let i = 0; i < out.length; i++) {
    const v = bin.charCodeAt(2 * i) | (bin.charCodeAt(2 * i + 1) << 8);
    out[i] = (v >= 0x8000 ? v - 0x10000 : v) / 32768;
  }
  return out;
}

/**
 * Texts spoken one after another on one AudioContext, gapless: say() may be called while earlier
 * texts are still being fetched or played (voice mode says each sentence of an answer as it is
 * written). finish() resolves once everything said so far has played.
 */
export interface SpeechQueue {
  say(text: string): void;
  finish(): Promise<void>;
  stop(): void;
}

/** How much speech may wait, decoded, before the next piece is asked for. */
const AHEAD_SECONDS = 20;

export function speechQueue(onError: (message: string) => void): SpeechQueue {
  const ctx = new AudioContext();
  const abort = new AbortController();
  const sources: AudioBufferSourceNode[] = [];
  let next = 0;
  let stopped = false;
  let failed = false;
  let chain = Promise.resolve();
  const stop = () => {
    if (stopped) return;
    stopped = true;
    abort.abort();
    for (const s of sources) {
      try {
        s.stop();
      } catch {
        // never started
      }
    }
    void ctx.close();
  };
  const play = (line: Line) => {
    const floats = toFloats(line.pcm ?? '');
    if (floats.length === 0) return;
    const buffer = ctx.createBuffer(1, floats.length, line.sampleRate ?? 24_000);
    buffer.copyToChannel(floats, 0);
    const src = ctx.createBufferSource();
    src.buffer = buffer;
    src.connect(ctx.destination);
    const at = Math.max(next, ctx.currentTime + 0.05);
    src.start(at);
    next = at + buffer.duration;
    sources.push(src);
  };
  const fail = (message: string) => {
    if (failed || stopped) return;
    failed = true;
    onError(message);
  };
  const streamOne = async (text: string) => {
    // a long article is asked for piece by piece: the next piece once less than AHEAD_SECONDS is left to play
    while (!stopped && next - ctx.currentTime > AHEAD_SECONDS) await new Promise((r) => setTimeout(r, 500));
    if (stopped || failed) return;
    try {
      const res = await fetch('/api/tts/stream', { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text }), signal: abort.signal });
      if (!res.ok || !res.body) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        fail(body?.error?.message ?? 'Hearth could not speak this right now. Try again in a minute.');
        return;
      }
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let rest = '';
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        rest += value;
        const lines = rest.split('\n');
        rest = lines.pop() ?? '';
        for (const l of lines) {
          if (!l.trim()) continue;
          const line = JSON.parse(l) as Line;
          if (line.type === 'audio') play(line);
          else if (line.type === 'error') fail(line.message ?? 'The speech stopped before the end.');
        }
      }
    } catch {
      fail('The speech stopped before the end. Check that this device is on the home network, then try again.');
    }
  };
  return {
    say: (text) => {
      if (text.trim()) chain = chain.then(() => streamOne(text.trim()));
    },
    finish: async () => {
      await chain;
      // wait for the queued audio to finish
      const left = next - ctx.currentTime;
      if (left > 0 && !stopped) await new Promise((r) => setTimeout(r, left * 1000));
      stop();
    },
    stop,
  };
}

/** Speaks a text of any length, piece by piece (speechPieces). */
export function speak(text: string, onError: (message: string) => void): SpeechPlayer {
  const queue = speechQueue(onError);
  for (const piece of speechPieces(text)) queue.say(piece);
  return { done: queue.finish(), stop: queue.stop };
}

/**
 * Cuts the finished sentences off the front of a text that is still being written: [sentences
 * ready to speak, what is left]. A sentence ends at . ! or ? followed by a space or a new line, or
 * at a blank line.
 */
export function takeSentences(text: string): [string, string] {
  const re = /[.!?]["')\]]*\s+|\n\s*\n/g;
  let end = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) end = m.index + m[0].length;
  return [text.slice(0, end), text.slice(end)];
}

/** The most one request speaks (the server's limit). */
export const MAX_SPEECH_CHARS = 2_000;
/** The first piece is short, so the first words come at once. */
const FIRST_PIECE_CHARS = 300;

/**
 * A long text cut into pieces of whole sentences that fit one request each: the first about
 * FIRST_PIECE_CHARS, the rest up to MAX_SPEECH_CHARS (a sentence longer than that is cut at a space).
 */
export function speechPieces(text: string): string[] {
  const sentences = text.replace(/\s+/g, ' ').trim().match(/[^.!?]+(?:[.!?]+["')\]]*|$)\s*/g) ?? [];
  const pieces: string[] = [];
  let piece = '';
  for (let sentence of sentences) {
    const limit = pieces.length === 0 ? FIRST_PIECE_CHARS : MAX_SPEECH_CHARS;
    while (sentence.length > MAX_SPEECH_CHARS) {
      const cut = sentence.lastIndexOf(' ', MAX_SPEECH_CHARS) > 0 ? sentence.lastIndexOf(' ', MAX_SPEECH_CHARS) : MAX_SPEECH_CHARS;
      if (piece.trim()) pieces.push(piece.trim());
      pieces.push(sentence.slice(0, cut).trim());
      piece = '';
      sentence = sentence.slice(cut);
    }
    if (piece && (piece + sentence).length > limit) {
      pieces.push(piece.trim());
      piece = '';
    }
    piece += sentence;
  }
  if (piece.trim()) pieces.push(piece.trim());
  return pieces;
}
