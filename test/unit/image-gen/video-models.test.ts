import { describe, expect, it } from 'vitest';
import { readObjectInfo } from '../../../server/adapters/image-engine/object-info.js';
import { missingVideoModel, motionModuleFor, MOTION_MODULE_MISSING, svdCheckpoint, SVD_MISSING } from '../../../server/modules/image-gen/video-models.js';
import { objectInfoAnswer } from '../../fixtures/comfyui/index.js';

/** The fixture's engine with the model lists replaced, as the engine lists the files on its disk. */
function engineWith(files: Record<string, string[]>) {
  const answer = JSON.parse(JSON.stringify(objectInfoAnswer())) as Record<string, { input: { required: Record<string, unknown[]> } }>;
  (answer.ADE_AnimateDiffLoaderGen1!.input.required.model_name as unknown[])[0] = files.motion ?? [];
  (answer.ImageOnlyCheckpointLoader!.input.required.ckpt_name as unknown[])[0] = files.ckpt ?? [];
  return readObjectInfo(answer);
}

describe('the video pipelines` model files, from the engine`s lists', () => {
  it('takes the motion module made for the checkpoint`s family, the documented names first', () => {
    const info = engineWith({ motion: ['AnimateLCM_sd15_t2v.ckpt', 'v3_sd15_mm.ckpt', 'hotshotxl_mm_v1.pth', 'mm_sdxl_v10_beta.ckpt'] });
    expect(motionModuleFor(info, 'sdxl_base.safetensors')).toBe('mm_sdxl_v10_beta.ckpt');
    expect(motionModuleFor(info, 'dreamshaper_8.safetensors')).toBe('v3_sd15_mm.ckpt');
    // no documented name: one of the family, else whatever is there
    expect(motionModuleFor(engineWith({ motion: ['AnimateLCM_sd15_t2v.ckpt', 'hotshotxl_mm_v1.pth'] }), 'juggernautXL_lightning.safetensors')).toBe('hotshotxl_mm_v1.pth');
    expect(motionModuleFor(engineWith({ motion: ['AnimateLCM_sd15_t2v.ckpt'] }), 'sdxl_base.safetensors')).toBe('AnimateLCM_sd15_t2v.ckpt');
    expect(motionModuleFor(engineWith({}), 'sdxl_base.safetensors')).toBeNull();
  });

  it('takes an SVD checkpoint among the image-only checkpoints, never a picture model', () => {
    expect(svdCheckpoint(engineWith({ ckpt: ['sdxl_base.safetensors', 'svd.safetensors', 'video/svd_xt.safetensors'] }))).toBe('video/svd_xt.safetensors');
    expect(svdCheckpoint(engineWith({ ckpt: ['sdxl_base.safetensors', 'stableVideo_svd_img2vid.safetensors'] }))).toBe('stableVideo_svd_img2vid.safetensors');
    expect(svdCheckpoint(engineWith({ ckpt: ['sdxl_base.safetensors', 'juggernautXL_lightning.safetensors'] }))).toBeNull();
  });

  it('says what an admin adds, and where, when one is missing', () => {
    const none = engineWith({ ckpt: ['sdxl_base.safetensors'] });
    expect(missingVideoModel('video', none, 'sdxl_base.safetensors')).toEqual({ reason: MOTION_MODULE_MISSING, missing: [expect.stringContaining('models/animatediff_models')] });
    expect(missingVideoModel('i2v', none, null)).toEqual({ reason: SVD_MISSING, missing: [expect.stringContaining('svd_xt.safetensors')] });
    expect(MOTION_MODULE_MISSING).toMatch(/An admin can add one/);
    const both = engineWith({ motion: ['v3_sd15_mm.ckpt'], ckpt: ['svd_xt.safetensors'] });
    expect(missingVideoModel('video', both, null)).toBeNull();
    expect(missingVideoModel('i2v', both, null)).toBeNull();
  });
});
