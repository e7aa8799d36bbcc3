// The connectivity module (issue 39): Admin › Connectivity — the addresses phones open Hearth at,
// one cached internet check, each outside source's last outcome (gathered from every module's
// `outboundSources`), and offline mode as a household setting (platform/offline-switch.ts, which the
// SSRF guard and every module read at each call).
import type { OutboundSourceReport } from '../../platform/outside-sources/fetcher.js';
import { defineModule, type Platform } from '../module.js';
import { createConnectivityAdminRoutes, createConnectivityRoutes } from './routes.js';
import { ConnectivityService } from './service.js';

export function createConnectivityModule(p: Platform) {
  let sources: OutboundSourceReport[] = [];
  const connectivity = new ConnectivityService({
    offline: p.offline,
    guard: p.guard,
    checkUrl: p.config.connectivityCheckUrl,
    clock: p.clock,
    logger: p.logger.child('connectivity'),
    host: p.config.host,
    interfaces: p.networkInterfaces,
    httpsPort: () => p.tls.listeningPort,
    sources: () => sources,
    checkTtlMs: p.tuning.connectivityCheckTtlMs,
  });
  return defineModule({
    name: 'connectivity',
    routes: [
      { prefix: '/connectivity', routes: createConnectivityRoutes(connectivity) },
      { prefix: '/admin/connectivity', routes: createConnectivityAdminRoutes(connectivity, p.config.port) },
    ],
    services: { connectivity },
    gather: (modules) => {
      sources = modules.flatMap((m) => m.outboundSources ?? []);
    },
  });
}
