// PrivateSectionIndex (server/modules/media-server/private-sections.ts): which sections are a
// member's private library, read once and kept until media_library_sections is written (the
// version counter), a failed read tried again; and the bounded memo of items' sections.
import { describe, expect, it } from 'vitest';
import type { Level } from '../../server/modules/content/schema.js';
import { ratingAllowed } from '../../server/modules/content/public.js';
import { PrivateSectionIndex } from '../../server/modules/media-server/private-sections.js';

function index(rows: Array<{ sectionKey: string; userId: string }>, levels: Record<string, Level> = {}) {
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
    mediaLevel: async (userId) => levels[userId] ?? 'adult',
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

  it('sees(): a title within the member\'s Media level, never another member\'s private one, always their own (issue 32)', async () => {
    const { idx } = index([{ sectionKey: '7', userId: 'sam' }], { kid: 'child', sam: 'teen' });
    const kid = await idx.viewFor('kid');
    const sam = await idx.viewFor('sam');
    const adult = await idx.viewFor('robin');
    const item = (contentRating: string | null, librarySectionId = '1') => ({ librarySectionId, contentRating });
    expect(kid.sees(item('PG'))).toBe(true);
    expect(kid.sees(item('PG-13'))).toBe(false);
    expect(sam.sees(item('PG-13'))).toBe(true);
    expect(sam.sees(item('R'))).toBe(false);
    expect(adult.sees(item('R'))).toBe(true);
    // no rating counts as adult
    expect(sam.sees(item(null))).toBe(false);
    expect(adult.sees(item(null))).toBe(true);
    // Sam's own home videos carry no rating and are his; nobody else sees them, an adult neither
    expect(sam.sees(item(null, '7'))).toBe(true);
    expect(adult.sees(item('G', '7'))).toBe(false);
  });

  it('ratingAllowed: the ceilings per level', () => {
    for (const r of ['G', 'PG', 'TV-Y', 'TV-Y7', 'TV-G', 'TV-PG', 'tv-pg']) expect(ratingAllowed('child', r), r).toBe(true);
    for (const r of ['PG-13', 'TV-14', 'R', 'TV-MA', 'NC-17', 'NR', '', null, undefined]) expect(ratingAllowed('child', r), String(r)).toBe(false);
    for (const r of ['G', 'PG-13', 'TV-14']) expect(ratingAllowed('teen', r), r).toBe(true);
    for (const r of ['R', 'TV-MA', 'NC-17', 'Unrated', null]) expect(ratingAllowed('teen', r), String(r)).toBe(false);
    for (const r of ['R', 'TV-MA', null]) expect(ratingAllowed('adult', r), String(r)).toBe(true);
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
