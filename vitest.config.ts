import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/harness/sequencer.js';

// Each project has a time budget for one `vitest run --project <name>` on a 2-core machine
// (docs/benchmarks.md, "Tests and their budgets", keeps the same table and the latest
// measurements). A project over its budget is split or its slowest files made cheaper; a new file
// goes to the project whose kind of work it does, not to the one with room left.

/** Capture tests drive a real Chromium and jsdom (capture engine, parse worker, conformance corpus). */
const CAPTURE_TESTS = ['test/api/capture*.test.ts'];

export default defineConfig({
  test: {
    // One file more than there are cores (3 on a 2-core machine). An e2e file leaves part of a core
    // idle while its page and server wait on each other, and the api files fill that: on 2 cores the
    // whole run took 398 s and 412 s two files at a time, 346 s three at a time and 332 s three at a
    // time in the sequencer's order (2026-11-26). Each project alone gains nothing from the third
    // file (api 97 s, e2e 194 s), since alone its files are all of one kind.
    maxWorkers: availableParallelism() + 1,
    // capture and e2e files first, then api, then unit: see test/harness/sequencer.ts
    sequence: { sequencer: LongestFirstSequencer },
    reporters: ['default', './test/harness/summary-reporter.ts'],
    globalSetup: ['test/harness/global-setup.ts'],
    projects: [
      {
        // budget 30 s (5 s on 2026-11-26; 11-13 s with a fresh module graph per file): pure logic,
        // no server, no network. The files share their workers' modules (isolate: false), so a unit
        // test leaves nothing behind: fake timers are put back, nothing is vi.mock-ed and no global or
        // process.env is changed (all 61 files pass in one worker too: --maxWorkers=1).
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node', isolate: false },
      },
      {
        // budget 90 s (62 s on 2026-11-26, three files at a time; 99 s with a fresh module graph per
        // file): a real server on port 0 with fakes; no browser
        extends: true,
        test: {
          name: 'api',
          include: ['test/api/**/*.test.ts', 'test/store/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...CAPTURE_TESTS],
          setupFiles: ['test/harness/network.ts'],
          // The files share their workers' modules, as the unit files do: each file no longer
          // imports the whole server again (vitest's import time for the project fell from 73 s to
          // 9 s, the project alone from 99 s to 62 s on 2026-11-26). Every test server is its own
          // createServer() with its own data dir and container, so no state lives in a module; the
          // one spy (sign-in-limits) and the one process.env change (test-zims) are put back.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // budget 120 s (50 s on 2026-11-26): the capture engine against real Chromium and jsdom,
        // CPU-bound
        extends: true,
        test: {
          name: 'capture',
          include: CAPTURE_TESTS,
          setupFiles: ['test/harness/network.ts'],
          // every project shares its workers' modules (see api): vitest runs projects of another
          // isolation in a group of their own, so api's files waited for the last e2e file
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // budget 180 s (183 s on 2026-11-26 sharing modules, 194 s without; 187 s two at a time): the web app
        // in Chromium against a test server (needs `npm run build:web`)
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          setupFiles: ['test/harness/network.ts'],
          isolate: false,
          testTimeout: 90_000,
          hookTimeout: 60_000,
          // As many files at a time as the root's maxWorkers: alone on 2 cores the project took 289 s
          // one file at a time, 187 s two at a time and 194 s three at a time (2026-11-26).
          // fileParallelism: false would also put it in a one-worker group that vitest runs after all
          // the other projects.
        },
      },
    ],
  },
});
