// Dates, times and numbers on screen go through the household's locale (renderer/src/ui/locale.ts
// `fmt()`), so the admin's language, zone, date order and clock apply everywhere. A page that
// formats by hand (toLocaleString, toLocaleDateString, toLocaleTimeString) shows the browser's
// conventions instead: this scan names every such file outside ui/locale.ts.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const src = path.join(root, 'renderer/src');
const ALLOWED = new Set(['ui/locale.ts']);
const HAND_FORMAT = /\.toLocale(?:Date|Time)?String\s*\(/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return sources(p);
    return /\.(ts|tsx)$/.test(d.name) ? [p] : [];
  });
}

describe('formatting by hand in the web app', () => {
  it('the pattern catches what it is meant to, and not toLocaleUpperCase', () => {
    expect(HAND_FORMAT.test('new Date(x).toLocaleDateString(undefined, {})')).toBe(true);
    expect(HAND_FORMAT.test('n.toLocaleString()')).toBe(true);
    expect(HAND_FORMAT.test('d.toLocaleTimeString ()')).toBe(true);
    expect(HAND_FORMAT.test("name.charAt(0).toLocaleUpperCase('en')")).toBe(false);
  });

  it('no file outside ui/locale.ts calls toLocaleString, toLocaleDateString or toLocaleTimeString', () => {
    const files = sources(src);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files
      .map((f) => path.relative(src, f).split(path.sep).join('/'))
      .filter((rel) => !ALLOWED.has(rel) && HAND_FORMAT.test(readFileSync(path.join(src, rel), 'utf8')));
    expect(offenders, 'format with fmt() from renderer/src/ui/locale.ts').toEqual([]);
  });
});
