// PrivateSectionIndex (server/modules/media-server/private-sections.ts): which sections are a
// member's private library, read once and kept until media_library_sections is written (the
// version counter), a failed read tried again; and the bounded memo of items' sections.
import { describe, expect, it } from 'vitest';
import { PrivateSectionIndex } from '../../server/modules/media-server/private-sections.js';

function index(rows: Array<{ sectionKey: string; userId: string }>) {
  let version = 0;
  let reads = 0;
  let fail = false;
  let t = 0;
  const idx = new PrivateSectionIndex({
    store: {
      sectionOwners: async () => {
        reads++;
        if (fail) throw new Error('disk gone');
        return [...rows];
      },
    },
    version: () => version,
    now: () => t,
  });
  return { idx, bump: () => version++, reads: () => reads, failNext: (v: boolean) => (fail = v), advance: (ms: number) => (t += ms) };
}

describe('PrivateSectionIndex', () => {
  it('hides another member’s section from everyone but its owner, and nothing else', async () => {
    const { idx } = index([{ sectionKey: '7', userId: 'sam' }]);
    const robin = await idx.viewFor('robin');
    const sam = await idx.viewFor('sam');
    expect(robin.hidden('7')).toBe(true);
    expect(sam.hidden('7')).toBe(false);
    for (const v of [robin, sam]) for (const other of ['1', null, undefined]) expect(v.hidden(other)).toBe(false);
  });

  it('reads the store once until the sections are written, then once again', async () => {
    const rows = [{ sectionKey: '7', userId: 'sam' }];
    const t = index(rows);
    for (let i = 0; i < 5; i++) await t.idx.viewFor('robin');
    expect(t.reads()).toBe(1);
    rows.push({ sectionKey: '8', userId: 'robin' });
    t.bump();
    expect((await t.idx.viewFor('sam')).hidden('8')).toBe(true);
    await t.idx.viewFor('sam');
    expect(t.reads()).toBe(2);
  });

  it('a failed read is the caller’s error and the next call reads again', async () => {
    const t = index([{ sectionKey: '7', userId: 'sam' }]);
    t.failNext(true);
    await expect(t.idx.viewFor('robin')).rejects.toThrow('disk gone');
    t.failNext(false);
    expect((await t.idx.viewFor('robin')).hidden('7')).toBe(true);
  });

  it('remembers an item’s section (and its parents’) for a while', () => {
    const t = index([]);
    t.idx.remember([{ ratingKey: '300', parentRatingKey: '299', grandparentRatingKey: '298', librarySectionId: '7' }, { ratingKey: '400', librarySectionId: null }]);
    expect(['300', '299', '298'].map((k) => t.idx.sectionOf(k))).toEqual(['7', '7', '7']);
    expect(t.idx.sectionOf('400')).toBeUndefined();
    t.advance(11 * 60_000);
    expect(t.idx.sectionOf('300')).toBeUndefined();
  });
});
