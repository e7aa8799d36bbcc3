// One shape for every module: each folder under server/modules has a module.ts whose manifest the
// container lists, every route of the API comes from a manifest, and what a module offers others
// (its services, reached by tests as handle.deps) is never one of its stores.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const modulesDir = path.resolve(import.meta.dirname, '../../server/modules');
const folders = readdirSync(modulesDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

describe('module manifests', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it('every module folder has a module.ts, and the container lists each once', () => {
    expect(folders.filter((f) => !existsSync(path.join(modulesDir, f, 'module.ts')))).toEqual([]);
    const names = s.handle.deps.modules.map((m) => m.name);
    expect([...names].sort()).toEqual(folders);
    expect(new Set(names).size).toBe(names.length);
  });

  it('every route of the API is declared by a manifest', () => {
    const declared = s.handle.deps.modules.flatMap((m) => (m.routes ?? []).flatMap((r) => r.routes.table.map((t) => `${t.method} /api${r.prefix}${t.path === '/' ? '' : t.path}`)));
    expect(declared.sort()).toEqual(s.handle.routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('no module offers one of its stores', () => {
    const stores = s.handle.deps.modules.flatMap((m) =>
      Object.entries(m.services)
        .filter(([, service]) => /Store$/.test((service as object).constructor.name))
        .map(([name]) => `${m.name}.${name}`),
    );
    expect(stores).toEqual([]);
  });
});
