// createServer(config, overrides?) — the one way to start Hearth (Electron, `npm start`, tests).
// Staged start: open DB -> migrate -> container -> routes -> scheduler -> background boot.
// close() undoes each stage in reverse; a half-started server still closes cleanly.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express, { type Express } from 'express';
import type { Config } from './config.js';
import { buildContainer, type Deps, type Overrides } from './container.js';
import { createDb } from './db/connection.js';
import { runMigrations } from './db/migrate.js';
import { createApiRouter } from './http/api-router.js';
import { createErrorHandler } from './http/error-handler.js';
import { homeHostGuard } from './http/guards.js';
import type { RouteInfo } from './http/routes.js';
import { docsRouter, webAppRouter } from './http/static.js';
import { createLogger } from './platform/logger.js';

export interface ServerHandle {
  app: Express;
  deps: Deps;
  routes: RouteInfo[];
  listen(port?: number, host?: string): Promise<{ port: number; url: string }>;
  close(): Promise<void>;
}

export async function createServer(config: Config, overrides: Overrides = {}): Promise<ServerHandle> {
  const cleanups: Array<{ name: string; run: () => Promise<void> | void }> = [];
  const logger = overrides.logger ?? createLogger({ level: config.logLevel, dir: path.join(config.dataDir, 'logs') });
  let closing: Promise<void> | null = null;

  const close = (): Promise<void> => {
    closing ??= (async () => {
      for (const c of cleanups.reverse()) {
        try {
          await c.run();
        } catch (err) {
          logger.error({ err, stage: c.name }, 'error while closing');
        }
      }
      cleanups.length = 0;
      logger.flush();
    })();
    return closing;
  };

  try {
    const db = createDb(path.join(config.dataDir, 'hearth.db'));
    cleanups.push({ name: 'database', run: () => db.destroy() });
    await runMigrations(db);
    const migrations = Number(((await db('knex_migrations').count({ n: '*' }).first()) as { n: number } | undefined)?.n ?? 0);

    const deps = buildContainer({ config, logger, db, migrations }, overrides);
    cleanups.push({ name: 'event bus', run: () => deps.bus.clear() });
    cleanups.push({ name: 'rate limits', run: () => Object.values(deps.limits).forEach((l) => l.close()) });

    const app = express();
    app.locals.checkResponses = config.checkResponses;
    app.disable('x-powered-by');
    app.set('etag', false);
    app.use((_req, res, next) => {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Referrer-Policy', 'same-origin');
      next();
    });
    app.use(homeHostGuard({ host: config.host }));
    const api = createApiRouter(deps);
    app.use('/api', api.router);
    app.use('/docs', docsRouter(config.docsDir));
    app.use(webAppRouter(config.webDir));
    app.use(createErrorHandler(logger.child('http')));

    cleanups.push({ name: 'scheduler', run: () => deps.scheduler.stop() });
    cleanups.push({ name: 'outbound fetch', run: () => deps.guard.close() });
    cleanups.push({ name: 'media server clients', run: () => deps.mediaClients.close() });
    await deps.runner.start();
    cleanups.push({ name: 'download queue', run: () => deps.runner.stop() });
    cleanups.push({ name: 'archive server', run: () => deps.archives.stop() });
    // closed first (cleanups run in reverse): running archive downloads stop before their server
    cleanups.push({ name: 'archive downloads', run: () => deps.archiveDownloads.stop() });
    await deps.readerQueue.start();
    // parks a running capture (it resumes at the next start), then closes the shared browser
    cleanups.push({
      name: 'reader captures',
      run: async () => {
        await deps.readerQueue.stop();
        await deps.captureEngine.close();
      },
    });
    // the label reader's worker thread (started on the first identify)
    cleanups.push({ name: 'label OCR', run: () => deps.homeOcr.close() });
    // the inventory import's worker thread (started on the first import)
    cleanups.push({ name: 'inventory imports', run: () => deps.home.transfer.close() });
    // image generation's local edits (auto colour, adjust) run in their own worker thread
    cleanups.push({ name: 'image edits', run: () => deps.imageEditTasks.close() });
    cleanups.push({ name: 'image engine', run: () => deps.imageRuntime.stop() });
    // running inventory lookups are aborted and stay pending; resumePending starts them at the next start
    cleanups.push({
      name: 'home inventory lookups',
      run: async () => {
        await deps.homeLookup.close();
        await deps.webSearch.close();
      },
    });
    await deps.homeLookup.resumePending();
    // members' libraries a stopped Hearth left half set up carry on where they were
    await deps.mediaExport.start();
    cleanups.push({ name: 'media provisioning', run: () => deps.mediaExport.stop() });
    // pictures a stopped Hearth left half-made cannot finish (the engine queue lives in memory)
    await deps.image.artifacts.failLeftovers();
    cleanups.push({ name: 'boot', run: () => deps.boot.stop() });
    cleanups.push({ name: 'event streams', run: () => deps.sse.closeAll() });
    void deps.boot.start();

    const listen = (port = config.port, host = config.host) =>
      new Promise<{ port: number; url: string }>((resolve, reject) => {
        const server = http.createServer(app);
        server.keepAliveTimeout = 65_000;
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          cleanups.push({
            name: 'http',
            run: () =>
              new Promise<void>((done) => {
                deps.sse.closeAll();
                server.close(() => done());
                server.closeIdleConnections();
                // anything still open after a grace period is cut
                setTimeout(() => server.closeAllConnections(), 2000).unref();
              }),
          });
          const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
          resolve({ port: address.port, url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${address.port}` });
        });
      });

    return { app, deps, routes: api.table, listen, close };
  } catch (err) {
    await close();
    throw err;
  }
}
