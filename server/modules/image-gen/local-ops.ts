// The two edits that run in Hearth instead of the image engine (issue 18's decision): auto_color
// (white balance and levels) and adjust (brightness, contrast, saturation, warmth, sharpness,
// turning). sharp does the work on libvips' own threads, so no Python and no GPU are needed on the
// household's computer. Each takes the picture's bytes and answers a PNG.
import sharp, { type Sharp } from 'sharp';
import { UnsupportedMediaError } from '../../errors.js';

/** A picture sharp cannot read: 415 (server/errors.ts), as for the home inventory's photos. */
export class UnreadablePictureError extends UnsupportedMediaError {
  constructor(message = 'Hearth cannot read that picture. Send a JPEG, PNG or WebP picture.') {
    super(message);
  }
}

/** Larger pictures are refused rather than risking the server's memory (a 10,000 × 10,000 photo). */
export const LOCAL_OP_MAX_PIXELS = 100_000_000;

/** How far white balance may pull one channel: a sunset stays warm, a grey cast goes. */
const WB_MIN = 0.8;
const WB_MAX = 1.25;

async function readable(input: Buffer): Promise<{ channels: number; hasAlpha: boolean }> {
  try {
    const meta = await sharp(input, { failOn: 'error', limitInputPixels: LOCAL_OP_MAX_PIXELS }).metadata();
    if (!meta.width || !meta.height || !meta.channels) throw new Error('no size');
    return { channels: meta.channels, hasAlpha: meta.hasAlpha };
  } catch {
    throw new UnreadablePictureError();
  }
}

const open = (input: Buffer): Sharp => sharp(input, { failOn: 'error', limitInputPixels: LOCAL_OP_MAX_PIXELS }).autoOrient();

async function encode(img: Sharp): Promise<Buffer> {
  try {
    return await img.png().toBuffer();
  } catch {
    throw new UnreadablePictureError('Hearth cannot read that picture: the file may be damaged.');
  }
}

const clamp = (n: number, lo: number, hi: number): number => (Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : 0);

/** Multipliers for each channel: colour channels scaled, alpha left alone. */
function perChannel(colour: readonly [number, number, number], channels: number, hasAlpha: boolean): number[] {
  const n = channels - (hasAlpha ? 1 : 0);
  const mult = n >= 3 ? [...colour] : [colour[1]];
  return hasAlpha ? [...mult, 1] : mult;
}

/**
 * Automatic colour: a grey-world white balance (each colour channel pulled toward the picture's
 * average, within 0.8×–1.25×), then the levels stretched so the darkest 1 % is black and the
 * brightest 1 % white. A black-and-white picture only gets the levels.
 */
export async function autoColor(input: Buffer): Promise<Buffer> {
  const { channels, hasAlpha } = await readable(input);
  let img = open(input);
  if (channels - (hasAlpha ? 1 : 0) >= 3) {
    const stats = await open(input).stats();
    const means = stats.channels.slice(0, 3).map((c) => Math.max(1, c.mean));
    const grey = (means[0]! + means[1]! + means[2]!) / 3;
    const gains = means.map((m) => clamp(grey / m, WB_MIN, WB_MAX)) as [number, number, number];
    const a = perChannel(gains, channels, hasAlpha);
    img = img.linear(a, a.map(() => 0));
  }
  return encode(img.normalise({ lower: 1, upper: 99 }));
}

/** Each from -1 (less) through 0 (unchanged) to 1 (more); sharpness 0 to 1. */
export interface Adjustments {
  brightness?: number;
  contrast?: number;
  saturation?: number;
  /** Negative is cooler (bluer), positive warmer. */
  warmth?: number;
  sharpness?: number;
  /** Clockwise quarter turns. */
  rotate?: 0 | 90 | 180 | 270;
  flip?: boolean;
}

/** The picture with the member's sliders applied; all zero answers the same picture as a PNG. */
export async function adjust(input: Buffer, adj: Adjustments): Promise<Buffer> {
  const { channels, hasAlpha } = await readable(input);
  let img = open(input);
  if (adj.rotate) img = img.rotate(adj.rotate);
  if (adj.flip) img = img.flop();

  const brightness = clamp(adj.brightness ?? 0, -1, 1);
  const saturation = clamp(adj.saturation ?? 0, -1, 1);
  if (brightness !== 0 || saturation !== 0) img = img.modulate({ brightness: 1 + brightness * 0.5, saturation: 1 + saturation });

  // contrast around mid-grey: out = a·in + 128·(1 − a); warmth tilts red against blue by up to 12 %
  const contrast = 1 + clamp(adj.contrast ?? 0, -1, 1) * 0.5;
  const warmth = clamp(adj.warmth ?? 0, -1, 1) * 0.12;
  if (contrast !== 1 || warmth !== 0) {
    const a = perChannel([contrast * (1 + warmth), contrast, contrast * (1 - warmth)], channels, hasAlpha);
    const b = a.map((x, i) => (hasAlpha && i === a.length - 1 ? 0 : 128 * (1 - contrast)));
    img = img.linear(a, b);
  }

  const sharpness = clamp(adj.sharpness ?? 0, 0, 1);
  if (sharpness > 0) img = img.sharpen({ sigma: 0.5 + sharpness * 1.5 });
  return encode(img);
}
