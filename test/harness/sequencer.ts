// The order the test files are handed to the workers in: the projects whose files take longest
// first (capture, then e2e), then api, then unit, each sorted as vitest sorts it (the longest last
// time first, or the largest file when there is no last time, as on a fresh clone in CI).
//
// vitest's own order is by project name (api, capture, e2e, unit). The long browser files then
// started two thirds of the way in and the run ended on them; now they start at once, the api files
// fill the workers beside them, and the run ends on the small unit files, which leave no worker
// waiting long for the last one. Measurements: docs/benchmarks.md, "Tests and their budgets".
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const PROJECT_ORDER = ['capture', 'e2e', 'api', 'unit'];

const rank = (spec: TestSpecification) => {
  const i = PROJECT_ORDER.indexOf(spec.project.name);
  return i === -1 ? PROJECT_ORDER.length : i;
};

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable: within a project vitest's order stays as it was
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
