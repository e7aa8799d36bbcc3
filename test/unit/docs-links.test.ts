// The household docs hang together: every page in docs/ (but the contributors' architecture and benchmarks pages)
// is linked from docs/index.md, every relative link in the docs and the README reaches a file, and
// each feature with its own page is linked from both the index and the README where the feature is
// named (the household's Plex: docs/media.md).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOCS = path.join(ROOT, 'docs');
const pages = readdirSync(DOCS).filter((f) => f.endsWith('.md'));
/** Relative Markdown link targets of a file (no scheme, no in-page anchors), anchors dropped. */
const links = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^[a-z]+:/i.test(t) && !t.startsWith('#') && !t.startsWith('/'))
    .map((t) => t.split('#')[0]!);

describe('household docs', () => {
  it('every relative link in docs/ and the README reaches a file', () => {
    const broken: string[] = [];
    for (const file of [...pages.map((p) => path.join(DOCS, p)), path.join(ROOT, 'README.md')]) {
      for (const target of links(file)) if (!existsSync(path.resolve(path.dirname(file), target))) broken.push(`${path.relative(ROOT, file)} -> ${target}`);
    }
    expect(broken).toEqual([]);
  });

  it('the index links every household page', () => {
    const linked = new Set(links(path.join(DOCS, 'index.md')));
    expect(pages.filter((p) => p !== 'index.md' && p !== 'architecture.md' && p !== 'benchmarks.md' && !linked.has(p))).toEqual([]);
  });

  it('the household’s Plex has its page, linked from the index and the README', () => {
    expect(pages).toContain('media.md');
    expect(links(path.join(DOCS, 'index.md'))).toContain('media.md');
    expect(links(path.join(ROOT, 'README.md'))).toContain('docs/media.md');
  });
});
