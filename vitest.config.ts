import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// Each project has a time budget for one `vitest run --project <name>` on a 2-core machine
// (docs/architecture.md, "Tests and their budgets", keeps the same table and the latest
// measurements). A project over its budget is split or its slowest files made cheaper; a new file
// goes to the project whose kind of work it does, not to the one with room left.

/** Capture tests drive a real Chromium and jsdom (capture engine, parse worker, conformance corpus). */
const CAPTURE_TESTS = ['test/api/capture*.test.ts'];

export default defineConfig({
  test: {
    // API tests mostly wait on I/O and scrypt's thread pool, and an e2e file leaves a core partly
    // idle: two files at a time even on a 2-core machine (vitest's default of cores - 1 would run
    // them one by one there).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './test/harness/summary-reporter.ts'],
    globalSetup: ['test/harness/global-setup.ts'],
    projects: [
      {
        // budget 30 s (11 s): pure logic, no server, no network
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' },
      },
      {
        // budget 90 s (87 s): a real server on port 0 with fakes; no browser
        extends: true,
        test: {
          name: 'api',
          include: ['test/api/**/*.test.ts', 'test/store/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...CAPTURE_TESTS],
          setupFiles: ['test/harness/network.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // budget 120 s (44 s): the capture engine against real Chromium and jsdom, CPU-bound
        extends: true,
        test: {
          name: 'capture',
          include: CAPTURE_TESTS,
          setupFiles: ['test/harness/network.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // budget 180 s (187 s on 2026-11-26): the web app in Chromium against a test server (needs
        // `npm run build:web`)
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          setupFiles: ['test/harness/network.ts'],
          testTimeout: 90_000,
          hookTimeout: 60_000,
          // Two files at a time (the root's maxWorkers): alone on 2 cores the project took 289 s one
          // file at a time and 187 s two at a time (2026-11-26). fileParallelism: false also put it
          // in a one-worker group that vitest runs after all the other projects.
        },
      },
    ],
  },
});
