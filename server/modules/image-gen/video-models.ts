// The model files the two video pipelines need, chosen from the engine's own lists (GET
// /object_info enums, the files on its disk) the way the picture checkpoint is: video takes an
// AnimateDiff motion module from AnimateDiff-Evolved's loader list (one made for the checkpoint's
// family first: SDXL or SD1.5), i2v a Stable Video Diffusion checkpoint from
// ImageOnlyCheckpointLoader's list (the reference's names first: svd_xt, then svd). A missing one is
// a sentence saying what an admin adds, and where. Pure.
import { UnprocessableError } from '../../errors.js';
import type { ObjectInfo } from '../../adapters/image-engine/object-info.js';

/** The values of an engine node's enum input (installed model files), or []. */
export function enumOf(info: ObjectInfo | null, classType: string, input: string): string[] {
  const values = info?.get(classType)?.inputs.find((i) => i.name === input)?.enumValues ?? [];
  return values.filter((v): v is string => typeof v === 'string');
}

const base = (file: string): string => (file.split(/[\\/]/).pop() ?? file).toLowerCase();

/** The motion modules AnimateDiff-Evolved documents, per checkpoint family, best first. */
export const MOTION_MODULES = { sdxl: ['mm_sdxl_v10_beta.ckpt'], sd15: ['v3_sd15_mm.ckpt', 'mm_sd_v15_v2.ckpt', 'mm_sd_v15.ckpt'] } as const;
/** SVD checkpoints, best first (svd_xt makes 25 frames, svd 14). */
export const SVD_CHECKPOINTS = ['svd_xt_1_1.safetensors', 'svd_xt.safetensors', 'svd.safetensors'] as const;

export const MOTION_MODULE_MISSING =
  'Making videos needs an AnimateDiff motion module (for example v3_sd15_mm.ckpt, or mm_sdxl_v10_beta.ckpt for an SDXL picture model) in the image engine\'s models/animatediff_models folder. An admin can add one; no restart is needed.';
export const SVD_MISSING =
  'Bringing a picture to life needs a Stable Video Diffusion model (svd_xt.safetensors or svd.safetensors) in the image engine\'s models/checkpoints folder. An admin can add one; no restart is needed.';

const isXl = (file: string): boolean => /xl/i.test(base(file));

/** The motion module for a checkpoint: the family's documented names, then any of its family, then any. */
export function motionModuleFor(info: ObjectInfo | null, checkpoint: string | null): string | null {
  const offered = enumOf(info, 'ADE_AnimateDiffLoaderGen1', 'model_name');
  if (offered.length === 0) return null;
  const xl = checkpoint !== null && isXl(checkpoint);
  const documented: readonly string[] = xl ? MOTION_MODULES.sdxl : MOTION_MODULES.sd15;
  return documented.map((d) => offered.find((o) => base(o) === d)).find(Boolean) ?? offered.find((o) => isXl(o) === xl) ?? offered[0]!;
}

/** An SVD checkpoint among the engine's image-only checkpoints (the documented names first), or null. */
export function svdCheckpoint(info: ObjectInfo | null): string | null {
  const offered = enumOf(info, 'ImageOnlyCheckpointLoader', 'ckpt_name');
  return SVD_CHECKPOINTS.map((d) => offered.find((o) => base(o) === d)).find(Boolean) ?? offered.find((o) => /(^|[^a-z])svd/i.test(base(o))) ?? null;
}

/** What a video pipeline misses besides its nodes: the sentence and the file an admin adds; null when nothing. */
export function missingVideoModel(pipeline: 'video' | 'i2v', info: ObjectInfo, checkpoint: string | null): { reason: string; missing: string[] } | null {
  if (pipeline === 'video') return motionModuleFor(info, checkpoint) ? null : { reason: MOTION_MODULE_MISSING, missing: ['models/animatediff_models: an AnimateDiff motion module (v3_sd15_mm.ckpt or mm_sdxl_v10_beta.ckpt)'] };
  return svdCheckpoint(info) ? null : { reason: SVD_MISSING, missing: ['models/checkpoints: svd_xt.safetensors (Stable Video Diffusion)'] };
}

/** The same as a 422 `<pipeline>_not_installed`. */
export function videoModelError(pipeline: 'video' | 'i2v', reason: string, missing: string[]): UnprocessableError {
  return new UnprocessableError(`${pipeline}_not_installed`, reason, { pipeline, missingModels: missing });
}
