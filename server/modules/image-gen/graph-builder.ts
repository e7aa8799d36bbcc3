// The small parts every pipeline graph is made of: a node-id allocator that writes the engine's API
// format (reference/comfyui/API.md §2), and the chains several pipelines share (checkpoint plus
// LoRAs, prompt encoding, sampling with the hi-res pass, the tiled decode, saving). Pure.
import type { HiResPlan, Sampling } from './presets.js';

/** A link to another node's output: `[node id, output index]` (the id is always a string). */
export type Link = readonly [string, number];

export type { ApiGraph, ApiNode } from '../../adapters/image-engine/protocol.js';
import type { ApiGraph } from '../../adapters/image-engine/protocol.js';

export class GraphBuilder {
  readonly graph: ApiGraph = {};
  private next = 1;

  /** Adds a node and answers its id. */
  add(classType: string, inputs: Record<string, unknown>): string {
    const id = String(this.next++);
    this.graph[id] = { class_type: classType, inputs };
    return id;
  }
}

export const out = (id: string, index = 0): Link => [id, index];

/** `n` within lo..hi; a value that is not a number becomes lo. */
export const clamp = (n: number, lo: number, hi: number): number => (Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : lo);

/** Seeds reach the engine as JSON numbers, so they stay within what JavaScript holds exactly. */
export function safeSeed(seed: number): number {
  if (!Number.isFinite(seed)) return 0;
  return Math.abs(Math.trunc(seed)) % Number.MAX_SAFE_INTEGER;
}

/** A LoRA to apply: its file in the engine's loras folder and its (already clamped) weight. */
export interface LoraUse {
  file: string;
  weight: number;
}

export interface ModelChain {
  model: Link;
  clip: Link;
  vae: Link;
}

/** CheckpointLoaderSimple, then one LoraLoader per LoRA on both the model and the text encoder. */
export function checkpointWithLoras(g: GraphBuilder, checkpoint: string, loras: readonly LoraUse[] = []): ModelChain {
  const ckpt = g.add('CheckpointLoaderSimple', { ckpt_name: checkpoint });
  let model = out(ckpt, 0);
  let clip = out(ckpt, 1);
  for (const lora of loras) {
    const id = g.add('LoraLoader', { model, clip, lora_name: lora.file, strength_model: lora.weight, strength_clip: lora.weight });
    model = out(id, 0);
    clip = out(id, 1);
  }
  return { model, clip, vae: out(ckpt, 2) };
}

export function encodePrompts(g: GraphBuilder, clip: Link, positive: string, negative: string): { positive: Link; negative: Link } {
  return {
    positive: out(g.add('CLIPTextEncode', { text: positive, clip })),
    negative: out(g.add('CLIPTextEncode', { text: negative, clip })),
  };
}

/** Tile sizes for decoding and encoding: small enough for a 6 GB card at 2048 px. */
export const TILE = { tile_size: 512, overlap: 64, temporal_size: 64, temporal_overlap: 8 } as const;

/** The VAE decode is always tiled (spec): the one step that runs out of memory on big pictures. */
export const decodeTiled = (g: GraphBuilder, samples: Link, vae: Link): Link => out(g.add('VAEDecodeTiled', { samples, vae, ...TILE }));

export const encodeTiled = (g: GraphBuilder, pixels: Link, vae: Link): Link => out(g.add('VAEEncodeTiled', { pixels, vae, ...TILE }));

export interface SamplerStep {
  node: string;
  steps: number;
}

export interface KSamplerArgs {
  model: Link;
  positive: Link;
  negative: Link;
  latent: Link;
  seed: number;
  steps: number;
  cfg: number;
  sampler: string;
  scheduler: string;
  denoise: number;
}

export function ksampler(g: GraphBuilder, a: KSamplerArgs): SamplerStep {
  const node = g.add('KSampler', {
    model: a.model,
    seed: safeSeed(a.seed),
    steps: a.steps,
    cfg: a.cfg,
    sampler_name: a.sampler,
    scheduler: a.scheduler,
    positive: a.positive,
    negative: a.negative,
    latent_image: a.latent,
    denoise: a.denoise,
  });
  return { node, steps: a.steps };
}

export interface SampleImageArgs {
  chain: ModelChain;
  conditioning: { positive: Link; negative: Link };
  sampling: Sampling;
  seed: number;
  width: number;
  height: number;
  hiRes: HiResPlan | null;
  /** The upscale model for a `model` hi-res pass. */
  upscaleModel: string | null;
}

/**
 * An empty latent sampled into a picture, with the hi-res pass when planned (API.md / CUSTOM-NODES
 * txt2img chain): upscale model, resize, re-encode and sample at 0.30; or a latent upscale sampled
 * at 0.40. Answers the decoded image and the samplers in run order.
 */
export function sampleImage(g: GraphBuilder, a: SampleImageArgs): { image: Link; samplers: SamplerStep[] } {
  const { chain, conditioning, sampling } = a;
  const latent = out(g.add('EmptyLatentImage', { width: a.width, height: a.height, batch_size: 1 }));
  const base = { model: chain.model, positive: conditioning.positive, negative: conditioning.negative, cfg: sampling.cfg, sampler: sampling.sampler, scheduler: sampling.scheduler };
  const first = ksampler(g, { ...base, latent, seed: a.seed, steps: sampling.steps, denoise: 1 });
  const hr = a.hiRes;
  if (!hr) return { image: decodeTiled(g, out(first.node), chain.vae), samplers: [first] };

  let secondLatent: Link;
  if (hr.mode === 'model' && a.upscaleModel) {
    const decoded = decodeTiled(g, out(first.node), chain.vae);
    const loader = g.add('UpscaleModelLoader', { model_name: a.upscaleModel });
    const upscaled = out(g.add('ImageUpscaleWithModel', { upscale_model: out(loader), image: decoded }));
    const resized = out(g.add('ImageScale', { image: upscaled, upscale_method: 'lanczos', width: hr.width, height: hr.height, crop: 'disabled' }));
    secondLatent = encodeTiled(g, resized, chain.vae);
  } else {
    secondLatent = out(g.add('LatentUpscaleBy', { samples: out(first.node), upscale_method: 'nearest-exact', scale_by: hr.scale }));
  }
  // a different seed for the second pass keeps it from re-drawing the same noise
  const second = ksampler(g, { ...base, latent: secondLatent, seed: a.seed + 1, steps: hr.steps, denoise: hr.denoise });
  return { image: decodeTiled(g, out(second.node), chain.vae), samplers: [first, second] };
}

export const saveImage = (g: GraphBuilder, images: Link, prefix: string): string => g.add('SaveImage', { images, filename_prefix: prefix });

export const loadImage = (g: GraphBuilder, name: string): { image: Link; mask: Link } => {
  const id = g.add('LoadImage', { image: name });
  return { image: out(id, 0), mask: out(id, 1) };
};

/** The largest size within `maxSide` per side with the picture's shape, never larger than it is, snapped down to `step`. */
export function fitWithin(width: number, height: number, maxSide: number, step = 8, scale = 1): { width: number; height: number } {
  const factor = Math.min(scale, maxSide / Math.max(width, height));
  const snap = (px: number): number => Math.max(step, Math.floor((px * factor) / step) * step);
  return { width: snap(width), height: snap(height) };
}
