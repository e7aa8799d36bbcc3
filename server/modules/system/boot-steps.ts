// The system module's boot steps: the database answers, and what the machine offers.
import type { MachineSummary } from '../../platform/hardware.js';
import type { BootStepDefinition } from './boot-service.js';

const GiB = 1024 ** 3;

/**
 * `machine` is the hardware check's source: the os module's summary (cores, memory, platform), not
 * the full probe, whose GPU part shells out and is taken when a page or a job first needs it.
 */
export function bootSteps(deps: { pingDatabase: () => Promise<unknown>; migrations: number; machine: () => Promise<MachineSummary> }): BootStepDefinition[] {
  return [
    {
      key: 'db',
      label: 'Database',
      async run() {
        await deps.pingDatabase();
        return { status: 'ok', detail: `SQLite ready, ${deps.migrations} migrations applied` };
      },
    },
    {
      key: 'hardware',
      label: 'Hardware',
      async run() {
        const hw = await deps.machine();
        return { status: 'ok', detail: `${hw.cpu.cores} cores, ${Math.round(hw.memoryBytes / GiB)} GB memory (${hw.platform}-${hw.arch})` };
      },
    },
  ];
}
