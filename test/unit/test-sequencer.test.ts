// The order test files are handed to the workers in (test/harness/sequencer.ts): capture and e2e
// files first, then api, then unit, and within a project vitest's own order (longest last time
// first, or largest first when there is no last time, as on a fresh clone).
import type { TestSpecification, Vitest } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import LongestFirstSequencer from '../harness/sequencer.js';

const ROOT = '/repo';

function spec(project: string, file: string): TestSpecification {
  return { moduleId: `${ROOT}/${file}`, project: { name: project, config: { sequence: { groupOrder: 0 }, isolate: true } } } as unknown as TestSpecification;
}

/** A vitest context with a results cache: `durations` from a last run, else file sizes. */
function context(sizes: Record<string, number>, durations: Record<string, number> = {}): Vitest {
  const cache = {
    getFileTestResults: (key: string) => (key in durations ? { duration: durations[key], failed: false } : undefined),
    getFileStats: (key: string) => (key in sizes ? { size: sizes[key] } : undefined),
  };
  return { config: { root: ROOT }, cache } as unknown as Vitest;
}

const order = async (ctx: Vitest, files: TestSpecification[]) => (await new LongestFirstSequencer(ctx).sort(files)).map((s) => `${s.project.name}:${s.moduleId.slice(ROOT.length + 1)}`);

describe('the test sequencer', () => {
  const files = [
    spec('unit', 'test/unit/a.test.ts'),
    spec('api', 'test/api/small.test.ts'),
    spec('api', 'test/api/big.test.ts'),
    spec('e2e', 'test/e2e/small.test.ts'),
    spec('capture', 'test/api/capture.test.ts'),
    spec('e2e', 'test/e2e/big.test.ts'),
  ];

  it('hands out capture and e2e files before api and unit ones, largest first on a fresh clone', async () => {
    const sizes = {
      'unit:test/unit/a.test.ts': 900,
      'api:test/api/small.test.ts': 100,
      'api:test/api/big.test.ts': 800,
      'e2e:test/e2e/small.test.ts': 200,
      'capture:test/api/capture.test.ts': 50,
      'e2e:test/e2e/big.test.ts': 700,
    };
    expect(await order(context(sizes), files)).toEqual([
      'capture:test/api/capture.test.ts',
      'e2e:test/e2e/big.test.ts',
      'e2e:test/e2e/small.test.ts',
      'api:test/api/big.test.ts',
      'api:test/api/small.test.ts',
      'unit:test/unit/a.test.ts',
    ]);
  });

  it('within a project, the file that took longest last time goes first', async () => {
    const sizes = Object.fromEntries(files.map((f) => [`${f.project.name}:${f.moduleId.slice(ROOT.length + 1)}`, 1]));
    const durations = { 'e2e:test/e2e/small.test.ts': 30_000, 'e2e:test/e2e/big.test.ts': 5_000, 'api:test/api/small.test.ts': 2_000, 'api:test/api/big.test.ts': 1_000, 'unit:test/unit/a.test.ts': 1, 'capture:test/api/capture.test.ts': 1 };
    expect((await order(context(sizes, durations), files)).slice(1, 5)).toEqual(['e2e:test/e2e/small.test.ts', 'e2e:test/e2e/big.test.ts', 'api:test/api/small.test.ts', 'api:test/api/big.test.ts']);
  });
});
