// startBenchServer(): a real Hearth for a benchmark — a temporary DATA_DIR, warn-level memory
// logging, listening on 127.0.0.1, booted, with the admin Alex (1234) and the member Sam (5678)
// signed in. `config` is given the data folder (a catalog written beside the database, say).
import { createServer } from '../server/app.js';
import type { Config } from '../server/config.js';
import { loadConfig } from '../server/config.js';
import type { Deps, Overrides } from '../server/container.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import { makeTempDir } from '../test/harness/temp-dir.js';

export interface SignedIn {
  id: string;
  token: string;
  /** The session cookie and this server's Origin, as the web app sends them. */
  headers: { cookie: string; origin: string };
}

export interface BenchServer {
  url: string;
  deps: Deps;
  config: Config;
  dataDir: string;
  admin: SignedIn;
  member: SignedIn;
  /** Stops the server and removes the data folder. */
  close(): Promise<void>;
}

export async function startBenchServer(opts: { name: string; env?: Record<string, string>; config?: (dataDir: string) => Partial<Config>; overrides?: Overrides }): Promise<BenchServer> {
  const temp = makeTempDir(`hearth-bench-${opts.name}-`);
  const config: Config = { ...loadConfig({ DATA_DIR: temp.dir, LOG_LEVEL: 'warn', PATH: '', ...opts.env }, []), host: '127.0.0.1', port: 0, ...opts.config?.(temp.dir) };
  let server: Awaited<ReturnType<typeof createServer>> | null = null;
  try {
    server = await createServer(config, { logger: createMemoryLogger('warn'), ...opts.overrides });
    const { url } = await server.listen(0, '127.0.0.1');
    const { deps } = server;
    await deps.boot.start();
    const signedIn = (s: { user: { id: string }; token: string }): SignedIn => ({ id: s.user.id, token: s.token, headers: { cookie: `session=${s.token}`, origin: url } });
    const admin = signedIn(await deps.auth.createFirstAdmin('Alex', '1234'));
    const memberId = (await deps.auth.createUser({ kind: 'system' }, { name: 'Sam', pin: '5678', role: 'member' })).id;
    const member = signedIn(await deps.auth.verifyPin(memberId, '5678', '127.0.0.1'));
    const running = server;
    return {
      url,
      deps,
      config,
      dataDir: temp.dir,
      admin,
      member,
      close: async () => {
        await running.close();
        temp.remove();
      },
    };
  } catch (err) {
    await server?.close();
    temp.remove();
    throw err;
  }
}
