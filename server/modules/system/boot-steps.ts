// The system module's boot steps: the database answers, and what the machine offers.
import type { HardwareProbe } from '../../platform/hardware.js';
import type { BootStepDefinition } from './boot-service.js';

const GiB = 1024 ** 3;

export function bootSteps(deps: { pingDatabase: () => Promise<unknown>; migrations: number; hardware: HardwareProbe }): BootStepDefinition[] {
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
        const hw = await deps.hardware();
        return { status: 'ok', detail: `${hw.cpu.cores} cores, ${Math.round(hw.memoryBytes / GiB)} GB memory (${hw.platform}-${hw.arch})` };
      },
    },
  ];
}
