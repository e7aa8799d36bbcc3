// createServer(config, overrides?) — the one way to start Hearth (Electron, `npm start`, tests).
// Staged start: open DB -> migrate -> container -> routes -> scheduler -> background boot.
// close() undoes each stage in reverse; a half-started server still closes cleanly.
import http from 'node:http';
import https from 'node:https';
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
  /**
   * Starts HTTP on `port`; HTTPS follows beside it on `config.httpsPort` (unless the household turned
   * it off) once the certificate is ready, which on a first start means making the household CA.
   */
  listen(port?: number, host?: string): Promise<{ port: number; url: string }>;
  /** Resolves when HTTPS has opened (its port and address) or could not (null). */
  secure(): Promise<{ port: number; url: string } | null>;
  close(): Promise<void>;
}

/**
 * Modern TLS only (Mozilla's "intermediate" profile): TLS 1.2 with forward-secret AEAD suites, and
 * TLS 1.3. Every browser and phone of the last several years speaks these.
 */
export const TLS_OPTIONS = {
  minVersion: 'TLSv1.2',
  maxVersion: 'TLSv1.3',
  ciphers: [
    'TLS_AES_128_GCM_SHA256',
    'TLS_AES_256_GCM_SHA384',
    'TLS_CHACHA20_POLY1305_SHA256',
    'ECDHE-ECDSA-AES128-GCM-SHA256',
    'ECDHE-RSA-AES128-GCM-SHA256',
    'ECDHE-ECDSA-AES256-GCM-SHA384',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-ECDSA-CHACHA20-POLY1305',
    'ECDHE-RSA-CHACHA20-POLY1305',
  ].join(':'),
} as const;

const urlOf = (scheme: 'http' | 'https', host: string, port: number) => {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `${scheme}://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
};

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
    // the admin's offline switch, in effect before any module starts or fetches
    await deps.offline.load();
    cleanups.push({ name: 'event bus', run: () => deps.bus.clear() });

    const app = express();
    app.locals.checkResponses = config.checkResponses;
    app.disable('x-powered-by');
    app.set('etag', false);
    app.use((_req, res, next) => {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Referrer-Policy', 'same-origin');
      next();
    });
    deps.tls.loadSettings();
    app.use(homeHostGuard({ host: config.host, allowed: (name) => deps.tls.hostAllowed(name) }));
    const api = createApiRouter(deps);
    app.use('/api', api.router);
    app.use('/docs', docsRouter(config.docsDir));
    // the plain address's pages may ask the secure address whether this device trusts it (the
    // same choice of name as the web app's features/trust/secure-address.ts)
    const secureOriginFor = (req: express.Request) => {
      const port = deps.tls.listeningPort;
      if (port === null) return null;
      const { dns, ips } = deps.tls.state().names;
      const host = (req.hostname ?? '').replace(/^\[|\]$/g, '').toLowerCase();
      const name = dns.includes(host) || ips.includes(host) ? host : dns.find((n) => n !== 'localhost');
      return name ? `https://${name.includes(':') ? `[${name}]` : name}:${port}` : null;
    };
    app.use(webAppRouter(config.webDir, { secureOrigin: secureOriginFor }));
    app.use(createErrorHandler(logger.child('http')));

    cleanups.push({ name: 'scheduler', run: () => deps.scheduler.stop() });
    cleanups.push({ name: 'outbound fetch', run: () => deps.guard.close() });
    // Each module closes in reverse start order, also one whose start never ran or failed (what it
    // built in the container may hold a worker, a timer or a child process); then each starts.
    for (const m of deps.modules) if (m.close) cleanups.push({ name: m.name, run: () => m.close?.() });
    cleanups.push({ name: 'event streams', run: () => deps.sse.closeAll() });
    for (const m of deps.modules) await m.start?.();

    /** Stops one listening server: idle connections at once, the rest after a grace period. */
    const stopServer = (server: http.Server) =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2000).unref();
      });

    const bind = (server: http.Server, port: number, host: string) =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve((server.address() as AddressInfo).port);
        });
      });

    // HTTPS beside HTTP, on the same app. The TLS context is swapped in place when the certificate is
    // renewed (no restart, open connections keep theirs); the port closes when the household turns
    // HTTPS off and opens again, on the same port, when it turns it back on.
    let secure: https.Server | null = null;
    let securePort = config.httpsPort;
    let secureHost = config.host;
    let secureChange: Promise<void> = Promise.resolve();
    const openSecure = async () => {
      const material = deps.tls.material();
      if (!material || secure) return;
      const server = https.createServer({ ...TLS_OPTIONS, ...material }, app);
      server.keepAliveTimeout = 65_000;
      try {
        securePort = await bind(server, securePort, secureHost);
        secure = server;
        deps.tls.setListeningPort(securePort);
      } catch (err) {
        // HTTP keeps serving: a busy HTTPS port must not keep the household out
        const e = err as NodeJS.ErrnoException;
        logger.warn({ code: e.code, port: securePort }, e.code === 'EADDRINUSE' ? `HTTPS port ${securePort} is already in use: set HTTPS_PORT to another port.` : `Could not open HTTPS: ${e.message}`);
      }
    };
    const closeSecure = async () => {
      const server = secure;
      secure = null;
      deps.tls.setListeningPort(null);
      if (server) await stopServer(server);
    };
    let listening = false;
    // changes are followed once HTTPS first opened (what init serves, openSecure picks up itself)
    let following = false;
    let secureReady: Promise<void> = Promise.resolve();
    const offChange = deps.tls.onChange(() => {
      if (!following) return;
      secureChange = secureChange.then(async () => {
        const material = deps.tls.material();
        if (!material) return closeSecure();
        if (secure) secure.setSecureContext({ ...TLS_OPTIONS, ...material });
        else await openSecure();
      });
      return secureChange;
    });
    cleanups.push({
      name: 'https',
      run: async () => {
        offChange();
        following = false;
        await secureReady;
        await secureChange;
        await closeSecure();
      },
    });

    const listen = async (port = config.port, host = config.host) => {
      const server = http.createServer(app);
      server.keepAliveTimeout = 65_000;
      const bound = await bind(server, port, host);
      cleanups.push({
        name: 'http',
        run: () => {
          deps.sse.closeAll();
          return stopServer(server);
        },
      });
      if (listening) return { port: bound, url: urlOf('http', host, bound) };
      // a second listen (none in Hearth) serves HTTP only
      secureHost = host;
      listening = true;
      // off the start path: a first start makes the household CA, which takes a moment
      secureReady = deps.tls
        .init()
        .then(openSecure)
        .catch((err: unknown) => logger.error({ err }, 'HTTPS could not start; Hearth answers over HTTP only'))
        .finally(() => {
          following = listening;
        });
      return { port: bound, url: urlOf('http', host, bound) };
    };

    const secureAddress = async () => {
      await secureReady;
      await secureChange;
      return secure ? { port: securePort, url: urlOf('https', secureHost, securePort) } : null;
    };

    return { app, deps, routes: api.table, listen, secure: secureAddress, close };
  } catch (err) {
    await close();
    throw err;
  }
}
