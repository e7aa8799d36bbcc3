// GET /api/notifications/unread-count under load: 50 concurrent clients on loopback, against
// GET /api/system/ready (no session, no query) on the same server in the same run as the baseline.
// The database holds 20,000 notifications across 20 members so the count has real rows to skip.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { createServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import { makeTempDir } from '../test/harness/temp-dir.js';

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);

function load(url: string, headers: Record<string, string> = {}) {
  return autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
}

export async function run(): Promise<void> {
  const temp = makeTempDir('hearth-bench-');
  const config = { ...loadConfig({ DATA_DIR: temp.dir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: 'http://127.0.0.1:9', PATH: '' }, []), host: '127.0.0.1', port: 0 };
  const server = await createServer(config, { logger: createMemoryLogger('warn') });
  try {
    const { url } = await server.listen(0, '127.0.0.1');
    await server.deps.boot.start();
    const admin = await server.deps.auth.createFirstAdmin('Alex', '1234');
    const memberIds: string[] = [];
    for (let i = 0; i < 20; i++) memberIds.push((await server.deps.auth.createUser({ kind: 'system' }, { name: `Member ${i}`, pin: '5678', role: 'member' })).id);
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      id: randomUUID(),
      user_id: i % 10 === 0 ? null : memberIds[i % memberIds.length],
      type: 'system',
      payload: '{}',
      read_at: i % 3 === 0 ? new Date().toISOString() : null,
      created_at: new Date(Date.now() - i * 1000).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 500) await server.deps.db('notifications').insert(rows.slice(i, i + 500));
    const cookie = `session=${admin.token}`;

    const base = await load(`${url}/api/system/ready`);
    const unread = await load(`${url}/api/notifications/unread-count`, { cookie });
    if (unread.non2xx > 0) throw new Error(`unread-count answered ${unread.non2xx} non-2xx responses`);
    console.log(`unread-count (${CONNECTIONS} concurrent clients, ${DURATION_S} s each, 20,000 notifications, signed-in admin)`);
    console.log(`  baseline GET /api/system/ready:       ${base.requests.average.toFixed(0)} req/s, p99 ${base.latency.p99} ms`);
    console.log(`  GET /api/notifications/unread-count:  ${unread.requests.average.toFixed(0)} req/s, p99 ${unread.latency.p99} ms`);
    console.log(`  ratio to baseline:                    ${(unread.requests.average / base.requests.average).toFixed(2)}x throughput`);
  } finally {
    await server.close();
    temp.remove();
  }
}
