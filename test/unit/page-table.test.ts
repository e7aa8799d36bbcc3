// The pages' one table (renderer/src/app/page-table.ts, gathered from each feature's routes.ts), which the start-up loader inlined in
// index.html reads without React or react-router: its small path matcher answers as the router's
// matchPath does for every path in it, and each page's component is loaded from the module the table
// names (the build looks that module's chunk up to ask for it early).
import { readFileSync } from 'node:fs';
import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { firstDataFor, matchPagePath, PAGE_TABLE, pageAt, seesShell, SHELL_PREFETCH } from '../../renderer/src/app/page-table.js';

/** Locations to try each table path against: its own shapes, and every other path's. */
function locationsFor(path: string): string[] {
  const filled = `/${path}`.replace(/:[\w-]+/g, 'abc-123').replace(/\/\*$/, '');
  return [
    filled,
    `${filled}/`,
    `${filled}//`,
    filled.toUpperCase(),
    `${filled}/more`,
    `${filled}/more/deeper`,
    `/${path}`.replace(/:[\w-]+/g, 'a%20b%2Fc').replace(/\/\*$/, ''),
    `/${path}`.replace(/:[\w-]+/g, '').replace(/\/\*$/, ''),
    `/x${filled}`,
    filled.slice(0, -1),
  ];
}

describe('the page table', () => {
  const paths = PAGE_TABLE.map((p) => p.path);
  const locations = [...new Set([...paths.flatMap(locationsFor), '/', '', '/profiles', '/setup', '/read/wiki/A/Some_page', '/chat', '/chat/42'])];

  it('matches a location as react-router does, for every path in it', () => {
    expect(paths.length).toBeGreaterThan(30);
    let matched = 0;
    for (const path of paths) {
      for (const location of locations) {
        const theirs = matchPath({ path: `/${path}`, end: true }, location);
        const ours = matchPagePath(path, location);
        const where = `${path} at ${location}`;
        if (!theirs) {
          expect(ours, where).toBeNull();
          continue;
        }
        matched++;
        // the router hands a page its params decoded
        const decoded = Object.fromEntries(Object.entries(theirs.params).map(([k, v]) => [k, decodeURIComponent(v ?? '')]));
        expect(ours, where).toEqual(decoded);
      }
    }
    expect(matched).toBeGreaterThan(paths.length * 3);
  });

  it('opens the first page whose path matches, as the router ranks them', () => {
    expect(pageAt('/inventory/warranties')?.page.id).toBe('inventory-warranties');
    expect(pageAt('/inventory/fridge')?.params).toEqual({ id: 'fridge' });
    expect(pageAt('/reader')?.page.id).toBe('saved-reader');
    expect(pageAt('/reader/abc')?.page.id).toBe('reader-article');
    expect(pageAt('/')?.page.id).toBe('home');
    expect(pageAt('/profiles')).toBeNull();
  });

  it("names, for each page, the module its view loads (the feature's pages.ts)", () => {
    // read, not imported: a feature's pages.ts is the React side
    const features = [...new Set(PAGE_TABLE.map((p) => p.module.split('/')[1]!))];
    const loadedFrom = new Map<string, string>();
    for (const feature of features) {
      const source = readFileSync(new URL(`../../renderer/src/features/${feature}/pages.ts`, import.meta.url), 'utf8');
      for (const m of source.matchAll(/^ {2}'?([\w-]+)'?: \{[^]*?load: \(\) => import\('\.\/([^']+)'\)/gm)) loadedFrom.set(m[1]!, `features/${feature}/${m[2]!}`);
    }
    expect([...loadedFrom.keys()].sort()).toEqual(PAGE_TABLE.map((p) => p.id).sort());
    for (const page of PAGE_TABLE) expect(loadedFrom.get(page.id), page.id).toBe(page.module);
    // and the app lists every feature's views beside its routes
    const app = readFileSync(new URL('../../renderer/src/app/pages.tsx', import.meta.url), 'utf8');
    for (const feature of features) expect(app, feature).toContain(`from '../features/${feature}/pages'`);
  });

  it("asks for a signed-in person's first screen: the page's first GETs if they may open it, and the shell's", () => {
    expect(firstDataFor('/reader', '', 'member')).toEqual(['/api/reader?limit=60', '/api/reader/collections', '/api/reader/tags', ...SHELL_PREFETCH]);
    expect(firstDataFor('/reader', '?q=bread', 'member')).toEqual([...SHELL_PREFETCH]);
    expect(firstDataFor('/reader/a%20b', '', 'member')[0]).toBe('/api/reader/a%20b');
    expect(firstDataFor('/members', '', 'member')).toEqual([...SHELL_PREFETCH]);
    expect(firstDataFor('/members', '', 'admin')).toEqual(['/api/admin/users', ...SHELL_PREFETCH]);
    expect(firstDataFor('/profiles', '', 'member')).toEqual([...SHELL_PREFETCH]);
  });

  it('says who sees the shell: someone signed in, and an admin once the welcome is done', () => {
    const done = { needsAdmin: false, welcomeComplete: true };
    expect(seesShell(done, { role: 'member' })).toBe(true);
    expect(seesShell(done, null)).toBe(false);
    expect(seesShell({ needsAdmin: false, welcomeComplete: false }, { role: 'admin' })).toBe(false);
    expect(seesShell({ needsAdmin: false, welcomeComplete: false }, { role: 'member' })).toBe(true);
    expect(seesShell({ needsAdmin: true, welcomeComplete: true }, { role: 'member' })).toBe(false);
  });
});
