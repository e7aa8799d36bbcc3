// Home inventory: list and search latency over HTTP on a real server with 5,000 devices written
// through the store (INVENTORY_BENCH_DEVICES to change), asked one at a time: the list's first page
// (as the Inventory page opens), a deep page, ?q= searches, and as the baseline in the same run the
// cheapest route (GET /api/notifications/unread-count). Target: p95 under 15 ms for list and search.
// Then the label OCR (bench/inventory-ocr.ts) and the manual text extraction with the event-loop
// delay during it (bench/inventory-manual.ts), so `npm run bench -- inventory` gives every figure.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { CreateDeviceBody, DeviceCategory } from '../server/modules/home-inventory/schema.js';
import { newDeviceRecord } from '../server/modules/home-inventory/service.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import { makeTempDir } from '../test/harness/temp-dir.js';
import { HomeInventoryStore } from '../server/modules/home-inventory/store.js';

const DEVICES = Number(process.env.INVENTORY_BENCH_DEVICES ?? 5_000);
const BRANDS = ['Bosch', 'Miele', 'Siemens', 'LG', 'Samsung', 'Makita', 'Dyson', 'Philips', 'Sony', 'Liebherr', 'Vaillant', 'AEG', 'Braun', 'DeLonghi', 'Panasonic'];
const THINGS = ['Dishwasher', 'Washing machine', 'Fridge', 'Drill', 'Vacuum', 'Television', 'Boiler', 'Kettle', 'Coffee machine', 'Router', 'Lamp', 'Heater', 'Dryer', 'Oven', 'Speaker'];
const ROOMS = ['Kitchen', 'Garage', 'Living room', 'Cellar', 'Office', 'Bedroom', 'Bathroom', 'Utility room'];
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function run(): Promise<void> {
  const temp = makeTempDir('hearth-bench-');
  const config = { ...loadConfig({ DATA_DIR: temp.dir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: 'http://127.0.0.1:9', PATH: '' }, []), host: '127.0.0.1', port: 0 };
  const server = await createServer(config, { logger: createMemoryLogger('warn') });
  try {
    const { url } = await server.listen(0, '127.0.0.1');
    const { deps } = server;
    const admin = await deps.auth.createFirstAdmin('Alex', '1234');
    const cookie = `session=${admin.token}`;
    const now = new Date().toISOString();
    await new HomeInventoryStore(deps.db).transaction(async (tx) => {
      for (let i = 0; i < DEVICES; i++) {
        const body = CreateDeviceBody.parse({
          name: `${THINGS[i % THINGS.length]} ${i}`,
          brand: BRANDS[(i * 7) % BRANDS.length],
          model: `M${(i * 7919) % 100_000}`,
          category: DeviceCategory.options[i % DeviceCategory.options.length],
          location: ROOMS[(i * 3) % ROOMS.length],
          warrantyExpires: `202${6 + (i % 4)}-0${1 + (i % 9)}-1${i % 10}`,
        });
        await tx.insertDevice(newDeviceRecord(randomUUID(), body, null, now));
      }
    });
    const time = async (path: string, n: number) => {
      const ms: number[] = [];
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        const res = await fetch(`${url}${path}`, { headers: { cookie } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
        ms.push(performance.now() - t);
      }
      return ms.sort((a, b) => a - b);
    };
    const queries = ['bosch', 'kitchen', 'm42', 'washing', 'dyson garage', 'appliance', 'tele', 'xyz-none'];
    const baseline = await time('/api/notifications/unread-count', 200);
    const list = await time('/api/home/devices', 200);
    const deep = await time(`/api/home/devices?offset=${Math.max(0, DEVICES - 100)}`, 50);
    const search: number[] = [];
    for (let r = 0; r < 25; r++) for (const q of queries) search.push(...(await time(`/api/home/devices?q=${encodeURIComponent(q)}`, 1)));
    search.sort((a, b) => a - b);
    const line = (label: string, xs: number[]) => `${label}: p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms (${xs.length} requests)`;
    console.log(`inventory, ${DEVICES} devices`);
    console.log(line('  baseline (unread-count)', baseline));
    console.log(line('  list, first page', list) + `, ${(pct(list, 50) / pct(baseline, 50)).toFixed(1)}x baseline p50`);
    console.log(line('  list, last page', deep));
    console.log(line('  ?q= search', search) + `, ${(pct(search, 50) / pct(baseline, 50)).toFixed(1)}x baseline p50`);
    console.log(`  p95 target 15 ms: list ${pct(list, 95) < 15 ? 'met' : 'NOT met'}, search ${pct(search, 95) < 15 ? 'met' : 'NOT met'}`);
  } finally {
    await server.close();
    temp.remove();
  }
  await (await import('./inventory-ocr.js')).run();
  await (await import('./inventory-manual.js')).run();
}
