import { describe, expect, it } from 'vitest';
import {
  allowedLoras,
  buildPrompt,
  detectStyle,
  isAdult,
  NEGATIVE_QUALITY,
  resolveLoras,
  SAFETY_PREFIX,
  STYLE_PROMPTS,
  STYLES,
  type LoraAccess,
  type LoraCandidate,
} from '../../../server/modules/image-gen/prompt.js';
import { orientationFromPrompt } from '../../../server/modules/image-gen/presets.js';

const lora = (id: string, extra: Partial<LoraCandidate> = {}): LoraCandidate => ({
  id,
  name: id,
  file: `${id}.safetensors`,
  fileExists: true,
  enabled: true,
  categoryId: null,
  triggerTokens: [],
  defaultWeight: 0.8,
  minWeight: 0.2,
  maxWeight: 1,
  isAdult: false,
  isStylistic: false,
  styleLabel: null,
  whenToUse: null,
  exampleRequests: [],
  ...extra,
});

const member = (extra: Partial<LoraAccess> = {}): LoraAccess => ({ isAdmin: false, blockAdultLoras: false, loraGrants: {}, categoryGrants: {}, ...extra });

const CANDIDATES = [
  lora('watercolor', { name: 'Soft watercolor', triggerTokens: ['wtrclr style'], styleLabel: 'watercolor', isStylistic: true, categoryId: 'styles' }),
  lora('lego', { name: 'Brick builder', triggerTokens: ['lego bricks'], whenToUse: 'toy brick models, lego sets', exampleRequests: ['a castle made of lego'], categoryId: 'toys' }),
  lora('dino', { name: 'Dinosaurs', triggerTokens: ['dinoxl'], whenToUse: 'dinosaurs and prehistoric animals', exampleRequests: ['a t-rex in a forest'] }),
  lora('adult', { name: 'Pin-up', triggerTokens: ['pinup'], isAdult: true, whenToUse: 'pin-up portraits', categoryId: 'styles' }),
  lora('gone', { name: 'Dinosaur skeletons', triggerTokens: ['fossil'], whenToUse: 'dinosaur skeletons', fileExists: false }),
  lora('off', { name: 'Disabled dinosaurs', whenToUse: 'dinosaurs', enabled: false }),
];

describe('detectStyle', () => {
  it.each([
    ['a photo of our cat on the sofa', 'photorealistic'],
    ['a pencil sketch of a lighthouse', 'sketch'],
    ['watercolor painting of tulips', 'watercolor'],
    ['an oil painting of a harbour', 'oil_painting'],
    ['a cartoon dog riding a bike', 'cartoon'],
    ['anime girl with a sword', 'anime'],
    ['pixel art castle', 'pixel_art'],
    ['a 3d render of a robot', '3d_render'],
    ['a storybook illustration of a bear', 'illustration'],
    ['a red bicycle', 'photorealistic'],
  ])('%s → %s', (message, style) => {
    expect(detectStyle(message)).toBe(style);
  });

  it('has a prefix and negative for each of the nine styles, with no orientation words in them', () => {
    expect(STYLES).toHaveLength(9);
    for (const s of STYLES) {
      expect(STYLE_PROMPTS[s].prefix).not.toBe('');
      expect(orientationFromPrompt(STYLE_PROMPTS[s].prefix)).toBeNull();
    }
  });
});

describe('allowedLoras: default deny', () => {
  it('gives a member nothing without grants and an admin every enabled LoRA', () => {
    expect(allowedLoras(CANDIDATES, member())).toEqual([]);
    expect(allowedLoras(CANDIDATES, member({ isAdmin: true })).map((l) => l.id)).toEqual(['watercolor', 'lego', 'dino', 'adult', 'gone']);
  });

  it('grants per LoRA and per category, the LoRA`s own grant deciding over its category`s', () => {
    const access = member({ categoryGrants: { styles: true, toys: false }, loraGrants: { watercolor: false, dino: true, off: true } });
    expect(allowedLoras(CANDIDATES, access).map((l) => l.id)).toEqual(['dino', 'adult']);
  });

  it('never lets an adult LoRA reach an admin with blockAdultLoras either (below adult, or the adult state off)', () => {
    expect(allowedLoras(CANDIDATES, member({ isAdmin: true, blockAdultLoras: true })).map((l) => l.id)).not.toContain('adult');
  });

  it('never lets an adult LoRA reach a member with blockAdultLoras', () => {
    expect(allowedLoras(CANDIDATES, member({ blockAdultLoras: true, loraGrants: { adult: true }, categoryGrants: { styles: true } })).map((l) => l.id)).toEqual(['watercolor']);
  });
});

describe('resolveLoras', () => {
  it('filters explicit picks to allowed LoRAs whose files exist, and says why the others went', () => {
    const r = resolveLoras({ prompt: 'x', explicitIds: ['lego', 'dino', 'gone', 'lego'], candidates: CANDIDATES, access: member({ loraGrants: { dino: true, gone: true } }) });
    expect(r.mode).toBe('explicit');
    expect(r.loras.map((l) => l.id)).toEqual(['dino']);
    expect(r.dropped).toEqual([
      { id: 'lego', reason: 'not_allowed' },
      { id: 'gone', reason: 'file_missing' },
    ]);
  });

  it('clamps weights to each LoRA`s range, defaulting to its own weight', () => {
    const r = resolveLoras({ prompt: 'x', explicitIds: ['dino', 'lego'], weights: { dino: 3, lego: -1 }, candidates: CANDIDATES, access: member({ isAdmin: true }) });
    expect(r.loras.map((l) => [l.id, l.weight])).toEqual([
      ['dino', 1],
      ['lego', 0.2],
    ]);
    expect(resolveLoras({ prompt: 'x', explicitIds: ['dino'], candidates: CANDIDATES, access: member({ isAdmin: true }) }).loras[0]?.weight).toBe(0.8);
  });

  it('routes automatically from the prompt only among the member`s granted LoRAs', () => {
    const prompt = 'a t-rex and other dinosaurs playing with lego bricks';
    const everyone = resolveLoras({ prompt, candidates: CANDIDATES, access: member({ isAdmin: true }) });
    expect(everyone.mode).toBe('automatic');
    expect(everyone.loras.map((l) => l.id).sort()).toEqual(['dino', 'lego']);
    expect(everyone.triggerTokens.sort()).toEqual(['dinoxl', 'lego bricks']);
    // the member holds only the toys category: no dinosaurs, however well they fit
    const kid = resolveLoras({ prompt, candidates: CANDIDATES, access: member({ categoryGrants: { toys: true } }) });
    expect(kid.loras.map((l) => l.id)).toEqual(['lego']);
    expect(resolveLoras({ prompt, candidates: CANDIDATES, access: member() }).loras).toEqual([]);
    // an ordinary shared word is not enough
    expect(resolveLoras({ prompt: 'a forest at dusk', candidates: CANDIDATES, access: member({ isAdmin: true }) }).loras).toEqual([]);
  });

  it('takes at most one stylistic LoRA and three in all', () => {
    const many = [1, 2, 3, 4].map((n) => lora(`l${n}`, { triggerTokens: ['magic'] }));
    const styles = [lora('s1', { isStylistic: true }), lora('s2', { isStylistic: true })];
    const r = resolveLoras({ prompt: 'magic', explicitIds: ['s1', 's2', 'l1', 'l2', 'l3'], candidates: [...many, ...styles], access: member({ isAdmin: true }) });
    expect(r.loras.map((l) => l.id)).toEqual(['s1', 'l1', 'l2']);
  });
});

describe('buildPrompt', () => {
  const none = resolveLoras({ prompt: 'x', explicitIds: [], candidates: [], access: member() });

  it('puts the safety prefix and the style prefix before the member`s words, and ends the negative with the quality list', () => {
    const p = buildPrompt({ message: 'a watercolor of a fox', uncensored: false, loras: none });
    expect(p.style).toBe('watercolor');
    expect(p.positive).toBe(`${SAFETY_PREFIX}, ${STYLE_PROMPTS.watercolor.prefix}, a watercolor of a fox`);
    expect(p.negative.startsWith(STYLE_PROMPTS.watercolor.negative)).toBe(true);
    expect(p.negative).toContain('nsfw');
    expect(p.negative.endsWith(NEGATIVE_QUALITY)).toBe(true);
    expect(p.isAdult).toBe(false);
  });

  it('leaves the safety prefix out only for a member with uncensored_images', () => {
    const p = buildPrompt({ message: 'a fox', style: 'anime', uncensored: true, loras: none });
    expect(p.positive).toBe(`${STYLE_PROMPTS.anime.prefix}, a fox`);
    expect(p.negative).toBe(`${STYLE_PROMPTS.anime.negative}, ${NEGATIVE_QUALITY}`);
  });

  it('adds trigger tokens and lets a stylistic LoRA set the look', () => {
    const loras = resolveLoras({ prompt: 'x', explicitIds: ['watercolor', 'lego'], candidates: CANDIDATES, access: member({ isAdmin: true }) });
    const p = buildPrompt({ message: 'a castle', uncensored: false, loras });
    expect(p.positive).toBe(`${SAFETY_PREFIX}, wtrclr style, lego bricks, a castle`);
    expect(p.negative).not.toContain(STYLE_PROMPTS.photorealistic.negative);
  });

  it('flags adult content from the prompt or any adult LoRA', () => {
    expect(isAdult('a nude figure study', [])).toBe(true);
    expect(isAdult('NSFW beach scene', [])).toBe(true);
    expect(isAdult('a sunny beach', [{ isAdult: true }])).toBe(true);
    expect(isAdult('a sunny beach in Essex', [{ isAdult: false }])).toBe(false);
    const loras = resolveLoras({ prompt: 'x', explicitIds: ['adult'], candidates: CANDIDATES, access: member({ isAdmin: true }) });
    expect(buildPrompt({ message: 'a portrait', uncensored: true, loras }).isAdult).toBe(true);
  });
});
