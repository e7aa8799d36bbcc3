// The server's boundary rules in eslint.config.js, proved on probes: each rule fires on an import it
// forbids and stays quiet on the import it allows, linted with the repository's own config (ESLint's
// Node API, the probe's file path picking the rules). Type information is switched off for the
// probes (their paths are not in any tsconfig): it feeds only the promise rules, not the boundaries.
// The web app's rules have their probes in lint-rules-web.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BOUNDARY_RULES = ['hearth/module-boundaries', 'no-restricted-imports'];

const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { project: null, projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
});

/** The boundary rules that fire on `code` as if it were the file at `file`. */
async function boundaryHits(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath: path.join(root, file) });
  expect(result!.messages.filter((m) => m.fatal)).toEqual([]);
  return result!.messages.filter((m) => m.ruleId !== null && BOUNDARY_RULES.includes(m.ruleId)).map((m) => m.ruleId!);
}

interface Probe {
  rule: string;
  file: string;
  bad: string;
  good: string;
}

const PROBES: Record<string, Probe> = {
  "a module imports another module's store (store.ts)": {
    rule: 'hearth/module-boundaries',
    file: 'server/modules/chat/service.ts',
    bad: "import { ToolsStore } from '../tools/store.js';",
    good: "import { ChatStore } from './store.js';",
  },
  "a module imports another module's <part>-store.ts": {
    rule: 'hearth/module-boundaries',
    file: 'server/modules/home-inventory/service.ts',
    bad: "import { LibraryStore } from '../media-server/library-store.js';",
    good: "import { InventoryStore } from './store.js';",
  },
  'a file outside the modules imports a store': {
    rule: 'hearth/module-boundaries',
    file: 'server/container.ts',
    bad: "import { ConnectionStore } from './modules/media-server/connection-store.js';",
    good: "import { createMediaServerModule } from './modules/media-server/module.js';",
  },
  "a module's routes import its own store": {
    rule: 'hearth/module-boundaries',
    file: 'server/modules/media-server/library-routes.ts',
    bad: "import { LibraryStore } from './library-store.js';",
    good: "import type { LibraryService } from './library-service.js';",
  },
  "a module's service-side file in a subfolder reaches another module's store": {
    rule: 'hearth/module-boundaries',
    file: 'server/modules/reader/capture/engine.ts',
    bad: "import { ChatStore } from '../../chat/store.js';",
    good: "import { ReaderStore } from '../store.js';",
  },
  "a module imports another module's inner file": {
    rule: 'hearth/module-boundaries',
    file: 'server/modules/chat/service.ts',
    bad: "import { buildMatch } from '../reader/files.js';",
    good: "import { buildMatch } from '../search/public.js';",
  },
  "a module imports another module's schema.ts (allowed) or its routes": {
    rule: 'hearth/module-boundaries',
    file: 'server/modules/setup/schema.ts',
    bad: "import { createFeatureRoutes } from '../features/routes.js';",
    good: "import { FeatureStatus } from '../features/schema.js';",
  },
  "a subfolder file imports another module's inner file": {
    rule: 'hearth/module-boundaries',
    file: 'server/modules/reader/capture/engine.ts',
    bad: "import { clip } from '../../search/text.js';",
    good: "import { clip } from '../../search/public.js';",
  },
  "a module imports another module's service as a value (its type is allowed)": {
    rule: 'hearth/module-boundaries',
    file: 'server/modules/home-layout/service.ts',
    bad: "import { AuthService } from '../auth/service.js';",
    good: "import type { AuthService } from '../auth/service.js';",
  },
  "a module imports another module's <part>-service.ts as a value": {
    rule: 'hearth/module-boundaries',
    file: 'server/modules/models/boot-steps.ts',
    bad: "import { BootService } from '../system/boot-service.js';",
    good: "import { type BootService } from '../system/boot-service.js';",
  },
  'an adapter imports a module': {
    rule: 'no-restricted-imports',
    file: 'server/adapters/image-engine/comfyui.ts',
    bad: "import type { BuiltGraph } from '../../modules/image-gen/workflow-graph.js';",
    good: "import type { SsrfGuard } from '../../platform/ssrf.js';",
  },
  'an adapter imports server/errors.ts': {
    rule: 'no-restricted-imports',
    file: 'server/adapters/media-server/plex.ts',
    bad: "import { AppError } from '../../errors.js';",
    good: "import { lazyImport } from '../../platform/lazy.js';",
  },
  'a <part>-store.ts imports a service or express': {
    rule: 'no-restricted-imports',
    file: 'server/modules/media-server/export-store.ts',
    bad: "import type { ExportService } from './export-service.js';",
    good: "import type { Knex } from 'knex';",
  },
  'routes import knex or an adapter': {
    rule: 'no-restricted-imports',
    file: 'server/modules/media-server/proxy-routes.ts',
    bad: "import { createPlexClient } from '../../adapters/media-server/plex.js';",
    good: "import { defineRoutes } from '../../http/routes.js';",
  },
  'a service imports express': {
    rule: 'no-restricted-imports',
    file: 'server/modules/media-server/library-service.ts',
    bad: "import type { Request } from 'express';",
    good: "import type { ReplayChannel } from '../../http/sse.js';",
  },
};

describe('server boundary rules fire on a probe and allow the permitted import', () => {
  // loading the config and the parser takes seconds on a busy machine: once, before the probes
  beforeAll(() => eslint.lintText('export {};\n', { filePath: path.join(root, 'server/probe.ts') }), 60_000);
  for (const [name, p] of Object.entries(PROBES)) {
    it(name, async () => {
      expect(await boundaryHits(p.file, p.bad)).toEqual([p.rule]);
      expect(await boundaryHits(p.file, p.good)).toEqual([]);
    });
  }
});

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|cts|mts|js)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

it('no eslint-disable comment anywhere waives a boundary rule', () => {
  const waived = ['server', 'renderer/src', 'main']
    .flatMap(sourceFiles)
    .filter((f) => /eslint-disable[^\n]*(no-restricted-imports|hearth\/)/.test(readFileSync(f, 'utf8')))
    .map((f) => path.relative(root, f));
  expect(waived).toEqual([]);
});
