// The tools module: the app store. Each module contributes its Extensions (modules/<x>/extensions.ts)
// and how each says it is available; they are gathered here once every module is built.
import { defineModule, type Platform } from '../module.js';
import type { ToolsPorts } from './ports.js';
import { ToolRegistry } from './registry.js';
import { createAppStoreRoutes, createToolRoutes } from './routes.js';
import type { AvailabilityCheck } from './schema.js';
import { createToolSearchProvider } from './search-provider.js';
import { ToolsService } from './service.js';
import { ToolSettingsStore } from './store.js';

export function createToolsModule(p: Platform, ports: ToolsPorts) {
  const registry = new ToolRegistry();
  const checks: Record<string, AvailabilityCheck> = {};
  const tools = new ToolsService({ registry, store: new ToolSettingsStore(p.db, () => p.clock.now()), notifications: ports.notifications, checks });
  return defineModule({
    name: 'tools',
    routes: [
      { prefix: '/tools', routes: createToolRoutes(tools) },
      { prefix: '/app-store', routes: createAppStoreRoutes(tools) },
    ],
    services: { tools },
    searchProviders: [createToolSearchProvider({ tools })],
    gather: (modules) => {
      for (const m of modules) {
        if (!m.extensions) continue;
        registry.register(...m.extensions.definitions);
        Object.assign(checks, m.extensions.checks);
      }
      registry.register(...(ports.extraDefinitions ?? []));
    },
  });
}
