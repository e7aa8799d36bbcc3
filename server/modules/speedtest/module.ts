// The LAN speed test (issue 38): LibreSpeed's protocol between a member's browser and Hearth
// (download, upload, ping and jitter), the results each device stored, and the household's history
// for admins. Only the local network is measured: no outside host is asked.
import { defineModule, type Platform } from '../module.js';
import type { SpeedtestPorts } from './ports.js';
import { createAdminSpeedtestRoutes, createSpeedtestRoutes } from './routes.js';
import { SpeedtestService } from './service.js';
import { SpeedtestStore } from './store.js';

export function createSpeedtestModule(p: Platform, ports: SpeedtestPorts) {
  const speedtest = new SpeedtestService({ store: new SpeedtestStore(p.db), users: ports.users, clock: p.clock });
  return defineModule({
    name: 'speedtest',
    routes: [
      { prefix: '/speedtest', routes: createSpeedtestRoutes(speedtest) },
      { prefix: '/admin/speedtest', routes: createAdminSpeedtestRoutes(speedtest) },
    ],
    services: { speedtest },
  });
}
