// Migrates a template database once per run; each test server starts from a copy of it
// (copying beats re-running every migration per test server).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../server/db/connection.js';
import { runMigrations } from '../../server/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDb: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-template-'));
  const file = path.join(dir, 'hearth.db');
  const db = createDb(file);
  await runMigrations(db);
  await db.raw('PRAGMA wal_checkpoint(TRUNCATE)');
  await db.destroy();
  project.provide('templateDb', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
