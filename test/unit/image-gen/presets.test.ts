import { describe, expect, it } from 'vitest';
import {
  clampSide,
  hiResFor,
  orientationFromPrompt,
  presetForCheckpoint,
  samplingFor,
  SAMPLER_PRESETS,
  sizeFor,
  VIDEO_SIDE_STEP_PX,
} from '../../../server/modules/image-gen/presets.js';
import { coreObjectInfo } from '../../fixtures/comfyui/index.js';

describe('presetForCheckpoint', () => {
  it.each([
    ['sdxl_base.safetensors', 'standard'],
    ['juggernautXL_lightning.safetensors', 'lightning'],
    ['models/RealVisXL_V4.0_Lightning.safetensors', 'lightning'],
    ['dreamshaperXL_lcm.safetensors', 'lcm'],
    ['LCM_Dreamshaper_v7.safetensors', 'lcm'],
    ['Hyper-SDXL-8steps.safetensors', 'hyper'],
    ['realvis_hyper.safetensors', 'hyper'],
    ['hyperRealism_v3.safetensors', 'standard'],
    ['sd_xl_turbo_1.0_fp16.safetensors', 'turbo'],
    ['dreamshaperXL_turboDPMSDE.safetensors', 'turbo'],
    ['flcm_photo.safetensors', 'standard'],
  ])('%s is %s', (file, preset) => {
    expect(presetForCheckpoint(file).name).toBe(preset);
  });

  it('uses only samplers and schedulers the engine has', () => {
    const ks = coreObjectInfo().get('KSampler');
    const samplers = ks?.inputs.find((i) => i.name === 'sampler_name')?.enumValues;
    const schedulers = ks?.inputs.find((i) => i.name === 'scheduler')?.enumValues;
    for (const p of Object.values(SAMPLER_PRESETS)) {
      expect(samplers).toContain(p.sampler);
      expect(schedulers).toContain(p.scheduler);
    }
  });
});

describe('samplingFor', () => {
  const std = 'sdxl_base.safetensors';
  it('defaults a standard checkpoint to 25 steps and guidance 4.5 with dpmpp_2m and karras', () => {
    expect(samplingFor({ checkpoint: std })).toMatchObject({ steps: 25, cfg: 4.5, sampler: 'dpmpp_2m', scheduler: 'karras', fastMode: false });
  });

  it('clamps steps to 1–40 and guidance to 0–20', () => {
    expect(samplingFor({ checkpoint: std, steps: 90, guidance: 35 })).toMatchObject({ steps: 40, cfg: 20 });
    expect(samplingFor({ checkpoint: std, steps: 0, guidance: -3 })).toMatchObject({ steps: 1, cfg: 0 });
    expect(samplingFor({ checkpoint: std, steps: 12.6, guidance: 6.44 })).toMatchObject({ steps: 13, cfg: 6.4 });
    expect(samplingFor({ checkpoint: std, steps: Number.NaN, guidance: null })).toMatchObject({ steps: 25, cfg: 4.5 });
  });

  it('runs 4 steps in fast mode', () => {
    expect(samplingFor({ checkpoint: std, steps: 30, fastMode: true })).toMatchObject({ steps: 4, fastMode: true });
  });

  it("runs a distilled checkpoint with its own preset, whatever was asked", () => {
    expect(samplingFor({ checkpoint: 'juggernautXL_lightning.safetensors', steps: 30, guidance: 9, fastMode: true })).toMatchObject({
      steps: 6,
      cfg: 1.5,
      sampler: 'euler',
      scheduler: 'sgm_uniform',
      fastMode: false,
    });
    expect(samplingFor({ checkpoint: 'sd_xl_turbo.safetensors' })).toMatchObject({ steps: 2, cfg: 0, sampler: 'euler_ancestral' });
    expect(samplingFor({ checkpoint: 'x_lcm.safetensors' })).toMatchObject({ steps: 6, cfg: 1.5, sampler: 'lcm' });
    expect(samplingFor({ checkpoint: 'x_hyper.safetensors' })).toMatchObject({ steps: 4, cfg: 2 });
  });
});

describe('size and orientation', () => {
  it.each([
    ['a portrait of grandma in the garden', 'portrait'],
    ['phone wallpaper with stars', 'portrait'],
    ['a mountain landscape at dawn', 'landscape'],
    ['a wide shot of the beach', 'landscape'],
    ['an avatar of a fox', 'square'],
    ['a wide-eyed owl', null],
    ['a red bicycle', null],
    ['a landscape poster', 'landscape'],
  ])('%s → %s', (prompt, o) => {
    expect(orientationFromPrompt(prompt)).toBe(o);
  });

  it('picks the trained size for the orientation, the member`s choice first', () => {
    expect(sizeFor({ prompt: 'a red bicycle' })).toEqual({ width: 1024, height: 1024, orientation: 'square' });
    expect(sizeFor({ prompt: 'a mountain landscape' })).toEqual({ width: 1216, height: 832, orientation: 'landscape' });
    expect(sizeFor({ prompt: 'a mountain landscape', orientation: 'portrait' })).toEqual({ width: 832, height: 1216, orientation: 'portrait' });
  });

  it('clamps each side to 256–2048 and snaps it to the engine`s step', () => {
    expect(sizeFor({ prompt: 'x', width: 100, height: 5000 })).toEqual({ width: 256, height: 2048, orientation: 'portrait' });
    expect(sizeFor({ prompt: 'x', width: 1001, height: 773 })).toEqual({ width: 1000, height: 776, orientation: 'landscape' });
    expect(clampSide(1001, VIDEO_SIDE_STEP_PX)).toBe(1008);
    expect(clampSide(2047, VIDEO_SIDE_STEP_PX)).toBe(2048);
    expect(clampSide(250, VIDEO_SIDE_STEP_PX)).toBe(256);
  });
});

describe('hiResFor', () => {
  const std = samplingFor({ checkpoint: 'sdxl_base.safetensors' });
  it('upscales with the model and re-encodes at 0.30 when an upscale model is installed', () => {
    expect(hiResFor({ sampling: std, width: 1024, height: 1024, upscaleModel: '4x-UltraSharp.pth' })).toEqual({
      plan: { mode: 'model', denoise: 0.3, scale: 2, width: 2048, height: 2048, steps: 13 },
      skipped: null,
    });
  });

  it('falls back to a latent upscale at 0.40 without one', () => {
    expect(hiResFor({ sampling: std, width: 832, height: 1216, upscaleModel: null }).plan).toMatchObject({ mode: 'latent', denoise: 0.4, width: 1400, height: 2048 });
  });

  it('never runs in fast mode, on a distilled checkpoint, or when the picture is already near 2048 px', () => {
    expect(hiResFor({ sampling: samplingFor({ checkpoint: 'sdxl_base.safetensors', fastMode: true }), width: 1024, height: 1024, upscaleModel: 'x.pth' }).skipped).toBe('fast_mode');
    expect(hiResFor({ sampling: samplingFor({ checkpoint: 'juggernautXL_lightning.safetensors' }), width: 1024, height: 1024, upscaleModel: 'x.pth' }).skipped).toBe('distilled');
    expect(hiResFor({ sampling: std, width: 1800, height: 1024, upscaleModel: 'x.pth' }).skipped).toBe('too_large');
  });
});
