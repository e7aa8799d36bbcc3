// The content proxy's memory cache of archive entries: bounded in bytes with the least recently
// used entry going first, large entries never kept, and no entry put back by a read that started
// before the served archives changed.
import { describe, expect, it } from 'vitest';
import { ArchiveEntryCache, type CachedEntry } from '../../server/modules/archives/entry-cache.js';

const entry = (bytes: number, fill = 1): CachedEntry => ({ status: 200, finalPath: 'A/x', type: 'image/png', headers: {}, body: Buffer.alloc(bytes, fill) });
const KB = 1024;

describe('ArchiveEntryCache', () => {
  it('keeps entries until the byte budget is reached, then drops the least recently used', () => {
    const cache = new ArchiveEntryCache({ maxBytes: 1000 * KB, maxEntryBytes: 200 * KB });
    const g = cache.generation;
    for (const k of ['a', 'b', 'c']) expect(cache.set(k, entry(150 * KB), g)).toBe(true);
    expect(cache.get('a')?.body.length).toBe(150 * KB); // a is now the most recently used
    // each entry is counted twice its body (room for a page's rewrite): a fourth 150 KB entry overflows 1000 KB
    cache.set('d', entry(150 * KB), g);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.get('d')).toBeDefined();
    expect(cache.stats()).toMatchObject({ entries: 3, hits: 4, misses: 1 });
    expect(cache.stats().bytes).toBeLessThanOrEqual(1000 * KB);
  });

  it('never keeps an entry larger than the per-entry limit', () => {
    const cache = new ArchiveEntryCache({ maxBytes: 10_000 * KB, maxEntryBytes: 100 * KB });
    expect(cache.set('big', entry(100 * KB + 1), cache.generation)).toBe(false);
    expect(cache.get('big')).toBeUndefined();
    expect(cache.set('ok', entry(100 * KB), cache.generation)).toBe(true);
  });

  it('drops a read that began before clear(): a changed archive is never answered from an old read', () => {
    const cache = new ArchiveEntryCache();
    cache.set('a', entry(10), cache.generation);
    const before = cache.generation; // a request reads this, then waits on the archive server...
    cache.clear(); // ...while the served archives change
    expect(cache.get('a')).toBeUndefined();
    expect(cache.set('b', entry(10), before)).toBe(false);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.set('b', entry(10), cache.generation)).toBe(true);
  });

  it('keeps nothing with a budget of 0 (the cache turned off)', () => {
    const cache = new ArchiveEntryCache({ maxBytes: 0 });
    expect(cache.set('a', entry(1), cache.generation)).toBe(false);
    expect(cache.get('a')).toBeUndefined();
  });
});
