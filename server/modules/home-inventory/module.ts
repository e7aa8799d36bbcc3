// The home inventory module (/api/home): devices, their files and manuals, warranties, the web
// lookup, identify from a label photo, Ask the manual, maintenance drafts, import and export.
import { createWebSearchClient } from '../../adapters/web-search/searxng.js';
import { createSsrfGuard } from '../../platform/ssrf.js';
import { ParseWorker } from '../../platform/workers/parse-worker.js';
import { defineModule, type Platform } from '../module.js';
import { createHomeAiRoutes, type HomeAiServices } from './ai-routes.js';
import { HomeAskService } from './ask-service.js';
import { createHomeInventoryTool } from './chat-tool.js';
import { HomeDeviceFilesService } from './device-files-service.js';
import { inventoryToolChecks, inventoryTools } from './extensions.js';
import { InventoryFiles } from './files.js';
import { HomeIdentifyService } from './identify-service.js';
import { createHomeLookupRoutes } from './lookup-routes.js';
import { HomeLookupService } from './lookup-service.js';
import { HomeMaintenanceService } from './maintenance-service.js';
import { ManualService } from './manual-service.js';
import { LabelOcr } from './ocr.js';
import { PDF_TASKS_MODULE, PdfTasks } from './pdf-tasks.js';
import { CSV_TASKS_MODULE, CsvTasks } from './csv-tasks.js';
import { WebSearchSetting } from './web-search-setting.js';
import type { HomeInventoryPorts } from './ports.js';
import { createHomeInventoryRoutes, type HomeInventoryServices } from './routes.js';
import { createDeviceSearchProvider } from './search-provider.js';
import { HomeDevicesService } from './service.js';
import { HomeInventoryStore } from './store.js';
import { HomeTransferService } from './transfer-service.js';
import { HomeWarrantiesService, WARRANTY_SWEEP_MS, WARRANTY_SWEEP_TASK } from './warranties-service.js';

export function createHomeInventoryModule(p: Platform, ports: HomeInventoryPorts) {
  const { config, tuning, clock, guard } = p;
  const logger = p.logger.child('home-inventory');
  const store = new HomeInventoryStore(p.db);
  const files = new InventoryFiles(config.dataDir);
  const homeManuals = new ManualService({
    store,
    files,
    guard,
    pdf: new PdfTasks(new ParseWorker({ handlers: PDF_TASKS_MODULE, taskTimeoutMs: tuning.manualExtractMs ?? 60_000, logger })),
    clock,
    logger,
    extractTimeoutMs: tuning.manualExtractMs,
  });
  // The web lookup: the household's own search server (often on the LAN) is reached through a guard
  // that lets exactly its origin through; what it finds goes through the one guard.
  // WEB_SEARCH_URL (trusted: whoever started Hearth set it, often on the LAN) wins; otherwise the
  // address an admin sets in the web app, reached through the household's guard like any fetch
  const webSearch = new WebSearchSetting({
    settings: p.settings,
    guard,
    environmentUrl: config.webSearchUrl ?? null,
    fromEnvironment: config.webSearchUrl
      ? createWebSearchClient({
          baseUrl: config.webSearchUrl,
          guard: createSsrfGuard({ allowOrigins: [...config.fetchAllowOrigins, new URL(config.webSearchUrl).origin], offline: p.offline }),
          timeoutMs: tuning.webSearchTimeoutMs,
        })
      : null,
    clientFor: (url) =>
      createWebSearchClient({ baseUrl: url, guard: createSsrfGuard({ allowOrigins: config.fetchAllowOrigins, offline: p.offline }), timeoutMs: tuning.webSearchTimeoutMs }),
  });
  const homeLookup = new HomeLookupService({
    store,
    files,
    manuals: homeManuals,
    search: webSearch,
    guard,
    offline: p.offline,
    runtime: p.modelRuntime,
    picker: ports.models,
    backgroundTextModel: () => ports.backgroundTextModel(),
    clock,
    logger,
  });
  const devices = new HomeDevicesService({ store, files, auth: ports.users, clock, logger, lookup: homeLookup });
  const home: HomeInventoryServices = {
    devices,
    files: new HomeDeviceFilesService({ store, files, devices, manuals: homeManuals, clock, logger }),
    warranties: new HomeWarrantiesService({ store, notifications: ports.notifications, clock, logger }),
    // an import's file is read in its own worker thread, started on the first import
    transfer: new HomeTransferService({ store, clock, csv: new CsvTasks(new ParseWorker({ handlers: CSV_TASKS_MODULE, taskTimeoutMs: 60_000, logger })) }),
  };
  // the AI part: the one label reader (a tesseract.js worker), identify, Ask the manual, maintenance drafts
  const homeOcr = new LabelOcr({ logger, budgetMs: tuning.ocrBudgetMs });
  const homeAi: HomeAiServices = {
    identify: new HomeIdentifyService({ store, files, ocr: homeOcr, models: ports.models, runtime: p.modelRuntime, clock, logger, modelTimeoutMs: tuning.inventoryModelMs }),
    ask: new HomeAskService({ store, models: ports.models, runtime: p.modelRuntime, logger, modelTimeoutMs: tuning.inventoryModelMs }),
    maintenance: new HomeMaintenanceService({ store, clock }),
  };

  return defineModule({
    name: 'home-inventory',
    routes: [
      { prefix: '/home', routes: createHomeInventoryRoutes(home) },
      { prefix: '/home', routes: createHomeAiRoutes(homeAi, p.sse) },
      { prefix: '/home', routes: createHomeLookupRoutes(homeLookup, devices, webSearch) },
    ],
    services: { home, homeOcr, homeManuals, homeLookup, webSearch },
    tasks: [{ name: WARRANTY_SWEEP_TASK, everyMs: WARRANTY_SWEEP_MS, run: () => home.warranties.sweep() }],
    chatTools: [createHomeInventoryTool({ store, clock })],
    searchProviders: [createDeviceSearchProvider({ devices, isEnabled: () => ports.isEnabled('inventory') })],
    extensions: { definitions: inventoryTools, checks: inventoryToolChecks({ chatReadiness: ports.chatReadiness }) },
    // lookups a stopped Hearth left pending start again
    start: () => homeLookup.resumePending(),
    // running lookups are aborted and stay pending; the label reader's worker thread ends
    close: async () => {
      await homeOcr.close();
      await home.transfer.close();
      await homeLookup.close();
      await webSearch.close();
    },
  });
}
