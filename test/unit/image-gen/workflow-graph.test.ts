import { describe, expect, it } from 'vitest';
import { validateGraph, type GraphValidation } from '../../../server/adapters/image-engine/validate-graph.js';
import { REMBG_MODELS } from '../../../server/modules/image-gen/graphs-edit.js';
import {
  buildGraph,
  EDIT_OPS,
  LOCAL_PIPELINES,
  missingNodesFor,
  pipelineNotInstalledError,
  PIPELINES,
  requiredNodes,
  type BuiltGraph,
  type Pipeline,
  type PipelineRequest,
} from '../../../server/modules/image-gen/workflow-graph.js';
import { coreObjectInfo, fullObjectInfo, objectInfoAnswer } from '../../fixtures/comfyui/index.js';
import { readObjectInfo } from '../../../server/adapters/image-engine/object-info.js';

const full = fullObjectInfo();
const core = coreObjectInfo();

// File names the reference's placeholder lists hold (API.md §0), so the engine's own check passes too.
const CKPT = 'sdxl_base.safetensors';
const LIGHTNING = 'juggernautXL_lightning.safetensors';
const SVD_XT = 'svd_xt.safetensors';
const LORAS = [
  { file: 'detail_tweaker_xl.safetensors', weight: 0.7 },
  { file: 'watercolor_style_xl.safetensors', weight: 1.1 },
];
const UPSCALER = '4x-UltraSharp.pth';
const PHOTO = { name: 'example.png', width: 1600, height: 1200 };
const PREFIX = 'hearth/job';
const prompts = { positive: 'a red fox in the snow', negative: 'blurry, lowres' };
/** Names of distilled checkpoints outside the placeholder list: checked in strict mode only. */
const OTHER_PRESET_CKPTS = ['dreamshaperXL_lcm.safetensors', 'Hyper-SDXL-8steps.safetensors', 'sd_xl_turbo_1.0.safetensors'];

type Case = { name: string; req: PipelineRequest; placeholderFiles: boolean };
const cases: Case[] = [];
const add = (name: string, req: PipelineRequest, placeholderFiles = true): void => void cases.push({ name, req, placeholderFiles });

for (const [checkpoint, placeholder] of [[CKPT, true], [LIGHTNING, true], ...OTHER_PRESET_CKPTS.map((c) => [c, false] as const)] as const) {
  for (const fastMode of [false, true]) {
    for (const upscaleModel of [UPSCALER, null]) {
      for (const [width, height] of [[1024, 1024], [832, 1216], [1216, 832], [2048, 1536], [100, 5000]] as const) {
        for (const loras of [[], LORAS]) {
          const base = { checkpoint, seed: 7, width, height, fastMode, upscaleModel, loras, filenamePrefix: PREFIX, ...prompts };
          add(`txt2img ${checkpoint} fast=${fastMode} up=${upscaleModel} ${width}x${height} loras=${loras.length}`, { pipeline: 'txt2img', ...base }, placeholder);
          add(`face_id ${checkpoint} fast=${fastMode} up=${upscaleModel} ${width}x${height} loras=${loras.length}`, { pipeline: 'face_id', referenceFace: 'reference_face.png', ...base }, placeholder);
        }
      }
    }
  }
  add(`face_inpaint ${checkpoint}`, { pipeline: 'face_inpaint', checkpoint, source: PHOTO, seed: 3, strength: 0.9, filenamePrefix: PREFIX, ...prompts }, placeholder);
  add(`enhance ${checkpoint}`, { pipeline: 'enhance', checkpoint, source: PHOTO, seed: 3, filenamePrefix: PREFIX, ...prompts }, placeholder);
}
add('txt2img, no hi-res asked', { pipeline: 'txt2img', checkpoint: CKPT, seed: 1, width: 512, height: 512, hiRes: false, steps: 99, guidance: 99, filenamePrefix: PREFIX, ...prompts });
add('face_id, strong face on CUDA', { pipeline: 'face_id', referenceFace: 'reference_face.png', faceStrength: 9, provider: 'CUDA', checkpoint: CKPT, seed: 1, width: 1024, height: 1024, filenamePrefix: PREFIX, ...prompts });
const MOTION = { sdxl: 'mm_sdxl_v10_beta.ckpt', sd15: 'v3_sd15_mm.ckpt' };
for (const frames of [undefined, 1, 24, 200]) {
  for (const fastMode of [false, true]) {
    for (const [width, height] of [[1024, 1024], [832, 1216], [5000, 10]] as const) {
      for (const [checkpoint, motionModule] of [[CKPT, MOTION.sdxl], [LIGHTNING, MOTION.sdxl], ['dreamshaper_8.safetensors', MOTION.sd15]] as const) {
        const loras = fastMode ? LORAS : [];
        add(`video ${checkpoint} ${motionModule} frames=${frames} fast=${fastMode} ${width}x${height}`, { pipeline: 'video', checkpoint, motionModule, seed: 5, width, height, frames, fastMode, loras, filenamePrefix: PREFIX, ...prompts }, checkpoint !== 'dreamshaper_8.safetensors');
      }
    }
  }
}
for (const checkpoint of [SVD_XT, 'svd.safetensors']) {
  for (const source of [PHOTO, { ...PHOTO, width: 600, height: 900 }, { ...PHOTO, width: 700, height: 700 }]) {
    for (const motion of [undefined, 0, 300]) {
      add(`i2v ${checkpoint} ${source.width}x${source.height} motion=${motion}`, { pipeline: 'i2v', checkpoint, source, seed: 2, motion, frames: 99, fastMode: motion === 0, filenamePrefix: PREFIX }, checkpoint === SVD_XT);
    }
  }
}
for (const model of [undefined, ...REMBG_MODELS]) {
  add(`bg_remove ${model}`, { pipeline: 'bg_remove', source: PHOTO, model, filenamePrefix: PREFIX });
}
for (const strength of [undefined, 'light', 'medium', 'strong'] as const) add(`bg_blur ${strength}`, { pipeline: 'bg_blur', source: PHOTO, strength, filenamePrefix: PREFIX });
for (const factor of [undefined, 2, 4] as const) {
  for (const source of [PHOTO, { ...PHOTO, width: 3000, height: 4000 }]) add(`upscale ${factor} ${source.width}`, { pipeline: 'upscale', source, upscaleModel: UPSCALER, factor, filenamePrefix: PREFIX });
}
add('enhance a big photo in fast mode', { pipeline: 'enhance', checkpoint: CKPT, source: { ...PHOTO, width: 6000, height: 4000 }, seed: 1, fastMode: true, filenamePrefix: PREFIX, ...prompts });
for (const faceRestoreModel of ['codeformer-v0.1.0.pth', 'GFPGANv1.4.pth']) {
  for (const fidelity of [undefined, 0, 2]) add(`face_restore ${faceRestoreModel} ${fidelity}`, { pipeline: 'face_restore', source: PHOTO, faceRestoreModel, fidelity, filenamePrefix: PREFIX });
  for (const checkpoint of [CKPT, null]) {
    add(`photo_restore ${faceRestoreModel} ckpt=${checkpoint}`, { pipeline: 'photo_restore', source: { ...PHOTO, width: 640, height: 480 }, upscaleModel: 'RealESRGAN_x4plus.pth', faceRestoreModel, checkpoint, seed: 4, filenamePrefix: PREFIX });
  }
}

const nodesOf = (b: BuiltGraph, classType: string) => Object.entries(b.graph).filter(([, n]) => n.class_type === classType);

function accepted(r: GraphValidation): void {
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r, null, 1)}`);
  expect(r.node_errors).toEqual({});
}

describe('every pipeline graph validates against the engine`s node schemas', () => {
  it('covers every engine pipeline', () => {
    const built = new Set(cases.map((c) => c.req.pipeline));
    expect([...built].sort()).toEqual(PIPELINES.filter((p) => !(LOCAL_PIPELINES as readonly Pipeline[]).includes(p)).sort());
  });

  it.each(cases)('$name', ({ req, placeholderFiles }) => {
    const b = buildGraph(req);
    // strict: no unused node, no undeclared input, exact JSON types, V3 enums, no negative index
    accepted(validateGraph(b.graph, full, { strict: true }));
    if (placeholderFiles) {
      // and as both engine dialects would answer POST /prompt
      accepted(validateGraph(b.graph, full));
      accepted(validateGraph(b.graph, full, { dialect: 'newer' }));
    }
    // the one output is the save node, and the declared pack list covers every class used
    expect(b.graph[b.outputNode]?.class_type).toBe(b.output === 'webp' ? 'SaveAnimatedWEBP' : 'SaveImage');
    const declared = new Set(requiredNodes(b.pipeline).map((n) => n.classType));
    for (const node of Object.values(b.graph)) expect(declared, `${node.class_type} in requiredNodes(${b.pipeline})`).toContain(node.class_type);
    // decoding is always tiled
    expect(nodesOf(b, 'VAEDecode')).toEqual([]);
    // the step bar follows exactly the samplers of the graph
    const samplers = Object.entries(b.graph).filter(([, n]) => n.class_type === 'KSampler' || n.class_type === 'FaceDetailer');
    expect(b.samplers.map((s) => s.node).sort()).toEqual(samplers.map(([id]) => id).sort());
    for (const s of b.samplers) expect(b.graph[s.node]?.inputs.steps).toBe(s.steps);
    // every seed stays within what JSON numbers hold exactly
    for (const [, n] of samplers) expect(Number.isSafeInteger(n.inputs.seed)).toBe(true);
    // the result's size is within the limits
    expect(Math.max(b.width, b.height)).toBeLessThanOrEqual(b.pipeline === 'upscale' ? 4096 : 2048);
  });
});

describe('graph rules', () => {
  const txt = (extra: Partial<Extract<PipelineRequest, { pipeline: 'txt2img' }>> = {}) =>
    buildGraph({ pipeline: 'txt2img', checkpoint: CKPT, seed: 7, width: 1024, height: 1024, filenamePrefix: PREFIX, ...prompts, ...extra });

  it('samples a standard checkpoint with its preset and a 2x hi-res pass through the upscale model at 0.30', () => {
    const b = txt({ upscaleModel: UPSCALER });
    const ks = nodesOf(b, 'KSampler').map(([, n]) => n.inputs);
    expect(ks).toHaveLength(2);
    expect(ks[0]).toMatchObject({ steps: 25, cfg: 4.5, sampler_name: 'dpmpp_2m', scheduler: 'karras', denoise: 1, seed: 7 });
    expect(ks[1]).toMatchObject({ steps: 13, denoise: 0.3, seed: 8 });
    expect(nodesOf(b, 'ImageUpscaleWithModel')).toHaveLength(1);
    expect(nodesOf(b, 'ImageScale')[0]?.[1].inputs).toMatchObject({ width: 2048, height: 2048 });
    expect(nodesOf(b, 'VAEEncodeTiled')).toHaveLength(1);
    expect(nodesOf(b, 'VAEDecodeTiled')).toHaveLength(2);
    expect([b.width, b.height]).toEqual([2048, 2048]);
  });

  it('upscales the latent at 0.40 without an upscale model, and skips the pass in fast mode and on distilled checkpoints', () => {
    const latent = txt({ upscaleModel: null });
    expect(nodesOf(latent, 'LatentUpscaleBy')[0]?.[1].inputs).toMatchObject({ scale_by: 2 });
    expect(nodesOf(latent, 'KSampler')[1]?.[1].inputs.denoise).toBe(0.4);
    const fast = txt({ upscaleModel: UPSCALER, fastMode: true });
    expect(nodesOf(fast, 'KSampler').map(([, n]) => n.inputs.steps)).toEqual([4]);
    const lightning = txt({ checkpoint: LIGHTNING, upscaleModel: UPSCALER });
    expect(nodesOf(lightning, 'KSampler').map(([, n]) => n.inputs)).toEqual([expect.objectContaining({ steps: 6, cfg: 1.5, sampler_name: 'euler', scheduler: 'sgm_uniform' })]);
  });

  it('chains the LoRAs on model and text encoder with their weights', () => {
    const b = txt({ loras: LORAS });
    const loaders = nodesOf(b, 'LoraLoader');
    expect(loaders.map(([, n]) => [n.inputs.lora_name, n.inputs.strength_model, n.inputs.strength_clip])).toEqual([
      ['detail_tweaker_xl.safetensors', 0.7, 0.7],
      ['watercolor_style_xl.safetensors', 1.1, 1.1],
    ]);
    const last = loaders[1]?.[0];
    expect(nodesOf(b, 'KSampler')[0]?.[1].inputs.model).toEqual([last, 0]);
    for (const [, enc] of nodesOf(b, 'CLIPTextEncode')) expect(enc.inputs.clip).toEqual([last, 1]);
  });

  it('clamps what reaches the engine whatever the caller sends', () => {
    const b = txt({ steps: 500, guidance: -4, width: 99999, height: 3, hiRes: false });
    expect(nodesOf(b, 'KSampler')[0]?.[1].inputs).toMatchObject({ steps: 40, cfg: 0 });
    expect(nodesOf(b, 'EmptyLatentImage')[0]?.[1].inputs).toMatchObject({ width: 2048, height: 256 });
  });

  it('enhances at denoise 0.15 and removes a background with no checkpoint', () => {
    const e = buildGraph({ pipeline: 'enhance', checkpoint: CKPT, source: PHOTO, seed: 1, filenamePrefix: PREFIX, ...prompts });
    expect(nodesOf(e, 'KSampler')[0]?.[1].inputs.denoise).toBe(0.15);
    const r = buildGraph({ pipeline: 'bg_remove', source: PHOTO, filenamePrefix: PREFIX });
    expect(Object.values(r.graph).map((n) => n.class_type)).not.toContain('CheckpointLoaderSimple');
    expect(nodesOf(r, 'RemBGSession+')[0]?.[1].inputs.providers).toBe('CPU');
    expect(r.samplers).toEqual([]);
  });

  it('saves video and i2v as animated WebP', () => {
    const v = buildGraph({ pipeline: 'video', checkpoint: CKPT, motionModule: MOTION.sdxl, seed: 1, width: 1216, height: 832, loras: LORAS, filenamePrefix: PREFIX, ...prompts });
    // 16 frames by default, fitted within the SDXL motion module's 768 px, the member's LoRAs under the motion module
    expect(v).toMatchObject({ output: 'webp', frames: 16, width: 768, height: 520 });
    expect(nodesOf(v, 'EmptyLatentImage')[0]?.[1].inputs).toMatchObject({ width: 768, height: 520, batch_size: 16 });
    const [motionId, motion] = nodesOf(v, 'ADE_AnimateDiffLoaderGen1')[0]!;
    expect(motion.inputs.model_name).toBe(MOTION.sdxl);
    expect(v.graph[(motion.inputs.model as [string, number])[0]]?.class_type).toBe('LoraLoader');
    expect(nodesOf(v, 'KSampler')[0]?.[1].inputs.model).toEqual([motionId, 0]);
    // SD1.5 motion modules stay at 512 px; frames are clamped to 8..32
    expect(buildGraph({ pipeline: 'video', checkpoint: 'dreamshaper_8.safetensors', motionModule: MOTION.sd15, seed: 1, width: 1024, height: 1024, frames: 99, filenamePrefix: PREFIX, ...prompts })).toMatchObject({ width: 512, height: 512, frames: 32 });
    expect(buildGraph({ pipeline: 'video', checkpoint: CKPT, motionModule: MOTION.sdxl, seed: 1, width: 512, height: 512, frames: 2, filenamePrefix: PREFIX, ...prompts }).frames).toBe(8);
    const i = buildGraph({ pipeline: 'i2v', checkpoint: SVD_XT, source: PHOTO, seed: 1, filenamePrefix: PREFIX });
    expect(i).toMatchObject({ output: 'webp', frames: 25, width: 1024, height: 576 });
  });
});

describe('custom node packs per pipeline', () => {
  it('names the packs each pipeline needs', () => {
    const packs = (p: Pipeline) => [...new Set(requiredNodes(p).map((n) => n.pack).filter(Boolean))];
    expect(packs('txt2img')).toEqual([]);
    expect(packs('video')).toEqual(['ComfyUI-AnimateDiff-Evolved']);
    expect(packs('i2v')).toEqual([]);
    expect(packs('upscale')).toEqual([]);
    expect(packs('enhance')).toEqual([]);
    expect(packs('face_id')).toEqual(['ComfyUI_IPAdapter_plus']);
    expect(packs('bg_remove')).toEqual(['ComfyUI_essentials']);
    expect(packs('bg_blur')).toEqual(['ComfyUI_essentials']);
    expect(packs('face_inpaint')).toEqual(['ComfyUI-Impact-Pack', 'ComfyUI-Impact-Subpack']);
    expect(packs('face_restore')).toEqual(['facerestore_cf']);
    expect(packs('photo_restore')).toEqual(['facerestore_cf']);
    expect(requiredNodes('auto_color')).toEqual([]);
    expect(requiredNodes('adjust')).toEqual([]);
  });

  it('every declared node exists in the reference schemas', () => {
    for (const p of PIPELINES) expect(missingNodesFor(p, full), p).toBeNull();
  });

  it('a missing pack is a 422 <pipeline>_not_installed naming the add-on; a core pipeline runs on a bare engine', () => {
    for (const p of ['txt2img', 'i2v', 'upscale', 'enhance', 'auto_color', 'adjust'] as const) expect(pipelineNotInstalledError(p, core), p).toBeNull();
    expect(pipelineNotInstalledError('video', core)).toMatchObject({ code: 'video_not_installed', details: { missingPacks: [{ name: 'ComfyUI-AnimateDiff-Evolved', repo: 'Kosinkadink/ComfyUI-AnimateDiff-Evolved' }] } });
    const err = pipelineNotInstalledError('face_id', core);
    expect(err).toMatchObject({ status: 422, code: 'face_id_not_installed', details: { missingNodes: ['IPAdapterUnifiedLoaderFaceID', 'IPAdapterFaceID'], missingPacks: [{ name: 'ComfyUI_IPAdapter_plus', repo: 'cubiq/ComfyUI_IPAdapter_plus' }] } });
    expect(err?.message).toBe('Pictures with a familiar face is not set up on this computer yet: the image engine needs the ComfyUI_IPAdapter_plus add-on. An admin can add it from the Image engine page.');
    // only the Impact Pack installed: face_inpaint still misses the Subpack's detector
    const partial = readObjectInfo(objectInfoAnswer(['ComfyUI-Impact-Pack']));
    expect(pipelineNotInstalledError('face_inpaint', partial)?.details).toMatchObject({ missingNodes: ['UltralyticsDetectorProvider'] });
    expect(pipelineNotInstalledError('bg_blur', core)?.code).toBe('bg_blur_not_installed');
  });

  it('maps every edit op to a pipeline', () => {
    for (const p of Object.values(EDIT_OPS)) expect(PIPELINES).toContain(p);
  });
});
