// Access is checked through the helpers of server/actor.ts (isAdmin, assertAdmin, isOwner,
// ownedOrNotFound), so a module copied from another copies the check, not a hand-written variant
// of it. Only actor.ts itself and the auth module (which makes actors) compare a role by hand.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '../../server');
const ALLOWED = [path.join('actor.ts'), path.join('modules', 'auth') + path.sep];

describe('access checks', () => {
  it('compares no role by hand outside server/actor.ts and the auth module', () => {
    const found: string[] = [];
    for (const entry of readdirSync(serverDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const file = path.relative(serverDir, path.join(entry.parentPath, entry.name));
      if (ALLOWED.some((a) => file === a || file.startsWith(a))) continue;
      const lines = readFileSync(path.join(serverDir, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/\bactor\??\.role\b/.test(line)) found.push(`${file}:${i + 1}`);
      });
    }
    expect(found).toEqual([]);
  });
});
