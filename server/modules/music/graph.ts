// The music recipe on the image engine (ComfyUI's Stable Audio Open pipeline): the checkpoint and
// its T5-base text encoder (CLIPLoader, type stable_audio) → CLIPTextEncode for the prompt and its
// negative → EmptyLatentAudio of the piece's length → KSampler → VAEDecodeAudio → SaveAudio (a
// FLAC file). Which model files this engine has, what it lacks (as lines an admin can act on), and
// the graph checked against the engine's own node list before it is sent. Pure: no I/O.
import type { ObjectInfo } from '../../adapters/image-engine/object-info.js';
import type { ApiGraph } from '../../adapters/image-engine/protocol.js';
import { validateGraph } from '../../adapters/image-engine/validate-graph.js';
import { AUDIO_CHECKPOINT } from '../image-gen/public.js';

/** The text encoder Stable Audio Open was trained with. */
const T5_BASE = /t5[-_]?base/i;
/** The nodes the recipe uses; SaveAudio's node is the output. */
export const MUSIC_NODES = ['CheckpointLoaderSimple', 'CLIPLoader', 'CLIPTextEncode', 'EmptyLatentAudio', 'KSampler', 'VAEDecodeAudio', 'SaveAudio'] as const;
export const SAMPLER_NODE = '6';
export const OUTPUT_NODE = '8';
/** ComfyUI's own Stable Audio example: 50 steps at cfg 4.98 with dpmpp_3m_sde_gpu and the exponential schedule. */
export const MUSIC_STEPS = 50;
const CFG = 4.98;

const enumOf = (info: ObjectInfo, classType: string, input: string): string[] =>
  (info.get(classType)?.inputs.find((i) => i.name === input)?.enumValues ?? []).filter((v): v is string => typeof v === 'string');

export interface MusicModels {
  checkpoint: string;
  encoder: string;
}

/** The engine's Stable Audio checkpoint and T5-base encoder, or what is missing (lines an admin reads). */
export function musicModels(info: ObjectInfo): { ok: true; models: MusicModels } | { ok: false; missing: string[] } {
  const missing: string[] = [];
  const nodes = MUSIC_NODES.filter((c) => !info.has(c));
  if (nodes.length > 0) missing.push(`A newer image engine: this one lacks the audio nodes ${nodes.join(', ')} (ComfyUI 0.3.x with comfy_extras/nodes_audio).`);
  else if (!enumOf(info, 'CLIPLoader', 'type').includes('stable_audio')) missing.push('A newer image engine: its CLIPLoader cannot load a stable_audio text encoder.');
  const checkpoint = enumOf(info, 'CheckpointLoaderSimple', 'ckpt_name').find((c) => AUDIO_CHECKPOINT.test(c));
  const encoder = enumOf(info, 'CLIPLoader', 'clip_name').find((c) => T5_BASE.test(c));
  if (!checkpoint) missing.push("A Stable Audio Open checkpoint (for example stable-audio-open-1.0.safetensors) in the image engine's models/checkpoints folder.");
  if (!encoder) missing.push("The T5-base text encoder (t5_base.safetensors) in the image engine's models/text_encoders folder.");
  if (missing.length > 0 || !checkpoint || !encoder) return { ok: false, missing };
  return { ok: true, models: { checkpoint, encoder } };
}

export interface MusicRequest extends MusicModels {
  positive: string;
  negative: string;
  seconds: number;
  seed: number;
  filenamePrefix: string;
}

export function buildMusicGraph(r: MusicRequest): ApiGraph {
  return {
    '1': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: r.checkpoint } },
    '2': { class_type: 'CLIPLoader', inputs: { clip_name: r.encoder, type: 'stable_audio' } },
    '3': { class_type: 'CLIPTextEncode', inputs: { text: r.positive, clip: ['2', 0] } },
    '4': { class_type: 'CLIPTextEncode', inputs: { text: r.negative, clip: ['2', 0] } },
    '5': { class_type: 'EmptyLatentAudio', inputs: { seconds: r.seconds, batch_size: 1 } },
    [SAMPLER_NODE]: {
      class_type: 'KSampler',
      inputs: { model: ['1', 0], seed: r.seed, steps: MUSIC_STEPS, cfg: CFG, sampler_name: 'dpmpp_3m_sde_gpu', scheduler: 'exponential', positive: ['3', 0], negative: ['4', 0], latent_image: ['5', 0], denoise: 1 },
    },
    '7': { class_type: 'VAEDecodeAudio', inputs: { samples: [SAMPLER_NODE, 0], vae: ['1', 2] } },
    [OUTPUT_NODE]: { class_type: 'SaveAudio', inputs: { audio: ['7', 0], filename_prefix: r.filenamePrefix } },
  };
}

/** The engine's own check of the graph (strict: what Hearth sends must be exactly right); a sentence when it fails. */
export function graphProblem(graph: ApiGraph, info: ObjectInfo): string | null {
  const v = validateGraph(graph as Record<string, unknown>, info, { strict: true });
  if (v.ok && Object.keys(v.node_errors).length === 0) return null;
  const reasons = Object.values(v.node_errors).flatMap((e) => e.errors.map((x) => `${e.class_type}: ${x.details || x.message}`));
  return reasons[0] ?? (v.ok ? 'a node was refused' : v.error.message);
}

/** What a file the engine wrote really is, from its first bytes (SaveAudio writes FLAC). */
export function sniffMusic(head: Buffer): { contentType: string; ext: string } | null {
  if (head.length >= 4 && head.toString('ascii', 0, 4) === 'fLaC') return { contentType: 'audio/flac', ext: 'flac' };
  if (head.length >= 12 && head.toString('ascii', 0, 4) === 'RIFF' && head.toString('ascii', 8, 12) === 'WAVE') return { contentType: 'audio/wav', ext: 'wav' };
  if (head.length >= 4 && head.toString('ascii', 0, 4) === 'OggS') return { contentType: 'audio/ogg', ext: 'ogg' };
  return null;
}
