import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // API tests mostly wait on I/O and scrypt's thread pool: two files at a time even on a
    // 2-core machine (vitest's default of cores - 1 would run them one by one there).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './test/harness/summary-reporter.ts'],
    globalSetup: ['test/harness/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['test/api/**/*.test.ts', 'test/store/**/*.test.ts'],
          setupFiles: ['test/harness/network.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          setupFiles: ['test/harness/network.ts'],
          testTimeout: 90_000,
          hookTimeout: 60_000,
          // one browser at a time on a 2-core machine
          fileParallelism: false,
        },
      },
    ],
  },
});
