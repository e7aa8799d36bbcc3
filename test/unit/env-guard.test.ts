// STYLE §2.1: config.ts is the only reader of the environment. Everything else gets a typed Config.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER_DIR = path.resolve(import.meta.dirname, '..', '..', 'server');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('process.env', () => {
  it('is mentioned by no file under server/ except server/config.ts', () => {
    const files = walk(SERVER_DIR).filter((f) => /\.(ts|js|mjs|cjs)$/.test(f));
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter((f) => path.relative(SERVER_DIR, f) !== 'config.ts' && /process\s*\.\s*env|process\s*\[\s*['"]env['"]\s*\]/.test(readFileSync(f, 'utf8')));
    expect(offenders.map((f) => path.relative(SERVER_DIR, f))).toEqual([]);
    expect(readFileSync(path.join(SERVER_DIR, 'config.ts'), 'utf8')).toContain('process.env');
  });
});
