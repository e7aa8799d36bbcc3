// The search module: unified search over what each module contributes (modules/<x>/search-provider.ts),
// each provider answering for what the caller may see. Providers are gathered once every module is built.
import { defineModule, type Platform } from '../module.js';
import { createPageSearchProvider } from './pages.js';
import type { SearchPorts } from './ports.js';
import { createSearchRoutes } from './routes.js';
import { SearchProviderRegistry, SearchService } from './service.js';

export function createSearchModule(p: Platform, ports: SearchPorts) {
  const registry = new SearchProviderRegistry();
  const search = new SearchService({ registry, logger: p.logger.child('search'), budgetMs: p.tuning.searchBudgetMs });
  return defineModule({
    name: 'search',
    routes: [{ prefix: '/search', routes: createSearchRoutes(search) }],
    services: { search },
    searchProviders: [createPageSearchProvider({ isEnabled: (toolId) => ports.isEnabled(toolId) })],
    gather: (modules) => {
      registry.register(...modules.flatMap((m) => m.searchProviders ?? []));
    },
  });
}
