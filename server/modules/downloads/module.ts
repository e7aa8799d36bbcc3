// The downloads module: the household's one durable download queue (models, archives, LoRAs).
import { defineModule, type Platform } from '../module.js';
import { DOWNLOADS_FAILED, failedDownloadsText } from './failures.js';
import { createDownloadExecutor } from './jobs.js';
import type { DownloadsPorts } from './ports.js';
import { DownloadQueueState } from './queue-state.js';
import { createJobRoutes, createQueueAdminRoutes } from './routes.js';
import { DownloadRunner } from './runner.js';
import { DownloadsService } from './service.js';
import { DownloadJobsStore } from './store.js';

export function createDownloadsModule(p: Platform, ports: DownloadsPorts) {
  const { config, tuning } = p;
  const store = new DownloadJobsStore(p.db);
  // The queue state (paused, where a destination lies) is built first and handed to both the
  // runner and the service, so neither needs the other to exist first.
  const state = new DownloadQueueState({ settings: p.settings, dataDir: config.dataDir });
  const runner = new DownloadRunner({
    store,
    clock: p.clock,
    logger: p.logger.child('downloads'),
    bus: p.bus,
    isPaused: state.isPaused,
    isOffline: () => p.offline.isOn(),
    backoffBaseMs: tuning.downloadBackoffBaseMs,
    execute: createDownloadExecutor({
      guard: p.guard,
      // the models module's one place models are pulled (shared with boot's repairs); asked for
      // at each model job, the models module being built after this one
      pulls: { ensure: (model, opts) => ports.pulls().ensure(model, opts) },
      destinationPath: state.destinationPath,
      stallTimeoutMs: tuning.downloadStallTimeoutMs,
      headersFor: (job) => ports.headersFor(job),
    }),
  });
  const downloads = new DownloadsService({ store, runner, state, clock: p.clock, dataDir: config.dataDir, offline: p.offline, disk: p.diskSpace });
  let stopListening: (() => void) | undefined;
  ports.conditions.watch(DOWNLOADS_FAILED, () => failedDownloadsText(downloads));

  return defineModule({
    name: 'downloads',
    storageAreas: [{ key: 'models', label: 'AI models', folders: ['models'] }],
    // `/jobs` is shared with the features module's enqueue route; `/admin/queue` is the admin's view
    routes: [
      { prefix: '/jobs', routes: createJobRoutes(downloads) },
      { prefix: '/admin/queue', routes: createQueueAdminRoutes(downloads) },
    ],
    services: { downloads },
    listeners: [
      // a download that failed for good tells the admins (again, unread, when another one fails)
      {
        event: 'download.failed',
        run: async () => {
          const text = await failedDownloadsText(downloads);
          if (text) await ports.conditions.raise(DOWNLOADS_FAILED, text, { unread: true });
        },
      },
    ],
    // offline mode switched on parks the outbound downloads under way; switched off, the queue looks again
    start: async () => {
      stopListening = p.offline.onChange((on) => void (on ? runner.parkOutbound() : runner.poke()));
      await runner.start();
    },
    close: async () => {
      stopListening?.();
      await runner.stop();
    },
  });
}
