// startTestServer(): a real Hearth on 127.0.0.1:0 with a temp DATA_DIR (copied from the migrated
// template), optional fakes, and a signed-in client per household member.
import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { createServer, type ServerHandle } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';
import type { Overrides, Tuning } from '../../server/container.js';
import type { HardwareProfile } from '../../server/platform/hardware.js';
import { createMemoryLogger, type MemoryLogger } from '../../server/platform/logger.js';
import { TestClient } from './client.js';
import { makeTempDir } from './temp-dir.js';

export const ADMIN = { name: 'Alex', pin: '1234' } as const;
export const MEMBER = { name: 'Sam', pin: '5678' } as const;

/**
 * The machine every test server sees unless a test passes overrides.hardware: fixed, so no test
 * depends on (or waits for) probing the real one (systeminformation takes most of a second).
 */
export const TEST_HARDWARE: HardwareProfile = {
  platform: 'linux',
  arch: 'x64',
  cpu: { brand: 'Test CPU', cores: 4 },
  memoryBytes: 16 * 1024 ** 3,
  gpus: [],
  appleSiliconGeneration: null,
  diskFreeBytes: 200 * 1024 ** 3,
};

/**
 * Every test connects from 127.0.0.1, so the per-client request limits would count a whole test
 * file as one device; tests of the limits themselves pass their own numbers.
 */
export const TEST_TUNING: Tuning = { signInRequestsPerMinute: 10_000, setupRequestsPerMinute: 10_000 };

/** A loopback port nothing listens on: adapters pointed here see "connection refused". */
export const CLOSED_URL = 'http://127.0.0.1:9';

export interface PublicUser {
  id: string;
  name: string;
  role: 'admin' | 'member';
}

export interface StartOptions {
  /** 'household' creates an admin (Alex/1234) and a member (Sam/5678) and signs both in. */
  seed?: 'empty' | 'household';
  config?: Partial<Config>;
  overrides?: Overrides;
  /** Reuse a data dir (restart tests); it is not removed on close. */
  dataDir?: string;
  /** Wait until boot has finished (default true). */
  waitForBoot?: boolean;
}

export interface TestServer {
  url: string;
  handle: ServerHandle;
  config: Config;
  dataDir: string;
  logger: MemoryLogger;
  anon: TestClient;
  admin: TestClient;
  member: TestClient;
  users: { admin: PublicUser; member: PublicUser };
  /** A new client, signed in as the user with that PIN. */
  signIn(userId: string, pin: string): Promise<TestClient>;
  close(): Promise<void>;
}

export function testConfig(dataDir: string, extra: Partial<Config> = {}): Config {
  const base = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'debug', MODEL_RUNTIME_URL: CLOSED_URL, PATH: '' }, []);
  return { ...base, host: '127.0.0.1', port: 0, ...extra };
}

export async function startTestServer(opts: StartOptions = {}): Promise<TestServer> {
  const temp = opts.dataDir ? null : makeTempDir();
  const dataDir = opts.dataDir ?? temp!.dir;
  const dbFile = path.join(dataDir, 'hearth.db');
  if (!existsSync(dbFile)) copyFileSync(inject('templateDb'), dbFile);
  const config = testConfig(dataDir, opts.config);
  const logger = createMemoryLogger();
  const handle = await createServer(config, {
    logger,
    hardware: async () => TEST_HARDWARE,
    ...opts.overrides,
    tuning: { ...TEST_TUNING, ...opts.overrides?.tuning },
  });
  const { url } = await handle.listen(0, '127.0.0.1');
  if (opts.waitForBoot !== false) await handle.deps.boot.start();

  const anon = new TestClient(url);
  const signIn = async (userId: string, pin: string) => {
    const c = new TestClient(url);
    const r = await c.post('/api/auth/verify-pin', { userId, pin });
    if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${r.text}`);
    return c;
  };

  let admin = new TestClient(url);
  let member = new TestClient(url);
  const users = {} as TestServer['users'];
  if (opts.seed === 'household') {
    const a = await admin.post('/api/setup/admin', ADMIN);
    if (a.status !== 201) throw new Error(`seeding admin failed: ${a.status} ${a.text}`);
    users.admin = a.body.user;
    const m = await admin.post('/api/admin/users', { ...MEMBER, role: 'member' });
    if (m.status !== 201) throw new Error(`seeding member failed: ${m.status} ${m.text}`);
    users.member = m.body.user;
    member = await signIn(users.member.id, MEMBER.pin);
  } else {
    admin = new TestClient(url);
  }

  return {
    url,
    handle,
    config,
    dataDir,
    logger,
    anon,
    admin,
    member,
    users,
    signIn,
    async close() {
      await handle.close();
      temp?.remove();
    },
  };
}
