// Shared by entry.ts (Electron utilityProcess) and cli.ts (headless): load config, start, listen,
// say where to connect, report ready to a parent process, and shut down cleanly on signals.
import { createServer } from './app.js';
import { loadConfig } from './config.js';
import { lanUrls } from './platform/lan.js';

export { lanUrls };

interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

export async function runServer(argv: string[] = process.argv.slice(2)): Promise<void> {
  let config;
  try {
    config = loadConfig(undefined, argv); // undefined: config.ts reads the environment itself
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  const server = await createServer(config);
  const logger = server.deps.logger;
  let address: { port: number };
  try {
    address = await server.listen();
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    logger.fatal({ code: e.code }, e.code === 'EADDRINUSE' ? `Port ${config.port} is already in use: set PORT to another port.` : `Could not listen: ${e.message}`);
    await server.close();
    process.exit(1);
  }
  const urls = lanUrls(config.host, address.port);
  logger.info({ dataDir: config.dataDir }, `Hearth is running: open ${urls.join(' or ')} on any device in the house`);
  const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;
  parentPort?.postMessage({ type: 'ready', port: address.port, urls });
  void server.secure().then((secure) => {
    if (secure) logger.info({ port: secure.port }, `Secure address (after a device trusts the household certificate, see /trust): port ${secure.port}`);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // the desktop host asks instead of signalling: utilityProcess.kill() is a hard terminate on
  // Windows, which would leave the sidecars running
  parentPort?.on('message', (event) => {
    if ((event.data as { type?: unknown } | null)?.type === 'stop') stop('desktop host');
  });
}
