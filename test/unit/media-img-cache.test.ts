// The image proxy's disk cache (img-cache.ts): bounded in bytes, the least recently used picture
// dropped first, and the use order taken up again from the files after a restart.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ImageDiskCache } from '../../server/modules/media-server/img-cache.js';
import { makeTempDir } from '../harness/temp-dir.js';

const name = (n: number) => ImageDiskCache.nameOf({ path: `/library/metadata/${n}/thumb/1`, w: 100, h: 150, format: 'webp' });
const bytes = (n: number) => Buffer.alloc(400, n);

describe('media image disk cache', () => {
  const tmp = makeTempDir('hearth-img-cache-');
  afterEach(() => tmp.remove());

  it('keeps at most maxBytes, dropping the least recently used', async () => {
    const dir = path.join(tmp.dir, 'a');
    const cache = new ImageDiskCache(dir, 1_000);
    await cache.put(name(1), bytes(1));
    await cache.put(name(2), bytes(2));
    // 1 is used again, so 2 is now the oldest
    expect((await cache.get(name(1)))?.equals(bytes(1))).toBe(true);
    await cache.put(name(3), bytes(3));
    expect(cache.usage()).toEqual({ bytes: 800, files: 2 });
    expect(await cache.get(name(2))).toBeNull();
    expect(existsSync(path.join(dir, name(2)))).toBe(false);
    expect((await cache.get(name(3)))?.equals(bytes(3))).toBe(true);
    // a picture larger than the whole cache is not kept
    await cache.put(name(4), Buffer.alloc(1_001));
    expect(await cache.get(name(4))).toBeNull();
    expect(readdirSync(dir).sort()).toEqual([name(1), name(3)].sort());
  });

  it('takes up the files and their use order again after a restart, and refuses names that are not its own', async () => {
    const dir = path.join(tmp.dir, 'b');
    const first = new ImageDiskCache(dir, 1_000);
    await first.put(name(1), bytes(1));
    await new Promise((r) => setTimeout(r, 20));
    await first.put(name(2), bytes(2));
    const again = new ImageDiskCache(dir, 1_000);
    await again.put(name(3), bytes(3));
    expect(await again.get(name(1))).toBeNull();
    expect((await again.get(name(2)))?.equals(bytes(2))).toBe(true);
    expect(await again.get('../../etc/passwd')).toBeNull();
    await again.put('../escape.webp', bytes(9));
    expect(existsSync(path.join(tmp.dir, 'escape.webp'))).toBe(false);
  });
});
