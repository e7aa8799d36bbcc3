import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { adjust, autoColor, UnreadablePictureError } from '../../../server/modules/image-gen/local-ops.js';

const W = 64;
const H = 48;

/** A dull picture with a blue cast: a horizontal ramp from (90,100,140) to (130,140,180). */
async function castPicture(alpha = false): Promise<Buffer> {
  const channels = alpha ? 4 : 3;
  const raw = Buffer.alloc(W * H * channels);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const t = Math.round((x / (W - 1)) * 40);
      const i = (y * W + x) * channels;
      raw[i] = 90 + t;
      raw[i + 1] = 100 + t;
      raw[i + 2] = 140 + t;
      if (alpha) raw[i + 3] = x < W / 2 ? 255 : 0;
    }
  }
  return sharp(raw, { raw: { width: W, height: H, channels } }).png().toBuffer();
}

async function statsOf(png: Buffer) {
  const img = sharp(png);
  const [meta, stats] = await Promise.all([img.metadata(), img.stats()]);
  return { meta, ch: stats.channels };
}

describe('autoColor', () => {
  it('removes a colour cast and stretches the levels', async () => {
    const before = await statsOf(await castPicture());
    const after = await statsOf(await autoColor(await castPicture()));
    expect(after.meta).toMatchObject({ format: 'png', width: W, height: H });
    const spread = (ch: typeof before.ch) => Math.max(...ch.slice(0, 3).map((c) => c.mean)) - Math.min(...ch.slice(0, 3).map((c) => c.mean));
    expect(spread(after.ch)).toBeLessThan(spread(before.ch) / 2);
    for (const c of after.ch.slice(0, 3)) {
      expect(c.min).toBeLessThan(20);
      expect(c.max).toBeGreaterThan(235);
    }
  });

  it('keeps transparency', async () => {
    const after = await statsOf(await autoColor(await castPicture(true)));
    expect(after.meta.hasAlpha).toBe(true);
    expect(after.ch[3]).toMatchObject({ min: 0, max: 255 });
  });

  it('refuses a file that is not a picture with 415', async () => {
    const err = await autoColor(Buffer.from('not a picture')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnreadablePictureError);
    expect(err).toMatchObject({ status: 415, code: 'unsupported_media_type' });
  });
});

describe('adjust', () => {
  it('answers the same picture when nothing is changed', async () => {
    const src = await castPicture();
    const out = await adjust(src, {});
    const [a, b] = await Promise.all([sharp(src).raw().toBuffer(), sharp(out).raw().toBuffer()]);
    expect(b.equals(a)).toBe(true);
  });

  it('brightens, adds contrast, warms and desaturates', async () => {
    const src = await castPicture();
    const base = await statsOf(src);
    const mean = (ch: typeof base.ch) => (ch[0]!.mean + ch[1]!.mean + ch[2]!.mean) / 3;
    expect(mean((await statsOf(await adjust(src, { brightness: 0.5 }))).ch)).toBeGreaterThan(mean(base.ch) + 20);
    expect((await statsOf(await adjust(src, { contrast: 1 }))).ch[0]!.stdev).toBeGreaterThan(base.ch[0]!.stdev * 1.3);
    const warm = (await statsOf(await adjust(src, { warmth: 1 }))).ch;
    expect(warm[0]!.mean - warm[2]!.mean).toBeGreaterThan(base.ch[0]!.mean - base.ch[2]!.mean + 20);
    const grey = (await statsOf(await adjust(src, { saturation: -1 }))).ch;
    expect(Math.abs(grey[0]!.mean - grey[2]!.mean)).toBeLessThan(3);
  });

  it('turns and mirrors, and clamps out-of-range sliders', async () => {
    const src = await castPicture();
    expect((await statsOf(await adjust(src, { rotate: 90 }))).meta).toMatchObject({ width: H, height: W });
    const flipped = await sharp(await adjust(src, { flip: true })).raw().toBuffer();
    expect(flipped[0]).toBe(130); // the right edge's red is now on the left
    const wild = await statsOf(await adjust(src, { brightness: 50, sharpness: 9, contrast: Number.NaN }));
    expect(wild.meta).toMatchObject({ width: W, height: H });
  });
});
