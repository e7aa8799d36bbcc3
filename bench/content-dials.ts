// What the content dials cost (issue 32): the same member's requests with their level at `teen`
// (the filter on: titles above PG-13/TV-14 and archives above teen are dropped) and at `adult` (the
// filter off: nothing is dropped; the dials are still read), in the same run, rounds alternating
// which goes first. Media feeds (GET /api/mediaserver/recent and /hubs against the fake Plex) and
// unified search over the fixture archives on the real kiwix-serve (GET /api/search?types=archive).
// Printed: p50 of each side per route, and off/on (target: at least 0.9x, the filter costing
// nothing a member notices).
// Measured 2026-12-03 (docs/benchmarks.md): /recent 1.13x, /hubs 1.05x, archive search 1.60x and 2.31x
// (faster with the filter on: an archive left out is not searched, a dropped title not resolved).
// Run: npm run bench -- content-dials   (CONTENT_BENCH_ROUNDS=6, CONTENT_BENCH_SAMPLES=40)
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { SYSTEM_ACTOR } from '../server/actor.js';
import { createServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { hashPin } from '../server/modules/auth/pin.js';
import { AuthStore } from '../server/modules/auth/store.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import { startFakeMediaServer } from '../test/fakes/media-server.js';
import { TestClient } from '../test/harness/client.js';
import { fixtureCatalog, installFixtureArchives } from '../test/harness/archives.js';
import { freePort } from '../test/harness/net.js';
import { mintSession } from '../test/harness/start-server.js';
import { makeTempDir } from '../test/harness/temp-dir.js';
import { buildTestZims, kiwixServeOnPath } from '../test/harness/zims.js';

const ROUNDS = Number(process.env.CONTENT_BENCH_ROUNDS ?? 6);
const SAMPLES = Number(process.env.CONTENT_BENCH_SAMPLES ?? 40);
const ROUTES = ['/api/mediaserver/recent?limit=24', '/api/mediaserver/hubs?limit=12', '/api/search?q=heater&types=archive', '/api/search?q=garden%20notes&types=archive'];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export async function run(): Promise<void> {
  const zims = buildTestZims();
  const temp = makeTempDir('hearth-bench-content-');
  const fake = await startFakeMediaServer();
  // a few titles above teen, so the filter has something to drop
  fake.setContentRating('103', 'R');
  fake.setContentRating('201', 'TV-MA');
  const catalogFile = fixtureCatalog(temp.dir, zims);
  const config = {
    ...loadConfig(
      {
        DATA_DIR: temp.dir,
        LOG_LEVEL: 'warn',
        MODEL_RUNTIME_URL: 'http://127.0.0.1:9',
        PATH: '',
        ARCHIVE_CATALOG_PATH: catalogFile,
        ARCHIVE_SERVER_PORT: String(await freePort()),
        KIWIX_SERVE_PATH: kiwixServeOnPath(),
        FETCH_ALLOW_ORIGINS: fake.url,
        MEDIA_ACCOUNT_URL: fake.accountUrl,
        MEDIA_DISCOVER_URL: fake.discoverUrl,
      },
      [],
    ),
    host: '127.0.0.1',
    port: 0,
  };
  const server = await createServer(config, { logger: createMemoryLogger('warn') });
  try {
    const { url } = await server.listen(0, '127.0.0.1');
    const { deps } = server;
    await deps.boot.start();
    await installFixtureArchives({ handle: server }, zims, temp.dir);
    const now = new Date().toISOString();
    await deps.archives.setContentLevel(SYSTEM_ACTOR, 'fixturebooks', 'adult');
    const users = new AuthStore(deps.db);
    const adminId = randomUUID();
    const memberId = randomUUID();
    const pinHash = await hashPin('1234', 'low');
    await users.insertUser({ id: adminId, name: 'Alex', role: 'admin', avatar: null, pinHash, createdAt: now, updatedAt: now });
    await users.insertUser({ id: memberId, name: 'Sam', role: 'member', avatar: null, pinHash, createdAt: now, updatedAt: now });
    const admin = new TestClient(url, await mintSession(server, adminId));
    const member = new TestClient(url, await mintSession(server, memberId));
    if ((await admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: fake.url, token: fake.tokens.admin })).status !== 200) throw new Error('connecting the fake Plex failed');
    const pin = await member.post('/api/mediaserver/auth/pin');
    fake.approvePin(pin.body.id, 'alice');
    if ((await member.post('/api/mediaserver/me/link', { pinId: pin.body.id })).status !== 200) throw new Error('linking the member failed');

    const setLevel = (level: 'teen' | 'adult') => deps.content.putMember(SYSTEM_ACTOR, memberId, { level });
    const time = async (route: string) => {
      const t0 = performance.now();
      const r = await member.get(route);
      if (r.status !== 200) throw new Error(`${route} answered ${r.status}`);
      return performance.now() - t0;
    };
    const samples: Record<string, { on: number[]; off: number[] }> = Object.fromEntries(ROUTES.map((r) => [r, { on: [], off: [] }]));
    // warm-up: resolutions cached, connections open, JIT
    for (const level of ['teen', 'adult'] as const) {
      await setLevel(level);
      for (const r of ROUTES) for (let i = 0; i < 5; i++) await time(r);
    }
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
      for (const side of order) {
        await setLevel(side === 'on' ? 'teen' : 'adult');
        for (const r of ROUTES) for (let i = 0; i < SAMPLES; i++) samples[r]![side].push(await time(r));
      }
    }
    console.log(`content dials: the same member at teen (filter on) vs adult (filter off), ${ROUNDS} rounds x ${SAMPLES} requests per route and side, one at a time over HTTP`);
    for (const r of ROUTES) {
      const on = median(samples[r]!.on);
      const off = median(samples[r]!.off);
      console.log(`  ${r.padEnd(44)} p50 on ${on.toFixed(2)} ms, off ${off.toFixed(2)} ms, off/on ${(off / on).toFixed(2)}x (target >= 0.9x)`);
    }
  } finally {
    await server.close();
    await fake.close();
    zims.remove();
    temp.remove();
  }
}
