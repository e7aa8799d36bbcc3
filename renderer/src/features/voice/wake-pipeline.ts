// The openWakeWord pipeline (shared/reference/voice.md §5; dscripka/openWakeWord utils.py) over
// onnxruntime-web, with no browser API in it, so the API test runs the very same code in Node:
// 16 kHz samples as int16-valued floats (NOT scaled to ±1: that costs most of the accuracy), in
// blocks of 1280 (80 ms) → the melspectrogram model over the last 1760 samples gives 8 new 32-bin
// frames, each x/10+2 → the embedding model over the last 76 frames gives one 96-d vector per
// block → the keyword model over the last 16 vectors gives a score 0..1 (a detection above 0.5).
import type * as Ort from 'onnxruntime-web';

export const SAMPLE_RATE = 16_000;
export const BLOCK = 1280;
const MEL_CONTEXT = 480;
const MEL_BINS = 32;
const EMBED_FRAMES = 76;
const EMBED_SIZE = 96;
const KEYWORD_VECTORS = 16;
/** Frames kept: the embedding window plus a little. */
const MEL_KEEP = EMBED_FRAMES + 24;
export const DETECTION_THRESHOLD = 0.5;

type OrtModule = Pick<typeof Ort, 'InferenceSession' | 'Tensor'>;

export interface WakeModels {
  melspectrogram: Ort.InferenceSession;
  embedding: Ort.InferenceSession;
  keywords: Record<string, Ort.InferenceSession>;
}

/** Loads the sessions from the model bytes (feature models in pipeline order, then one per keyword). */
export async function loadWakeModels(ort: OrtModule, features: [Uint8Array, Uint8Array], keywords: Record<string, Uint8Array>): Promise<WakeModels> {
  const open = (bytes: Uint8Array) => ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
  const [melspectrogram, embedding] = await Promise.all([open(features[0]), open(features[1])]);
  const entries = await Promise.all(Object.entries(keywords).map(async ([id, bytes]) => [id, await open(bytes)] as const));
  return { melspectrogram, embedding, keywords: Object.fromEntries(entries) };
}

export class WakePipeline {
  private audio = new Float32Array(0);
  private pending = new Float32Array(0);
  /** Mel frames, each 32 floats; starts as ones, as openWakeWord does. */
  private mel: Float32Array[] = Array.from({ length: EMBED_FRAMES }, () => new Float32Array(MEL_BINS).fill(1));
  private vectors: Float32Array[] = [];

  constructor(
    private readonly ort: OrtModule,
    private readonly models: WakeModels,
  ) {}

  /** Forgets what was heard (after a detection, so one phrase does not fire twice). */
  reset(): void {
    this.audio = new Float32Array(0);
    this.pending = new Float32Array(0);
    this.mel = Array.from({ length: EMBED_FRAMES }, () => new Float32Array(MEL_BINS).fill(1));
    this.vectors = [];
  }

  /** Takes samples (16 kHz, int16-valued floats) of any length; the highest score per keyword over the blocks they completed. */
  async push(samples: Float32Array): Promise<Record<string, number>> {
    const best: Record<string, number> = {};
    const joined = new Float32Array(this.pending.length + samples.length);
    joined.set(this.pending);
    joined.set(samples, this.pending.length);
    let at = 0;
    for (; at + BLOCK <= joined.length; at += BLOCK) {
      const scores = await this.block(joined.subarray(at, at + BLOCK));
      for (const [id, score] of Object.entries(scores)) best[id] = Math.max(best[id] ?? 0, score);
    }
    this.pending = joined.slice(at);
    return best;
  }

  private async block(block: Float32Array): Promise<Record<string, number>> {
    const keep = BLOCK + MEL_CONTEXT;
    const audio = new Float32Array(Math.min(keep, this.audio.length + block.length));
    const fromOld = audio.length - block.length;
    audio.set(this.audio.subarray(this.audio.length - fromOld));
    audio.set(block, fromOld);
    this.audio = audio;
    await this.melFrames(audio);
    this.vectors.push(await this.embed());
    if (this.vectors.length > KEYWORD_VECTORS) this.vectors.shift();
    if (this.vectors.length < KEYWORD_VECTORS) return {};
    const input = new Float32Array(KEYWORD_VECTORS * EMBED_SIZE);
    this.vectors.forEach((v, i) => input.set(v, i * EMBED_SIZE));
    const scores: Record<string, number> = {};
    for (const [id, session] of Object.entries(this.models.keywords)) {
      const out = await session.run({ [session.inputNames[0]!]: new this.ort.Tensor('float32', input, [1, KEYWORD_VECTORS, EMBED_SIZE]) });
      scores[id] = (out[session.outputNames[0]!]!.data as Float32Array)[0] ?? 0;
    }
    return scores;
  }

  private async melFrames(audio: Float32Array): Promise<void> {
    const s = this.models.melspectrogram;
    const out = await s.run({ [s.inputNames[0]!]: new this.ort.Tensor('float32', audio, [1, audio.length]) });
    const data = out[s.outputNames[0]!]!.data as Float32Array;
    const frames = Math.floor(data.length / MEL_BINS);
    // the frames of this block's 1280 samples: the last 8 (fewer while the buffer fills)
    for (let f = Math.max(0, frames - BLOCK / 160); f < frames; f++) {
      const row = new Float32Array(MEL_BINS);
      for (let b = 0; b < MEL_BINS; b++) row[b] = data[f * MEL_BINS + b]! / 10 + 2;
      this.mel.push(row);
    }
    if (this.mel.length > MEL_KEEP) this.mel.splice(0, this.mel.length - MEL_KEEP);
  }

  private async embed(): Promise<Float32Array> {
    const s = this.models.embedding;
    const input = new Float32Array(EMBED_FRAMES * MEL_BINS);
    this.mel.slice(-EMBED_FRAMES).forEach((row, i) => input.set(row, i * MEL_BINS));
    const out = await s.run({ [s.inputNames[0]!]: new this.ort.Tensor('float32', input, [1, EMBED_FRAMES, MEL_BINS, 1]) });
    return Float32Array.from((out[s.outputNames[0]!]!.data as Float32Array).subarray(0, EMBED_SIZE));
  }
}
