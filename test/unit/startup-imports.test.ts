// The server's start-up budget (bench/startup.ts: ready < 1.5 s, idle RSS < 150 MB) depends on not
// loading the heavy capture stack at start: Playwright, jsdom, Readability, DOMPurify and sharp are
// imported on the first capture (server/modules/reader/capture/lazy.ts). This walks the static import
// graph from the server's entry points and fails if any of them becomes reachable again.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const HEAVY = ['playwright-core', 'jsdom', '@mozilla/readability', 'dompurify', 'sharp'];

/** Value imports and re-exports of a file (`import type` is erased by the compiler). */
function staticImports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?([\s\S]*?)\s+from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const m of src.matchAll(re)) {
    if (m[5]) {
      out.push(m[5]);
      continue;
    }
    // `import type` is erased; with verbatimModuleSyntax `import { type A } from` is kept (as a bare import)
    if (m[2]) continue;
    out.push(m[4]!);
  }
  return out;
}

function resolveLocal(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && candidate.endsWith('.ts')) return candidate;
  }
  return null;
}

/** Every package reachable through static imports from the entry, with one path that reaches it. */
function reachablePackages(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, trail: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) {
        const next = resolveLocal(file, spec);
        if (next) walk(next, [...trail, path.relative(ROOT, next)]);
      } else if (!spec.startsWith('node:')) {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!packages.has(pkg)) packages.set(pkg, trail);
      }
    }
  };
  walk(entry, [path.relative(ROOT, entry)]);
  return packages;
}

describe('start-up imports', () => {
  for (const entry of ['server/cli.ts', 'server/run.ts', 'server/app.ts']) {
    it(`${entry} does not load the capture stack at start`, () => {
      const file = path.join(ROOT, entry);
      const packages = reachablePackages(file);
      // the walk really follows the graph: the core stack is there
      expect([...packages.keys()]).toEqual(expect.arrayContaining(['express', 'knex', 'zod', 'pino']));
      const heavy = HEAVY.filter((p) => packages.has(p)).map((p) => `${p} via ${packages.get(p)!.join(' -> ')}`);
      expect(heavy).toEqual([]);
    });
  }

  it('would notice the capture engine imported statically', () => {
    const packages = reachablePackages(path.join(ROOT, 'server/modules/reader/capture/engine.ts'));
    expect(HEAVY.filter((p) => packages.has(p)).sort()).toEqual([...HEAVY].sort());
  });
});
