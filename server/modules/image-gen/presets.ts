// Sampler presets and the clamps of image generation (spec: "Sampler presets", "Defaults", Limits):
// the preset is picked from the checkpoint's file name, a member's steps, guidance and size are
// clamped to what the household's engine can do well, the orientation is read from the prompt, and
// the hi-res pass rules decide whether a second, upscaled pass runs. Pure.

export type PresetName = 'standard' | 'lightning' | 'lcm' | 'hyper' | 'turbo';

export interface SamplerPreset {
  name: PresetName;
  steps: number;
  cfg: number;
  /** A KSampler sampler_name and scheduler: two separate inputs (there is no `dpmpp_2m_karras`). */
  sampler: string;
  scheduler: string;
  /** Distilled checkpoints are trained for their few steps: no fast mode, no hi-res pass. */
  distilled: boolean;
}

/**
 * The spec's table; the standard row takes the spec's "Defaults for a standard checkpoint" (about
 * 25 steps, guidance 4.5) over the table's 20 and 7.0, as the Limits table does.
 */
export const SAMPLER_PRESETS: Readonly<Record<PresetName, SamplerPreset>> = {
  standard: { name: 'standard', steps: 25, cfg: 4.5, sampler: 'dpmpp_2m', scheduler: 'karras', distilled: false },
  lightning: { name: 'lightning', steps: 6, cfg: 1.5, sampler: 'euler', scheduler: 'sgm_uniform', distilled: true },
  lcm: { name: 'lcm', steps: 6, cfg: 1.5, sampler: 'lcm', scheduler: 'sgm_uniform', distilled: true },
  hyper: { name: 'hyper', steps: 4, cfg: 2.0, sampler: 'euler', scheduler: 'sgm_uniform', distilled: true },
  turbo: { name: 'turbo', steps: 2, cfg: 0.0, sampler: 'euler_ancestral', scheduler: 'sgm_uniform', distilled: true },
};

export const STEPS_DEFAULT = 25;
export const STEPS_MAX = 40;
export const FAST_MODE_STEPS = 4;
export const GUIDANCE_MIN = 0;
export const GUIDANCE_MAX = 20;
export const GUIDANCE_DEFAULT = 4.5;
export const SIDE_MIN_PX = 256;
export const SIDE_MAX_PX = 2048;
/** EmptyLatentImage's width and height step (the VAE works on 8×8 pixel blocks). */
export const IMAGE_SIDE_STEP_PX = 8;
/** EmptyHunyuanLatentVideo and WanImageToVideo step their width and height by 16. */
export const VIDEO_SIDE_STEP_PX = 16;

/** Names of distilled checkpoints, checked in this order ("hyper" alone, not "hyperrealism"). */
const PRESET_PATTERNS: readonly [PresetName, RegExp][] = [
  ['lightning', /lightning/],
  ['hyper', /hyper[-_ ]?sd|(^|[^a-z])hyper([^a-z]|$)/],
  ['lcm', /(^|[^a-z])lcm([^a-z]|$)/],
  ['turbo', /turbo/],
];

/** The preset for a checkpoint file name (folders ignored); anything unrecognised is standard. */
export function presetForCheckpoint(fileName: string): SamplerPreset {
  const base = (fileName.split(/[\\/]/).pop() ?? '').toLowerCase();
  for (const [name, pattern] of PRESET_PATTERNS) if (pattern.test(base)) return SAMPLER_PRESETS[name];
  return SAMPLER_PRESETS.standard;
}

export interface SamplingRequest {
  checkpoint: string;
  steps?: number | null;
  guidance?: number | null;
  fastMode?: boolean;
}

export interface Sampling {
  preset: SamplerPreset;
  steps: number;
  cfg: number;
  sampler: string;
  scheduler: string;
  fastMode: boolean;
}

const clamp = (n: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, n));
const finite = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isFinite(n);

/**
 * Steps and guidance for one job. A standard checkpoint takes the member's steps (1 to 40, default
 * 25; fast mode 4) and guidance (0 to 20, default 4.5); a distilled one runs its own preset, since
 * more steps or guidance only burn its picture.
 */
export function samplingFor(req: SamplingRequest): Sampling {
  const preset = presetForCheckpoint(req.checkpoint);
  if (preset.distilled) {
    return { preset, steps: preset.steps, cfg: preset.cfg, sampler: preset.sampler, scheduler: preset.scheduler, fastMode: false };
  }
  const fastMode = req.fastMode === true;
  const steps = fastMode ? FAST_MODE_STEPS : finite(req.steps) ? clamp(Math.round(req.steps), 1, STEPS_MAX) : STEPS_DEFAULT;
  const cfg = finite(req.guidance) ? Math.round(clamp(req.guidance, GUIDANCE_MIN, GUIDANCE_MAX) * 10) / 10 : GUIDANCE_DEFAULT;
  return { preset, steps, cfg, sampler: preset.sampler, scheduler: preset.scheduler, fastMode };
}

// ── Size and orientation ────────────────────────────────────────────────────────────────────────

export type Orientation = 'portrait' | 'landscape' | 'square';

const ORIENTATION_WORDS: readonly [Orientation, RegExp][] = [
  ['portrait', /\b(portrait|vertical|tall|phone (wallpaper|background)|lock ?screen|poster|full[- ]body)\b/i],
  ['landscape', /\b(landscape|horizontal|wide[- ](shot|angle|view)|widescreen|panorama|panoramic|banner|desktop (wallpaper|background)|cinematic|scenery|skyline)\b/i],
  ['square', /\b(square|avatar|icon|profile (picture|photo|pic)|logo|sticker|emoji)\b/i],
];

/** The orientation the prompt asks for: the word mentioned first wins; null when none is. */
export function orientationFromPrompt(prompt: string): Orientation | null {
  let best: { o: Orientation; at: number } | null = null;
  for (const [o, re] of ORIENTATION_WORDS) {
    const m = re.exec(prompt);
    if (m && (best === null || m.index < best.at)) best = { o, at: m.index };
  }
  return best?.o ?? null;
}

/** SDXL's trained sizes (about one megapixel) for each orientation. */
const IMAGE_SIZES: Readonly<Record<Orientation, { width: number; height: number }>> = {
  square: { width: 1024, height: 1024 },
  portrait: { width: 832, height: 1216 },
  landscape: { width: 1216, height: 832 },
};

/** One side clamped to 256–2048 and snapped to the engine's step. */
export function clampSide(px: number, step = IMAGE_SIDE_STEP_PX): number {
  const lo = Math.ceil(SIDE_MIN_PX / step) * step;
  const hi = Math.floor(SIDE_MAX_PX / step) * step;
  return clamp(Math.round(px / step) * step, lo, hi);
}

export interface SizeRequest {
  prompt: string;
  width?: number | null;
  height?: number | null;
  orientation?: Orientation | null;
}

/**
 * The picture's size: the member's width and height when given (each clamped and snapped), else
 * the orientation they chose, else the one the prompt names, else square.
 */
export function sizeFor(req: SizeRequest, sizes: Readonly<Record<Orientation, { width: number; height: number }>> = IMAGE_SIZES, step = IMAGE_SIDE_STEP_PX): { width: number; height: number; orientation: Orientation } {
  const orientation = req.orientation ?? orientationFromPrompt(req.prompt) ?? 'square';
  const base = sizes[orientation];
  const width = clampSide(finite(req.width) ? req.width : base.width, step);
  const height = clampSide(finite(req.height) ? req.height : base.height, step);
  return { width, height, orientation: width === height ? 'square' : width > height ? 'landscape' : 'portrait' };
}

// ── The hi-res pass ─────────────────────────────────────────────────────────────────────────────

export const HIRES_SCALE = 2;
/** Re-encoding an upscaled picture keeps its composition at 0.30 (spec). */
export const HIRES_MODEL_DENOISE = 0.3;
/** A latent upscale is blurrier, so the second pass needs more freedom: 0.40 (spec). */
export const HIRES_LATENT_DENOISE = 0.4;
/** Below this the second pass costs a full sampling for too little gain. */
const HIRES_MIN_SCALE = 1.25;

export interface HiResRequest {
  sampling: Sampling;
  width: number;
  height: number;
  /** The upscale model file to use, when one is installed. */
  upscaleModel: string | null;
}

export interface HiResPlan {
  mode: 'model' | 'latent';
  denoise: number;
  scale: number;
  width: number;
  height: number;
  /** Steps of the second pass: half the first, at least 4. */
  steps: number;
}

export type HiResDecision = { plan: HiResPlan; skipped: null } | { plan: null; skipped: 'fast_mode' | 'distilled' | 'too_large' };

/**
 * Whether a 2× second pass runs (spec, as the reference's txt2img chain has it): never in fast
 * mode or on a distilled checkpoint; with an upscale model the picture is upscaled and re-encoded
 * at denoise 0.30, without one the latent is upscaled at 0.40. The result keeps within 2048 px per
 * side, so a large first pass is scaled less than 2×, or not at all.
 */
export function hiResFor(req: HiResRequest): HiResDecision {
  if (req.sampling.fastMode) return { plan: null, skipped: 'fast_mode' };
  if (req.sampling.preset.distilled) return { plan: null, skipped: 'distilled' };
  const scale = Math.min(HIRES_SCALE, SIDE_MAX_PX / Math.max(req.width, req.height));
  if (scale < HIRES_MIN_SCALE) return { plan: null, skipped: 'too_large' };
  const side = (px: number): number => Math.min(SIDE_MAX_PX, Math.floor((px * scale) / IMAGE_SIDE_STEP_PX) * IMAGE_SIDE_STEP_PX);
  return {
    plan: {
      mode: req.upscaleModel ? 'model' : 'latent',
      denoise: req.upscaleModel ? HIRES_MODEL_DENOISE : HIRES_LATENT_DENOISE,
      scale: Math.round(scale * 100) / 100,
      width: side(req.width),
      height: side(req.height),
      steps: Math.max(4, Math.round(req.sampling.steps / 2)),
    },
    skipped: null,
  };
}

/** enhance: a light img2img pass that keeps the picture and cleans its detail (spec: about 0.15). */
export const ENHANCE_DENOISE = 0.15;
