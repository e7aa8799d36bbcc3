// Graphs of the pipelines that change a member's picture: bg_remove and bg_blur (rembg on the CPU,
// ComfyUI_essentials), face_inpaint (Impact Pack's FaceDetailer), upscale (an ESRGAN-type model),
// enhance (a light img2img pass), face_restore (CodeFormer/GFPGAN, facerestore_cf) and
// photo_restore (restoration upscale, face restore, optional enhance). auto_color and adjust are
// not graphs: they run in Hearth (local-ops.ts). Chains follow reference/comfyui/CUSTOM-NODES.md.
import {
  clamp,
  decodeTiled,
  encodePrompts,
  encodeTiled,
  fitWithin,
  GraphBuilder,
  ksampler,
  loadImage,
  out,
  safeSeed,
  saveImage,
  type Link,
  type SamplerStep,
} from './graph-builder.js';
import { ENHANCE_DENOISE, SIDE_MAX_PX, samplingFor } from './presets.js';
import type { BuiltGraph, SourceImage } from './pipelines.js';

/** rembg's models as ComfyUI_essentials names them; isnet-general-use cuts hair and fur best. */
export const REMBG_MODELS = ['isnet-general-use: general purpose', 'u2net: general purpose', 'u2net_human_seg: human segmentation', 'isnet-anime: anime illustrations'] as const;
export type RembgModel = (typeof REMBG_MODELS)[number];

export interface BgRemoveRequest {
  pipeline: 'bg_remove';
  source: SourceImage;
  model?: RembgModel;
  filenamePrefix: string;
}

export interface BgBlurRequest {
  pipeline: 'bg_blur';
  source: SourceImage;
  strength?: 'light' | 'medium' | 'strong';
  model?: RembgModel;
  filenamePrefix: string;
}

export interface FaceInpaintRequest {
  pipeline: 'face_inpaint';
  checkpoint: string;
  source: SourceImage;
  positive: string;
  negative: string;
  seed: number;
  /** How much the faces are redrawn, 0.2 to 0.7 (default 0.4). */
  strength?: number;
  filenamePrefix: string;
}

export interface UpscaleRequest {
  pipeline: 'upscale';
  source: SourceImage;
  upscaleModel: string;
  factor?: 2 | 4;
  filenamePrefix: string;
}

export interface EnhanceRequest {
  pipeline: 'enhance';
  checkpoint: string;
  source: SourceImage;
  positive: string;
  negative: string;
  seed: number;
  fastMode?: boolean;
  filenamePrefix: string;
}

export interface FaceRestoreRequest {
  pipeline: 'face_restore';
  source: SourceImage;
  /** A CodeFormer or GFPGAN model in the engine's facerestore_models folder. */
  faceRestoreModel: string;
  /** CodeFormer's fidelity: 0 looks best, 1 stays closest to the original (default 0.5). */
  fidelity?: number;
  filenamePrefix: string;
}

export interface PhotoRestoreRequest {
  pipeline: 'photo_restore';
  source: SourceImage;
  /** A restoration-type ESRGAN model (scratches, grain, blur). */
  upscaleModel: string;
  faceRestoreModel: string;
  /** With a checkpoint, a light enhance pass finishes the photo; without, it is skipped. */
  checkpoint?: string | null;
  positive?: string;
  negative?: string;
  seed: number;
  filenamePrefix: string;
}

/** Upscaled pictures may reach 4096 px per side (two of generation's 2048). */
export const UPSCALE_MAX_SIDE_PX = 4096;

/** rembg on the CPU (spec: bg_remove uses no checkpoint and no GPU): the subject's mask, 1 = subject. */
function subjectMask(g: GraphBuilder, image: Link, model: RembgModel | undefined): Link {
  const session = g.add('RemBGSession+', { model: model ?? REMBG_MODELS[0], providers: 'CPU' });
  return out(g.add('ImageRemoveBackground+', { rembg_session: out(session), image }), 1);
}

export function buildBgRemove(r: BgRemoveRequest): BuiltGraph {
  const g = new GraphBuilder();
  const src = loadImage(g, r.source.name);
  const mask = subjectMask(g, src.image, r.model);
  // JoinImageWithAlpha takes a LoadImage-style mask (1 = transparent) and inverts it itself
  const alpha = out(g.add('InvertMask', { mask }));
  const cut = out(g.add('JoinImageWithAlpha', { image: src.image, alpha }));
  const save = saveImage(g, cut, r.filenamePrefix);
  return { pipeline: 'bg_remove', graph: g.graph, outputNode: save, output: 'png', samplers: [], width: r.source.width, height: r.source.height };
}

const BLUR = { light: { blur_radius: 8, sigma: 3 }, medium: { blur_radius: 16, sigma: 6 }, strong: { blur_radius: 31, sigma: 10 } } as const;

export function buildBgBlur(r: BgBlurRequest): BuiltGraph {
  const g = new GraphBuilder();
  const src = loadImage(g, r.source.name);
  const mask = subjectMask(g, src.image, r.model);
  // a soft edge so hair does not end in a cut-out line
  const soft = out(g.add('GrowMask', { mask, expand: 2, tapered_corners: true }));
  const blurred = out(g.add('ImageBlur', { image: src.image, ...BLUR[r.strength ?? 'medium'] }));
  const composed = out(g.add('ImageCompositeMasked', { destination: blurred, source: src.image, x: 0, y: 0, resize_source: false, mask: soft }));
  const save = saveImage(g, composed, r.filenamePrefix);
  return { pipeline: 'bg_blur', graph: g.graph, outputNode: save, output: 'png', samplers: [], width: r.source.width, height: r.source.height };
}

/** Impact Subpack's face detector (models/ultralytics/bbox). */
export const FACE_DETECTOR_MODEL = 'bbox/face_yolov8m.pt';

export function buildFaceInpaint(r: FaceInpaintRequest): BuiltGraph {
  const g = new GraphBuilder();
  const sampling = samplingFor({ checkpoint: r.checkpoint });
  const ckpt = g.add('CheckpointLoaderSimple', { ckpt_name: r.checkpoint });
  const conditioning = encodePrompts(g, out(ckpt, 1), r.positive, r.negative);
  const detector = g.add('UltralyticsDetectorProvider', { model_name: FACE_DETECTOR_MODEL });
  const src = loadImage(g, r.source.name);
  const steps = Math.min(sampling.steps, 20);
  const detailer = g.add('FaceDetailer', {
    image: src.image,
    model: out(ckpt, 0),
    clip: out(ckpt, 1),
    vae: out(ckpt, 2),
    guide_size: 512,
    guide_size_for: true,
    max_size: 1024,
    seed: safeSeed(r.seed),
    steps,
    cfg: sampling.cfg,
    sampler_name: sampling.sampler,
    scheduler: sampling.scheduler,
    positive: conditioning.positive,
    negative: conditioning.negative,
    denoise: clamp(r.strength ?? 0.4, 0.2, 0.7),
    feather: 5,
    noise_mask: true,
    force_inpaint: true,
    bbox_threshold: 0.5,
    bbox_dilation: 10,
    bbox_crop_factor: 3,
    sam_detection_hint: 'center-1',
    sam_dilation: 0,
    sam_threshold: 0.93,
    sam_bbox_expansion: 0,
    sam_mask_hint_threshold: 0.7,
    sam_mask_hint_use_negative: 'False',
    drop_size: 10,
    bbox_detector: out(detector, 0),
    wildcard: '',
    cycle: 1,
  });
  const save = saveImage(g, out(detailer, 0), r.filenamePrefix);
  // FaceDetailer reports progress per face; the step bar counts one face's steps
  return { pipeline: 'face_inpaint', graph: g.graph, outputNode: save, output: 'png', samplers: [{ node: detailer, steps }], width: r.source.width, height: r.source.height };
}

/** The upscale model's picture resized to the asked factor (the model's own factor varies: 2× or 4×). */
function upscaled(g: GraphBuilder, image: Link, model: string, target: { width: number; height: number }): Link {
  const loader = g.add('UpscaleModelLoader', { model_name: model });
  const big = out(g.add('ImageUpscaleWithModel', { upscale_model: out(loader), image }));
  return out(g.add('ImageScale', { image: big, upscale_method: 'lanczos', width: target.width, height: target.height, crop: 'disabled' }));
}

export function buildUpscale(r: UpscaleRequest): BuiltGraph {
  const g = new GraphBuilder();
  const src = loadImage(g, r.source.name);
  const target = fitWithin(r.source.width, r.source.height, UPSCALE_MAX_SIDE_PX, 8, r.factor ?? 2);
  const save = saveImage(g, upscaled(g, src.image, r.upscaleModel, target), r.filenamePrefix);
  return { pipeline: 'upscale', graph: g.graph, outputNode: save, output: 'png', samplers: [], ...target };
}

/** A light img2img pass at denoise 0.15 on a picture no larger than 2048 px per side. */
function enhancePass(g: GraphBuilder, image: Link, size: { width: number; height: number }, a: { checkpoint: string; positive: string; negative: string; seed: number; fastMode?: boolean }): { image: Link; sampler: SamplerStep } {
  const sampling = samplingFor({ checkpoint: a.checkpoint, fastMode: a.fastMode });
  const ckpt = g.add('CheckpointLoaderSimple', { ckpt_name: a.checkpoint });
  const vae = out(ckpt, 2);
  const fitted = out(g.add('ImageScale', { image, upscale_method: 'lanczos', width: size.width, height: size.height, crop: 'disabled' }));
  const latent = encodeTiled(g, fitted, vae);
  const conditioning = encodePrompts(g, out(ckpt, 1), a.positive, a.negative);
  const sampler = ksampler(g, { model: out(ckpt, 0), ...conditioning, latent, seed: a.seed, steps: sampling.steps, cfg: sampling.cfg, sampler: sampling.sampler, scheduler: sampling.scheduler, denoise: ENHANCE_DENOISE });
  return { image: decodeTiled(g, out(sampler.node), vae), sampler };
}

export function buildEnhance(r: EnhanceRequest): BuiltGraph {
  const g = new GraphBuilder();
  const src = loadImage(g, r.source.name);
  const size = fitWithin(r.source.width, r.source.height, SIDE_MAX_PX);
  const pass = enhancePass(g, src.image, size, r);
  const save = saveImage(g, pass.image, r.filenamePrefix);
  return { pipeline: 'enhance', graph: g.graph, outputNode: save, output: 'png', samplers: [pass.sampler], ...size };
}

export const FACE_DETECTION_MODEL = 'retinaface_resnet50';

function restoreFaces(g: GraphBuilder, image: Link, model: string, fidelity: number | undefined): Link {
  const loader = g.add('FaceRestoreModelLoader', { model_name: model });
  return out(g.add('FaceRestoreCFWithModel', { facerestore_model: out(loader), image, facedetection: FACE_DETECTION_MODEL, codeformer_fidelity: clamp(fidelity ?? 0.5, 0, 1) }));
}

export function buildFaceRestore(r: FaceRestoreRequest): BuiltGraph {
  const g = new GraphBuilder();
  const src = loadImage(g, r.source.name);
  const save = saveImage(g, restoreFaces(g, src.image, r.faceRestoreModel, r.fidelity), r.filenamePrefix);
  return { pipeline: 'face_restore', graph: g.graph, outputNode: save, output: 'png', samplers: [], width: r.source.width, height: r.source.height };
}

/** Restoration wording for the enhance pass when the caller gives none. */
const RESTORE_PROMPT = { positive: 'a clean, sharp, well-exposed photograph', negative: 'scratches, dust, noise, blur, jpeg artifacts' };

export function buildPhotoRestore(r: PhotoRestoreRequest): BuiltGraph {
  const g = new GraphBuilder();
  const src = loadImage(g, r.source.name);
  // old photos are small: twice the size, within what the enhance pass can take
  const size = fitWithin(r.source.width, r.source.height, SIDE_MAX_PX, 8, 2);
  const faces = restoreFaces(g, upscaled(g, src.image, r.upscaleModel, size), r.faceRestoreModel, 0.7);
  let image = faces;
  const samplers: SamplerStep[] = [];
  if (r.checkpoint) {
    const pass = enhancePass(g, faces, size, { checkpoint: r.checkpoint, positive: r.positive ?? RESTORE_PROMPT.positive, negative: r.negative ?? RESTORE_PROMPT.negative, seed: r.seed });
    image = pass.image;
    samplers.push(pass.sampler);
  }
  const save = saveImage(g, image, r.filenamePrefix);
  return { pipeline: 'photo_restore', graph: g.graph, outputNode: save, output: 'png', samplers, ...size };
}
