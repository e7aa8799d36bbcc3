// startTestServer(): a real Hearth on 127.0.0.1:0 with a temp DATA_DIR (copied from the migrated
// template), optional fakes, and a signed-in client per household member. The household is written
// through the auth store and its sessions minted there, without HTTP and without scrypt per server;
// the sign-in over HTTP itself is what test/api/auth.test.ts and users.test.ts exercise (signIn()).
// PINs are hashed at the low test cost unless a test passes config.pinHashCost 'standard' (the tests
// of signing in: auth, users, sign-in-limits).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { createServer, type ServerHandle } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';
import type { Overrides, Tuning } from '../../server/container.js';
import { SESSION_COOKIE } from '../../server/http/auth.js';
import { hashPin, type PinHashCost } from '../../server/modules/auth/pin.js';
import { SESSION_TTL_MS } from '../../server/modules/auth/schema.js';
import { AuthStore } from '../../server/modules/auth/store.js';
import type { HardwareProfile } from '../../server/platform/hardware.js';
import { createMemoryLogger, type MemoryLogger } from '../../server/platform/logger.js';
import { TestClient } from './client.js';
import { CLOSED_URL } from './net.js';
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
// Tests switch the model runtime fake up and down between requests, so each readiness question looks again.
export const TEST_TUNING: Tuning = { signInRequestsPerMinute: 10_000, setupRequestsPerMinute: 10_000, runtimeLookTtlMs: 0 };

export { CLOSED_URL };

/** For the tests of signing in itself: PINs hashed at the real cost, as in a household. */
export const REAL_PIN_COST = { pinHashCost: 'standard' } as const satisfies Partial<Config>;

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
  /** Listen on this port (a server started again where a browser expects it); default any free one. */
  port?: number;
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
  // PINs are hashed cheaply (scrypt's real cost is ~70 ms of CPU a hash, hundreds of hashes a run);
  // the tests of signing in itself pass `config: { pinHashCost: 'standard' }`.
  const base = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'debug', MODEL_RUNTIME_URL: CLOSED_URL, PATH: '', HEARTH_CHECK_RESPONSES: '1', HEARTH_TEST: '1', PIN_HASH_COST: 'low' }, []);
  // HTTPS on any free port; the computer is `my-computer`, so the household certificate (and the host
  // guard) name my-computer and my-computer.local whatever machine the suite runs on
  return { ...base, host: '127.0.0.1', port: 0, httpsPort: 0, hostName: 'my-computer', ...extra };
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
  const { url } = await handle.listen(opts.port ?? 0, '127.0.0.1');
  // HTTPS opens beside it once the household certificate is ready (on a first start: made, with the
  // X.509 library loaded once per worker); a test starts after that, so the work never competes
  // with what the test times (a download's stall timer, a latency under load)
  await handle.secure();
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
    users.admin = await seedUser(handle, ADMIN, 'admin', config.pinHashCost);
    users.member = await seedUser(handle, MEMBER, 'member', config.pinHashCost);
    admin = new TestClient(url, await mintSession(handle, users.admin.id));
    member = new TestClient(url, await mintSession(handle, users.member.id));
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

// PIN hashes are computed once per test file and cost (at the standard cost scrypt takes ~32 MB and
// tens of milliseconds each); every server in the file stores the same real hash, made at the
// server's own config.pinHashCost, so signing in with the PIN over HTTP works and costs what it would.
const pinHashes = new Map<string, Promise<string>>();
function pinHash(pin: string, cost: PinHashCost): Promise<string> {
  const key = `${cost}:${pin}`;
  let hash = pinHashes.get(key);
  if (!hash) {
    hash = hashPin(pin, cost);
    pinHashes.set(key, hash);
  }
  return hash;
}

/** Writes a household member through the auth store, as POST /api/setup/admin and /api/admin/users would. */
async function seedUser(handle: ServerHandle, who: { name: string; pin: string }, role: PublicUser['role'], cost: PinHashCost): Promise<PublicUser> {
  const now = handle.deps.clock.now().toISOString();
  const user = { id: randomUUID(), name: who.name, role, avatar: null, pinHash: await pinHash(who.pin, cost), createdAt: now, updatedAt: now };
  await new AuthStore(handle.deps.db).insertUser(user);
  return { id: user.id, name: user.name, role };
}

/**
 * A session for a seeded user, stored through the auth store as a sign-in would store it; returns
 * the Cookie header value. The auth service resolves it before it is handed out, so a change in how
 * sessions are kept fails here, loudly, rather than in every test.
 */
export async function mintSession(handle: ServerHandle, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = handle.deps.clock.now();
  await new AuthStore(handle.deps.db).insertSession({
    id: randomUUID(),
    tokenHash: createHash('sha256').update(token).digest('hex'),
    userId,
    createdAt: now.toISOString(),
    lastSeenAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
    userAgent: null,
  });
  const resolved = await handle.deps.auth.resolveSession(token);
  if (resolved?.actor.id !== userId) throw new Error('a minted session does not resolve: has the session scheme changed? (test/harness/start-server.ts)');
  return `${SESSION_COOKIE}=${token}`;
}
