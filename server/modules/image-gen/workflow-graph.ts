// The 13 pipelines of image generation: which ones the engine runs as a graph (and which custom
// node packs each needs, so a missing pack becomes 422 `<pipeline>_not_installed` before anything
// is submitted), and buildGraph, the one entry to the pure builders in graphs-create.ts and
// graphs-edit.ts. auto_color and adjust run in Hearth instead (local-ops.ts, spec decision).
import { UnprocessableError } from '../../errors.js';
import type { BuiltGraph, Pipeline } from './pipelines.js';
import { buildFaceId, buildI2v, buildTxt2Img, buildVideo, type FaceIdRequest, type I2vRequest, type Txt2ImgRequest, type VideoRequest } from './graphs-create.js';
import {
  buildBgBlur,
  buildBgRemove,
  buildEnhance,
  buildFaceInpaint,
  buildFaceRestore,
  buildPhotoRestore,
  buildUpscale,
  type BgBlurRequest,
  type BgRemoveRequest,
  type EnhanceRequest,
  type FaceInpaintRequest,
  type FaceRestoreRequest,
  type PhotoRestoreRequest,
  type UpscaleRequest,
} from './graphs-edit.js';
import { missingClasses, type ObjectInfo } from '../../adapters/image-engine/object-info.js';

export { LOCAL_PIPELINES, PIPELINES, type BuiltGraph, type EnginePipeline, type LocalPipeline, type Pipeline, type SourceImage } from './pipelines.js';

/** The edit route's `op` field and the pipeline each runs (spec: POST /api/image/edit). */
export const EDIT_OPS = {
  'remove-bg': 'bg_remove',
  'bg-blur': 'bg_blur',
  upscale: 'upscale',
  enhance: 'enhance',
  'auto-color': 'auto_color',
  adjust: 'adjust',
  'face-restore': 'face_restore',
  'photo-restore': 'photo_restore',
} as const satisfies Record<string, Pipeline>;

export type PipelineRequest =
  | Txt2ImgRequest
  | FaceIdRequest
  | VideoRequest
  | I2vRequest
  | BgRemoveRequest
  | BgBlurRequest
  | FaceInpaintRequest
  | UpscaleRequest
  | EnhanceRequest
  | FaceRestoreRequest
  | PhotoRestoreRequest;

/** The engine graph for one job. The request's values are clamped here too, whatever the caller did. */
export function buildGraph(req: PipelineRequest): BuiltGraph {
  switch (req.pipeline) {
    case 'txt2img':
      return buildTxt2Img(req);
    case 'face_id':
      return buildFaceId(req);
    case 'video':
      return buildVideo(req);
    case 'i2v':
      return buildI2v(req);
    case 'bg_remove':
      return buildBgRemove(req);
    case 'bg_blur':
      return buildBgBlur(req);
    case 'face_inpaint':
      return buildFaceInpaint(req);
    case 'upscale':
      return buildUpscale(req);
    case 'enhance':
      return buildEnhance(req);
    case 'face_restore':
      return buildFaceRestore(req);
    case 'photo_restore':
      return buildPhotoRestore(req);
  }
}

/** The custom node packs Hearth uses (reference/comfyui/CUSTOM-NODES.md), by their folder name. */
export const CUSTOM_PACKS = {
  ComfyUI_IPAdapter_plus: { repo: 'cubiq/ComfyUI_IPAdapter_plus', python: ['insightface', 'onnxruntime'] },
  ComfyUI_essentials: { repo: 'cubiq/ComfyUI_essentials', python: ['rembg'] },
  'ComfyUI-Impact-Pack': { repo: 'ltdrdata/ComfyUI-Impact-Pack', python: [] },
  'ComfyUI-Impact-Subpack': { repo: 'ltdrdata/ComfyUI-Impact-Subpack', python: ['ultralytics'] },
  facerestore_cf: { repo: 'mav-rik/facerestore_cf', python: [] },
  'ComfyUI-AnimateDiff-Evolved': { repo: 'Kosinkadink/ComfyUI-AnimateDiff-Evolved', python: [] },
} as const;
export type CustomPack = keyof typeof CUSTOM_PACKS;

export interface RequiredNode {
  classType: string;
  /** null for the engine's own (core) nodes. */
  pack: CustomPack | null;
}

const core = (...classes: string[]): RequiredNode[] => classes.map((classType) => ({ classType, pack: null }));
const fromPack = (pack: CustomPack, ...classes: string[]): RequiredNode[] => classes.map((classType) => ({ classType, pack }));

const IMAGE_CORE = ['CheckpointLoaderSimple', 'LoraLoader', 'CLIPTextEncode', 'EmptyLatentImage', 'KSampler', 'VAEDecodeTiled', 'SaveImage'];
const HIRES_CORE = ['UpscaleModelLoader', 'ImageUpscaleWithModel', 'ImageScale', 'VAEEncodeTiled', 'LatentUpscaleBy'];
const ENHANCE_CORE = ['LoadImage', 'CheckpointLoaderSimple', 'ImageScale', 'VAEEncodeTiled', 'CLIPTextEncode', 'KSampler', 'VAEDecodeTiled', 'SaveImage'];
const REMBG = fromPack('ComfyUI_essentials', 'RemBGSession+', 'ImageRemoveBackground+');
const FACE_RESTORE = fromPack('facerestore_cf', 'FaceRestoreModelLoader', 'FaceRestoreCFWithModel');

const REQUIRED: Readonly<Record<Pipeline, readonly RequiredNode[]>> = {
  txt2img: core(...IMAGE_CORE, ...HIRES_CORE),
  face_id: [...core(...IMAGE_CORE, ...HIRES_CORE, 'LoadImage'), ...fromPack('ComfyUI_IPAdapter_plus', 'IPAdapterUnifiedLoaderFaceID', 'IPAdapterFaceID')],
  video: [
    ...core('CheckpointLoaderSimple', 'LoraLoader', 'CLIPTextEncode', 'EmptyLatentImage', 'KSampler', 'VAEDecodeTiled', 'SaveAnimatedWEBP'),
    ...fromPack('ComfyUI-AnimateDiff-Evolved', 'ADE_AnimateDiffLoaderGen1', 'ADE_StandardStaticContextOptions'),
  ],
  i2v: core('ImageOnlyCheckpointLoader', 'LoadImage', 'SVD_img2vid_Conditioning', 'VideoLinearCFGGuidance', 'KSampler', 'VAEDecodeTiled', 'SaveAnimatedWEBP'),
  bg_remove: [...core('LoadImage', 'InvertMask', 'JoinImageWithAlpha', 'SaveImage'), ...REMBG],
  bg_blur: [...core('LoadImage', 'GrowMask', 'ImageBlur', 'ImageCompositeMasked', 'SaveImage'), ...REMBG],
  face_inpaint: [
    ...core('CheckpointLoaderSimple', 'CLIPTextEncode', 'LoadImage', 'SaveImage'),
    ...fromPack('ComfyUI-Impact-Pack', 'FaceDetailer'),
    ...fromPack('ComfyUI-Impact-Subpack', 'UltralyticsDetectorProvider'),
  ],
  upscale: core('LoadImage', 'UpscaleModelLoader', 'ImageUpscaleWithModel', 'ImageScale', 'SaveImage'),
  enhance: core(...ENHANCE_CORE),
  face_restore: [...core('LoadImage', 'SaveImage'), ...FACE_RESTORE],
  photo_restore: [...core(...ENHANCE_CORE, 'UpscaleModelLoader', 'ImageUpscaleWithModel'), ...FACE_RESTORE],
  auto_color: [],
  adjust: [],
};

/** Every node class a pipeline's graphs may use, with its pack; empty for the local pipelines. */
export function requiredNodes(pipeline: Pipeline): readonly RequiredNode[] {
  return REQUIRED[pipeline];
}

/** What people call each pipeline, for the sentences below. */
const PIPELINE_LABEL: Readonly<Record<Pipeline, string>> = {
  txt2img: 'Creating pictures',
  face_id: 'Pictures with a familiar face',
  video: 'Making videos',
  i2v: 'Bringing a picture to life',
  bg_remove: 'Removing a background',
  bg_blur: 'Blurring a background',
  face_inpaint: 'Touching up faces',
  upscale: 'Making a picture bigger',
  enhance: 'Enhancing a picture',
  face_restore: 'Restoring faces',
  photo_restore: 'Restoring an old photo',
  auto_color: 'Fixing colours',
  adjust: 'Adjusting a picture',
};

export interface MissingPipelineNodes {
  classes: string[];
  packs: CustomPack[];
}

/** The classes (and their packs) this engine lacks for a pipeline; null when it has them all. */
export function missingNodesFor(pipeline: Pipeline, info: ObjectInfo): MissingPipelineNodes | null {
  const nodes = requiredNodes(pipeline);
  const classes = missingClasses(info, nodes.map((n) => n.classType));
  if (classes.length === 0) return null;
  const packs = [...new Set(nodes.filter((n) => classes.includes(n.classType) && n.pack !== null).map((n) => n.pack as CustomPack))];
  return { classes, packs };
}

/**
 * 422 `<pipeline>_not_installed` when the engine lacks a node the pipeline needs (spec: a
 * structured 422 per optional dependency, e.g. face_id_not_installed); null when it can run.
 */
export function pipelineNotInstalledError(pipeline: Pipeline, info: ObjectInfo): UnprocessableError | null {
  const missing = missingNodesFor(pipeline, info);
  if (!missing) return null;
  const what = missing.packs.length > 0 ? `the ${missing.packs.join(' and ')} add-on${missing.packs.length > 1 ? 's' : ''}` : 'a newer version';
  return new UnprocessableError(
    `${pipeline}_not_installed`,
    `${PIPELINE_LABEL[pipeline]} is not set up on this computer yet: the image engine needs ${what}. An admin can add it from the Image engine page.`,
    { pipeline, missingNodes: missing.classes, missingPacks: missing.packs.map((p) => ({ name: p, repo: CUSTOM_PACKS[p].repo })) },
  );
}
