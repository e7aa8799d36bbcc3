// The system module: the boot sequence (its own steps first, then each module's in start order),
// readiness and the addresses other devices use. Listed last: its start begins the boot.
import { ReplayChannel } from '../../http/sse.js';
import type { MachineSummary } from '../../platform/hardware.js';
import { defineModule, type Platform } from '../module.js';
import { BootService, type BootEvent, type BootStepDefinition } from './boot-service.js';
import { bootSteps } from './boot-steps.js';
import { createSystemRoutes } from './routes.js';

export function createSystemModule(p: Platform, ports: { machine: () => Promise<MachineSummary> }) {
  const steps: BootStepDefinition[] = bootSteps({ pingDatabase: () => p.db.raw('select 1'), migrations: p.migrations, machine: ports.machine });
  const boot = new BootService({ channel: new ReplayChannel<BootEvent>(), logger: p.logger.child('boot'), steps });
  return defineModule({
    name: 'system',
    routes: [{ prefix: '/system', routes: createSystemRoutes(boot, p.sse, { host: p.config.host, interfaces: p.networkInterfaces }) }],
    services: { boot },
    gather: (modules) => {
      steps.push(...modules.flatMap((m) => m.bootSteps ?? []));
    },
    // the boot runs in the background after the server listens (GET /api/system/ready answers 503 until it is done)
    start: async () => {
      void boot.start();
    },
    close: () => boot.stop(),
  });
}
