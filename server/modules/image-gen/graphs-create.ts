// Graphs of the pipelines that make something new: txt2img, face_id (a picture with a member's
// face, IPAdapter FaceID), video (a picture's chain animated by an AnimateDiff motion module) and i2v (a
// picture animated with Stable Video Diffusion). Node chains follow reference/comfyui/CUSTOM-NODES.md.
import { checkpointWithLoras, clamp, decodeTiled, encodePrompts, fitWithin, GraphBuilder, ksampler, loadImage, out, sampleImage, saveImage, type LoraUse } from './graph-builder.js';
import { clampSide, hiResFor, samplingFor, type HiResPlan } from './presets.js';
import type { BuiltGraph, SourceImage } from './pipelines.js';

interface PromptPair {
  positive: string;
  negative: string;
}

export interface Txt2ImgRequest extends PromptPair {
  pipeline: 'txt2img';
  checkpoint: string;
  seed: number;
  /** Already chosen by sizeFor; clamped and snapped again here. */
  width: number;
  height: number;
  steps?: number | null;
  guidance?: number | null;
  fastMode?: boolean;
  loras?: readonly LoraUse[];
  /** An installed upscale model for the hi-res pass; null for the latent upscale. */
  upscaleModel?: string | null;
  /** false turns the hi-res pass off (a preview-sized job); it runs by the rules otherwise. */
  hiRes?: boolean;
  filenamePrefix: string;
}

export interface FaceIdRequest extends Omit<Txt2ImgRequest, 'pipeline'> {
  pipeline: 'face_id';
  /** The stored reference face, uploaded into the engine's input folder. */
  referenceFace: string;
  /** How strongly the face is kept, 0 to 1.5 (default 0.85). */
  faceStrength?: number;
  /** Where insightface runs: CUDA on NVIDIA, CoreML on a Mac, CPU elsewhere. */
  provider?: 'CPU' | 'CUDA' | 'CoreML' | 'ROCM' | 'DirectML';
}

export interface VideoRequest extends PromptPair {
  pipeline: 'video';
  /** The household's picture checkpoint (SD1.5 or SDXL), animated by the motion module. */
  checkpoint: string;
  /** An AnimateDiff motion module from the engine's models/animatediff_models (ADE's loader list). */
  motionModule: string;
  seed: number;
  /** Already chosen by sizeFor; fitted within the motion module's size here. */
  width: number;
  height: number;
  /** Frames at VIDEO_FPS: 8 to 32 (default 16, two seconds). */
  frames?: number;
  steps?: number | null;
  guidance?: number | null;
  fastMode?: boolean;
  loras?: readonly LoraUse[];
  filenamePrefix: string;
}

export interface I2vRequest {
  pipeline: 'i2v';
  /** An SVD checkpoint (svd.safetensors: 14 frames; svd_xt: 25). */
  checkpoint: string;
  source: SourceImage;
  seed: number;
  frames?: number;
  /** How much moves, 1 to 255 (the model's motion bucket; default 127). */
  motion?: number;
  fastMode?: boolean;
  filenamePrefix: string;
}

function hiResPlanFor(r: Txt2ImgRequest | FaceIdRequest, sampling: ReturnType<typeof samplingFor>, width: number, height: number): HiResPlan | null {
  if (r.hiRes === false) return null;
  return hiResFor({ sampling, width, height, upscaleModel: r.upscaleModel ?? null }).plan;
}

/** What every still picture starts with: its sampler settings, its clamped size, the checkpoint and LoRAs. */
function startStill(g: GraphBuilder, r: Omit<Txt2ImgRequest, 'pipeline'>) {
  const sampling = samplingFor({ checkpoint: r.checkpoint, steps: r.steps, guidance: r.guidance, fastMode: r.fastMode });
  return { sampling, width: clampSide(r.width), height: clampSide(r.height), chain: checkpointWithLoras(g, r.checkpoint, r.loras) };
}

export function buildTxt2Img(r: Txt2ImgRequest): BuiltGraph {
  const g = new GraphBuilder();
  const { sampling, width, height, chain } = startStill(g, r);
  const conditioning = encodePrompts(g, chain.clip, r.positive, r.negative);
  const hiRes = hiResPlanFor(r, sampling, width, height);
  const { image, samplers } = sampleImage(g, { chain, conditioning, sampling, seed: r.seed, width, height, hiRes, upscaleModel: r.upscaleModel ?? null });
  const save = saveImage(g, image, r.filenamePrefix);
  return { pipeline: 'txt2img', graph: g.graph, outputNode: save, output: 'png', samplers, width: hiRes?.width ?? width, height: hiRes?.height ?? height };
}

export const FACE_STRENGTH_DEFAULT = 0.85;

export function buildFaceId(r: FaceIdRequest): BuiltGraph {
  const g = new GraphBuilder();
  const { sampling, width, height, chain } = startStill(g, r);
  // FACEID PLUS V2 works on SDXL and SD1.5 alike; its paired LoRA is loaded by the unified loader
  const loader = g.add('IPAdapterUnifiedLoaderFaceID', { model: chain.model, preset: 'FACEID PLUS V2', lora_strength: 0.6, provider: r.provider ?? 'CPU' });
  const face = loadImage(g, r.referenceFace);
  const strength = clamp(r.faceStrength ?? FACE_STRENGTH_DEFAULT, 0, 1.5);
  const faceId = g.add('IPAdapterFaceID', {
    model: out(loader, 0),
    ipadapter: out(loader, 1),
    image: face.image,
    weight: strength,
    weight_faceidv2: strength,
    weight_type: 'linear',
    combine_embeds: 'concat',
    start_at: 0,
    end_at: 1,
    embeds_scaling: 'V only',
  });
  const conditioning = encodePrompts(g, chain.clip, r.positive, r.negative);
  const hiRes = hiResPlanFor(r, sampling, width, height);
  const { image, samplers } = sampleImage(g, {
    chain: { ...chain, model: out(faceId, 0) },
    conditioning,
    sampling,
    seed: r.seed,
    width,
    height,
    hiRes,
    upscaleModel: r.upscaleModel ?? null,
  });
  const save = saveImage(g, image, r.filenamePrefix);
  return { pipeline: 'face_id', graph: g.graph, outputNode: save, output: 'png', samplers, width: hiRes?.width ?? width, height: hiRes?.height ?? height };
}

export const VIDEO_FPS = 8;
export const VIDEO_FRAMES_MIN = 8;
export const VIDEO_FRAMES_DEFAULT = 16;
export const VIDEO_FRAMES_MAX = 32;
/** Motion modules see 16 frames at a time; a longer clip slides that window with some overlap. */
const MOTION_CONTEXT = { context_length: 16, context_overlap: 4 } as const;
/** AnimateDiff's motion modules were trained small: 512 px for SD1.5, 768 for the SDXL beta. */
const videoMaxSide = (motionModule: string): number => (/xl/i.test(motionModule) ? 768 : 512);

/**
 * Text to video with AnimateDiff-Evolved (CUSTOM-NODES.md): the picture chain (checkpoint, the
 * member's LoRAs, both prompts) with the motion module injected into the model, a batch of
 * `frames` latents sampled together, decoded tiled and saved as one animated WebP.
 */
export function buildVideo(r: VideoRequest): BuiltGraph {
  const g = new GraphBuilder();
  const sampling = samplingFor({ checkpoint: r.checkpoint, steps: r.steps, guidance: r.guidance, fastMode: r.fastMode });
  const fitted = fitWithin(clampSide(r.width), clampSide(r.height), videoMaxSide(r.motionModule));
  const width = clampSide(fitted.width);
  const height = clampSide(fitted.height);
  const frames = clamp(Math.round(r.frames ?? VIDEO_FRAMES_DEFAULT), VIDEO_FRAMES_MIN, VIDEO_FRAMES_MAX);
  const chain = checkpointWithLoras(g, r.checkpoint, r.loras);
  const context = out(g.add('ADE_StandardStaticContextOptions', { ...MOTION_CONTEXT }));
  const model = out(g.add('ADE_AnimateDiffLoaderGen1', { model: chain.model, model_name: r.motionModule, beta_schedule: 'autoselect', context_options: context }));
  const conditioning = encodePrompts(g, chain.clip, r.positive, r.negative);
  const latent = out(g.add('EmptyLatentImage', { width, height, batch_size: frames }));
  const sampler = ksampler(g, { model, ...conditioning, latent, seed: r.seed, steps: sampling.steps, cfg: sampling.cfg, sampler: sampling.sampler, scheduler: sampling.scheduler, denoise: 1 });
  const images = decodeTiled(g, out(sampler.node), chain.vae);
  const save = g.add('SaveAnimatedWEBP', { images, filename_prefix: r.filenamePrefix, fps: VIDEO_FPS, lossless: false, quality: 80, method: 'default' });
  return { pipeline: 'video', graph: g.graph, outputNode: save, output: 'webp', samplers: [sampler], width, height, frames };
}

export const I2V_FPS = 6;
/** SVD's own settings: euler with karras, cfg 2.5 easing to 1 over the frames. */
const SVD = { steps: 20, fastSteps: 10, cfg: 2.5, minCfg: 1, sampler: 'euler', scheduler: 'karras' } as const;
/** SVD was trained at 1024×576; a portrait or square source keeps its shape. */
const SVD_SIZES = { landscape: { width: 1024, height: 576 }, portrait: { width: 576, height: 1024 }, square: { width: 768, height: 768 } } as const;

export function buildI2v(r: I2vRequest): BuiltGraph {
  const g = new GraphBuilder();
  const ratio = r.source.width / Math.max(1, r.source.height);
  const size = SVD_SIZES[ratio > 1.15 ? 'landscape' : ratio < 0.87 ? 'portrait' : 'square'];
  const modelFrames = /xt/i.test(r.checkpoint) ? 25 : 14;
  const frames = clamp(Math.round(r.frames ?? modelFrames), 2, modelFrames);
  const ckpt = g.add('ImageOnlyCheckpointLoader', { ckpt_name: r.checkpoint });
  const init = loadImage(g, r.source.name);
  const cond = g.add('SVD_img2vid_Conditioning', {
    clip_vision: out(ckpt, 1),
    init_image: init.image,
    vae: out(ckpt, 2),
    width: size.width,
    height: size.height,
    video_frames: frames,
    motion_bucket_id: clamp(Math.round(r.motion ?? 127), 1, 255),
    fps: I2V_FPS,
    augmentation_level: 0,
  });
  const model = out(g.add('VideoLinearCFGGuidance', { model: out(ckpt, 0), min_cfg: SVD.minCfg }));
  const steps = r.fastMode ? SVD.fastSteps : SVD.steps;
  const sampler = ksampler(g, { model, positive: out(cond, 0), negative: out(cond, 1), latent: out(cond, 2), seed: r.seed, steps, cfg: SVD.cfg, sampler: SVD.sampler, scheduler: SVD.scheduler, denoise: 1 });
  const images = decodeTiled(g, out(sampler.node), out(ckpt, 2));
  const save = g.add('SaveAnimatedWEBP', { images, filename_prefix: r.filenamePrefix, fps: I2V_FPS, lossless: false, quality: 80, method: 'default' });
  return { pipeline: 'i2v', graph: g.graph, outputNode: save, output: 'webp', samplers: [sampler], width: size.width, height: size.height, frames };
}
