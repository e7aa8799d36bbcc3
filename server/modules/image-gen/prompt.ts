// The prompt pipeline for txt2img and the LoRA flows (spec: "Prompt pipeline"): style detection
// with its prefix and negative, the safety prefix unless the member may make uncensored pictures,
// LoRA resolution strictly within what the member was granted (default deny), trigger tokens,
// weights clamped to each LoRA's range, the fixed negative quality list, and the adult flag.
// Pure functions over plain inputs; the service reads the member, grants and files and passes them.

export const STYLES = ['photorealistic', 'sketch', 'watercolor', 'oil_painting', 'cartoon', 'anime', 'pixel_art', '3d_render', 'illustration'] as const;
export type Style = (typeof STYLES)[number];

/** Words that name each style; the one mentioned first in the message wins. */
const STYLE_WORDS: Readonly<Record<Style, RegExp>> = {
  photorealistic: /\b(photo(graph)?s?|photorealistic|realistic|real[- ]life|dslr|camera shot|snapshot)\b/i,
  sketch: /\b(sketch(ed|y)?|pencil|charcoal|line[- ]?art|doodle|drawing)\b/i,
  watercolor: /\b(water ?colou?rs?|aquarelle)\b/i,
  oil_painting: /\b(oil[- ]painting|oil on canvas|oil paint|impasto|painting)\b/i,
  cartoon: /\b(cartoons?|cartoony|comic( book| strip)?s?)\b/i,
  anime: /\b(anime|manga|chibi|ghibli)\b/i,
  pixel_art: /\b(pixel[- ]?art|pixelated|8[- ]bit|16[- ]bit|sprite)\b/i,
  '3d_render': /\b(3d|3-d|render(ed)?|cgi|blender|pixar|clay(mation)?)\b/i,
  illustration: /\b(illustrat(ion|ed)|storybook|children'?s book|picture book|vector art|flat design|clip ?art)\b/i,
};

/** Prefix and negative per style. No orientation words here: sizeFor reads the member's words only. */
export const STYLE_PROMPTS: Readonly<Record<Style, { prefix: string; negative: string }>> = {
  photorealistic: { prefix: 'photograph, natural light, sharp focus, realistic detail', negative: 'cartoon, drawing, painting, anime, illustration, 3d render' },
  sketch: { prefix: 'pencil sketch, graphite lines, cross-hatching, on paper', negative: 'photograph, colour, 3d render, painting' },
  watercolor: { prefix: 'watercolor painting, soft washes, paper texture', negative: 'photograph, 3d render, hard edges, digital art' },
  oil_painting: { prefix: 'oil painting, visible brush strokes, canvas texture, rich colours', negative: 'photograph, 3d render, flat colours, anime' },
  cartoon: { prefix: 'cartoon style, bold outlines, bright flat colours, friendly', negative: 'photograph, realistic, 3d render, gritty' },
  anime: { prefix: 'anime style, cel shading, clean line art, vibrant colours', negative: 'photograph, realistic, 3d render, western cartoon' },
  pixel_art: { prefix: 'pixel art, crisp pixels, limited palette, retro game style', negative: 'photograph, blurry, smooth gradients, 3d render' },
  '3d_render': { prefix: '3d render, soft global illumination, smooth materials, studio lighting', negative: 'photograph, flat, sketch, painting' },
  illustration: { prefix: 'digital illustration, storybook style, clean shapes, warm colours', negative: 'photograph, realistic, 3d render' },
};

/** A member without uncensored_images gets this in front of every prompt, and its opposite as negative. */
export const SAFETY_PREFIX = 'family-friendly, wholesome, fully clothed, safe for work';
export const SAFETY_NEGATIVE = 'nsfw, nudity, naked, sexual, suggestive, gore, blood, violence';

/** The fixed quality list every negative prompt ends with. */
export const NEGATIVE_QUALITY = 'lowres, blurry, jpeg artifacts, watermark, signature, text, bad anatomy, extra fingers, deformed hands, cropped, worst quality';

/** The style the message asks for; a photograph when it names none. */
export function detectStyle(message: string): Style {
  let best: { style: Style; at: number } | null = null;
  for (const style of STYLES) {
    const m = STYLE_WORDS[style].exec(message);
    if (m && (best === null || m.index < best.at)) best = { style, at: m.index };
  }
  return best?.style ?? 'photorealistic';
}

const ADULT_WORDS = /\b(nsfw|nude|nudity|naked|topless|explicit|erotic|sexy|sexual|porn\w*|hentai|lingerie|undress(ed|ing)?|xxx|18\+)(?=\W|$)/i;

// ── LoRAs ───────────────────────────────────────────────────────────────────────────────────────

/** A LoRA as the service hands it over: the imageLoras row plus whether its file is on disk. */
export interface LoraCandidate {
  id: string;
  name: string;
  /** Its file name in the engine's loras folder. */
  file: string;
  fileExists: boolean;
  enabled: boolean;
  categoryId: string | null;
  triggerTokens: readonly string[];
  defaultWeight: number;
  minWeight: number;
  maxWeight: number;
  isAdult: boolean;
  isStylistic: boolean;
  styleLabel: string | null;
  whenToUse: string | null;
  exampleRequests: readonly string[];
}

/** What the member may use: grants are on or off per LoRA and per category (unique per target). */
export interface LoraAccess {
  isAdmin: boolean;
  /** Below `adult`, or the adult state is off: no adult LoRA, an admin's neither. */
  blockAdultLoras: boolean;
  loraGrants: Readonly<Record<string, boolean>>;
  categoryGrants: Readonly<Record<string, boolean>>;
}

/**
 * The LoRAs a member may use (spec: admins see all enabled ones; others those granted directly or
 * through a granted category, default deny). A LoRA's own grant, on or off, decides over its
 * category's. An adult LoRA never reaches anyone with blockAdultLoras, whatever the grants (or the
 * admin role) say.
 */
export function allowedLoras(candidates: readonly LoraCandidate[], access: LoraAccess): LoraCandidate[] {
  return candidates.filter((l) => {
    if (!l.enabled) return false;
    if (l.isAdult && access.blockAdultLoras) return false;
    if (access.isAdmin) return true;
    const own = access.loraGrants[l.id];
    if (own !== undefined) return own;
    return l.categoryId !== null && access.categoryGrants[l.categoryId] === true;
  });
}

export const MAX_LORAS = 3;

export interface ResolvedLora {
  id: string;
  file: string;
  weight: number;
  triggerTokens: readonly string[];
  isStylistic: boolean;
  isAdult: boolean;
}

export interface LoraResolution {
  loras: ResolvedLora[];
  /** Trigger tokens of the chosen LoRAs, each once, in LoRA order. */
  triggerTokens: string[];
  /** Explicit ids that were dropped, and why (never says more than "not available" to the member). */
  dropped: { id: string; reason: 'not_allowed' | 'file_missing' }[];
  mode: 'explicit' | 'automatic';
}

export interface LoraRequest {
  prompt: string;
  /** The member's picks; null or absent routes automatically from the prompt. */
  explicitIds?: readonly string[] | null;
  /** Weights the member asked for, by LoRA id. */
  weights?: Readonly<Record<string, number>>;
  candidates: readonly LoraCandidate[];
  access: LoraAccess;
}

const clampWeight = (l: LoraCandidate, w: number | undefined): number => {
  const lo = Math.min(l.minWeight, l.maxWeight);
  const hi = Math.max(l.minWeight, l.maxWeight);
  const v = typeof w === 'number' && Number.isFinite(w) ? w : l.defaultWeight;
  return Math.round(Math.min(hi, Math.max(lo, v)) * 100) / 100;
};

const WORD = /[a-z0-9]+/g;
const STOP = new Set(['a', 'an', 'the', 'of', 'in', 'on', 'and', 'with', 'for', 'to', 'my', 'me', 'is', 'at', 'by', 'style', 'lora', 'picture', 'image', 'make', 'draw', 'some', 'use', 'when']);
const words = (s: string): Set<string> => new Set((s.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 2 && !STOP.has(w)));

/** How well a LoRA fits the prompt: its trigger tokens and style label count most, then its descriptions. */
function routeScore(l: LoraCandidate, prompt: string, promptWords: Set<string>): number {
  const lower = prompt.toLowerCase();
  let score = 0;
  for (const t of l.triggerTokens) if (t.trim() && lower.includes(t.toLowerCase().trim())) score += 3;
  if (l.styleLabel && lower.includes(l.styleLabel.toLowerCase())) score += 3;
  const described = words([l.name, l.whenToUse ?? '', ...l.exampleRequests].join(' '));
  for (const w of promptWords) if (described.has(w)) score += 1;
  return score;
}

/** Below this a LoRA is not added automatically: one shared ordinary word is not a reason. */
const ROUTE_MIN_SCORE = 2;

/**
 * The LoRAs for one job: the member's explicit picks filtered to the LoRAs they may use whose file
 * exists, or, with none picked, automatic routing from the prompt among those only. At most three,
 * at most one stylistic; weights clamped to each LoRA's min and max.
 */
export function resolveLoras(req: LoraRequest): LoraResolution {
  const allowed = allowedLoras(req.candidates, req.access);
  const allowedById = new Map(allowed.map((l) => [l.id, l]));
  const chosen: LoraCandidate[] = [];
  const dropped: LoraResolution['dropped'] = [];
  let stylistic = false;
  const take = (l: LoraCandidate): void => {
    if (chosen.length >= MAX_LORAS || chosen.includes(l) || (l.isStylistic && stylistic)) return;
    stylistic ||= l.isStylistic;
    chosen.push(l);
  };

  const explicit = req.explicitIds ?? null;
  if (explicit !== null) {
    for (const id of new Set(explicit)) {
      const l = allowedById.get(id);
      if (!l) dropped.push({ id, reason: 'not_allowed' });
      else if (!l.fileExists) dropped.push({ id, reason: 'file_missing' });
      else take(l);
    }
  } else {
    const promptWords = words(req.prompt);
    allowed
      .filter((l) => l.fileExists)
      .map((l) => ({ l, score: routeScore(l, req.prompt, promptWords) }))
      .filter((x) => x.score >= ROUTE_MIN_SCORE)
      .sort((a, b) => b.score - a.score || a.l.name.localeCompare(b.l.name))
      .forEach((x) => take(x.l));
  }

  const loras = chosen.map((l) => ({ id: l.id, file: l.file, weight: clampWeight(l, req.weights?.[l.id]), triggerTokens: l.triggerTokens, isStylistic: l.isStylistic, isAdult: l.isAdult }));
  const triggerTokens = [...new Set(loras.flatMap((l) => l.triggerTokens.map((t) => t.trim()).filter(Boolean)))];
  return { loras, triggerTokens, dropped, mode: explicit !== null ? 'explicit' : 'automatic' };
}

// ── The prompt ──────────────────────────────────────────────────────────────────────────────────

/** The adult flag (spec: computed at enqueue from the prompt or any selected adult LoRA). */
export function isAdult(prompt: string, loras: readonly { isAdult: boolean }[]): boolean {
  return ADULT_WORDS.test(prompt) || loras.some((l) => l.isAdult);
}

export interface PromptRequest {
  /** The member's words (or the model-improved version of them). */
  message: string;
  /** A style chip the member picked; detected from the message otherwise. */
  style?: Style | null;
  /** The member's uncensored_images preference, set by an admin only. */
  uncensored: boolean;
  loras: LoraResolution;
}

export interface BuiltPrompt {
  positive: string;
  negative: string;
  style: Style;
  isAdult: boolean;
}

/**
 * The positive and negative prompts: [safety prefix], [style prefix, left out when a stylistic
 * LoRA sets the look], trigger tokens, the member's words; negative: the style's, the safety list
 * unless uncensored, then the fixed quality list.
 */
export function buildPrompt(req: PromptRequest): BuiltPrompt {
  const style = req.style ?? detectStyle(req.message);
  const stylistic = req.loras.loras.some((l) => l.isStylistic);
  const parts = [req.uncensored ? null : SAFETY_PREFIX, stylistic ? null : STYLE_PROMPTS[style].prefix, ...req.loras.triggerTokens, req.message.trim()];
  const negative = [stylistic ? null : STYLE_PROMPTS[style].negative, req.uncensored ? null : SAFETY_NEGATIVE, NEGATIVE_QUALITY];
  return {
    positive: parts.filter((p): p is string => !!p).join(', '),
    negative: negative.filter((p): p is string => !!p).join(', '),
    style,
    isAdult: isAdult(req.message, req.loras.loras),
  };
}
