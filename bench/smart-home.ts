// Smart home (issue 37): Hearth keeping 2,000 Home Assistant entities in memory while the fake
// changes 50 of them a second (subscribe_entities diffs, fanned out to an open member stream), and
// an action's round trip through Hearth (POST /api/home-assistant/entities/:id/action: rights,
// WebSocket call_service, the activity log) against calling the fake over its WebSocket directly,
// in the same run. Printed: the event-loop delay p99 during the changes (target < 30 ms), and the
// p50 of both round trips with what Hearth adds (target < 10 ms).
// Run: npm run bench -- smart-home   (HA_BENCH_SECONDS=10, HA_BENCH_ACTIONS=200)
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { createServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { hashPin } from '../server/modules/auth/pin.js';
import { AuthStore } from '../server/modules/auth/store.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import { startFakeHomeAssistant, type FakeEntitySeed } from '../test/fakes/home-assistant.js';
import { TestClient } from '../test/harness/client.js';
import { until } from '../test/harness/net.js';
import { connectSse } from '../test/harness/sse-client.js';
import { mintSession } from '../test/harness/start-server.js';
import { makeTempDir } from '../test/harness/temp-dir.js';

const ENTITIES = 2_000;
const CHANGES_PER_S = 50;
const SECONDS = Number(process.env.HA_BENCH_SECONDS ?? 10);
const ACTIONS = Number(process.env.HA_BENCH_ACTIONS ?? 200);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** call_service straight to the fake over its WebSocket: the baseline. */
async function directClient(url: string, token: string) {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/websocket`);
  await new Promise<void>((resolve, reject) => {
    ws.on('message', function auth(data) {
      const m = JSON.parse(String(data)) as { type: string };
      if (m.type === 'auth_required') ws.send(JSON.stringify({ type: 'auth', access_token: token }));
      if (m.type === 'auth_ok') {
        ws.off('message', auth);
        resolve();
      }
      if (m.type === 'auth_invalid') reject(new Error('auth'));
    });
  });
  let id = 0;
  return {
    call(entityId: string): Promise<void> {
      const mine = ++id;
      return new Promise((resolve) => {
        const on = (data: WebSocket.RawData) => {
          const m = JSON.parse(String(data)) as { id?: number; type: string };
          if (m.id === mine && m.type === 'result') {
            ws.off('message', on);
            resolve();
          }
        };
        ws.on('message', on);
        ws.send(JSON.stringify({ id: mine, type: 'call_service', domain: 'switch', service: 'toggle', target: { entity_id: entityId } }));
      });
    },
    close: () => ws.close(),
  };
}

export async function run(): Promise<void> {
  const seeds: FakeEntitySeed[] = Array.from({ length: ENTITIES }, (_, i) => ({
    id: `switch.s${String(i).padStart(4, '0')}`,
    state: 'off',
    attributes: { friendly_name: `Switch ${i}` },
    area: ['kitchen', 'living_room', 'hall'][i % 3],
  }));
  const fake = await startFakeHomeAssistant({ entities: seeds });
  const temp = makeTempDir('hearth-bench-ha-');
  const config = { ...loadConfig({ DATA_DIR: temp.dir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: 'http://127.0.0.1:9', PATH: '' }, []), host: '127.0.0.1', port: 0 };
  const server = await createServer(config, { logger: createMemoryLogger('warn') });
  try {
    const { url } = await server.listen(0, '127.0.0.1');
    await server.deps.boot.start();
    const users = new AuthStore(server.deps.db);
    const now = new Date().toISOString();
    const adminId = randomUUID();
    await users.insertUser({ id: adminId, name: 'Alex', role: 'admin', avatar: null, pinHash: await hashPin('1234', 'low'), createdAt: now, updatedAt: now });
    const admin = new TestClient(url, await mintSession(server, adminId));
    const c = await admin.put('/api/admin/home-assistant/connection', { url: fake.url, token: fake.token });
    if (!c.body.connected) throw new Error(`not connected: ${c.text}`);
    await admin.put('/api/admin/home-assistant/exposed', { entityIds: seeds.map((s) => s.id) });
    const stream = await connectSse(url, '/api/home-assistant/stream', { cookie: admin.cookie! });

    // 50 changes a second for SECONDS, the event loop watched meanwhile
    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    let n = 0;
    const timer = setInterval(() => {
      const id = seeds[Math.floor(Math.random() * ENTITIES)]!.id;
      fake.setState(id, Math.random() < 0.5 ? 'on' : 'off', { friendly_name: id, power: Math.round(Math.random() * 1000) });
      n++;
    }, 1000 / CHANGES_PER_S);
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    clearInterval(timer);
    h.disable();
    await until(() => stream.events.filter((e) => e.event === 'entity').length >= n * 0.95, 'the stream caught up', 10_000);
    const p99 = h.percentile(99) / 1e6;
    console.log(`smart-home: ${ENTITIES} entities, ${n} changes in ${SECONDS}s (${(n / SECONDS).toFixed(0)}/s), ${stream.events.filter((e) => e.event === 'entity').length} stream events; event-loop delay p50 ${(h.percentile(50) / 1e6).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (target < 30 ms)`);
    stream.close();

    // round trips, alternating which side goes first
    const direct = await directClient(fake.url, fake.token);
    const viaHearth: number[] = [];
    const viaDirect: number[] = [];
    for (let i = 0; i < ACTIONS; i++) {
      const id = seeds[i % ENTITIES]!.id;
      const hearth = async () => {
        const t = performance.now();
        const r = await admin.post(`/api/home-assistant/entities/${id}/action`, { service: 'toggle' });
        if (r.status !== 200) throw new Error(`action ${r.status}`);
        viaHearth.push(performance.now() - t);
      };
      const straight = async () => {
        const t = performance.now();
        await direct.call(id);
        viaDirect.push(performance.now() - t);
      };
      if (i % 2) {
        await hearth();
        await straight();
      } else {
        await straight();
        await hearth();
      }
    }
    direct.close();
    const a = median(viaHearth);
    const b = median(viaDirect);
    console.log(`smart-home: action round trip p50 through Hearth ${a.toFixed(2)} ms, direct ${b.toFixed(2)} ms, added ${(a - b).toFixed(2)} ms (target < 10 ms), ${ACTIONS} each`);
  } finally {
    await server.close();
    await fake.close();
    temp.remove();
  }
}
