// Once per run, before any test file: migrates a template database that each test server starts
// from a copy of (copying beats re-running every migration per test server), and names the folder
// the fixture ZIM archives are built in once and shared (test/harness/zims.ts).
//
// vitest calls a globalSetup once for the root config and once more for every project that
// inherits it; only the root's call does the work, and the projects read what it provides.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../server/db/connection.js';
import { runMigrations } from '../../server/db/migrate.js';
import { SHARED_ZIMS_ENV } from './zims.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDb: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  if (!project.isRootProject()) return undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-template-'));
  const file = path.join(dir, 'hearth.db');
  const db = createDb(file);
  await runMigrations(db);
  await db.raw('PRAGMA wal_checkpoint(TRUNCATE)');
  await db.destroy();
  project.provide('templateDb', file);

  // the workers inherit this process's environment, so every test file sees the same folder
  const zimsDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-zims-run-'));
  process.env[SHARED_ZIMS_ENV] = zimsDir;

  return () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(zimsDir, { recursive: true, force: true });
    delete process.env[SHARED_ZIMS_ENV];
  };
}
