// Home inventory manuals: text extraction of a 100-page PDF manual (made by
// test/fixtures/inventory/manual-pdf.ts) in the parse worker, and the server's event-loop delay
// while it runs (perf_hooks.monitorEventLoopDelay, 10 ms resolution: how long any other request
// would have waited). Target: p99 delay under 50 ms, since the work is in a worker. Hearth runs in
// this process (createServer) with the maker-site fake serving the manual; rows:
//   - extraction in the worker (the worker already started), BENCH_ROUNDS times;
//   - the whole fetch: download through the SSRF guard, magic and cap checks, extraction, store;
//   - for comparison, the same extraction on the main thread (what the worker spares the server).
// Run: npm run bench -- inventory-manual. The merge joins it with the others into bench/inventory.ts.
// Measured 2026-11-25 on the shared 2-core machine (100 pages, 420 KB, 371k characters, 5 rounds):
//   first extraction incl. worker start 1.5 s
//   extraction in the worker      p50 168 ms; event-loop delay p99 12 ms, max 12 ms (met)
//   download + extraction + store p50 170 ms; event-loop delay p99 12 ms
//   on the main thread            p50 168 ms; event-loop delay p99 171 ms (each extraction blocks it whole)
import { randomUUID } from 'node:crypto';
import { copyFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import { createServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { InventoryFiles } from '../server/modules/home-inventory/files.js';
import { handlers } from '../server/modules/home-inventory/pdf-tasks.js';
import { HomeInventoryStore } from '../server/modules/home-inventory/store.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import { startManufacturerSite } from '../test/fakes/manufacturer-site.js';
import { deviceRecord } from '../test/fixtures/inventory/devices.js';
import { makeTempDir } from '../test/harness/temp-dir.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PAGES = 100;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function measured(label: string, rows: Array<[string, number[], IntervalHistogram]>, task: () => Promise<unknown>): Promise<void> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  const xs: number[] = [];
  h.enable();
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    await task();
    xs.push(performance.now() - t);
  }
  h.disable();
  rows.push([label, xs, h]);
}

export async function run(): Promise<void> {
  const temp = makeTempDir('hearth-bench-inventory-');
  const site = await startManufacturerSite({ manualPages: PAGES });
  const config = { ...loadConfig({ DATA_DIR: temp.dir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: 'http://127.0.0.1:9', PATH: '' }, []), host: '127.0.0.1', port: 0, fetchAllowOrigins: [site.url] };
  const server = await createServer(config, { logger: createMemoryLogger('warn') });
  try {
    await server.listen(0, '127.0.0.1');
    const store = new HomeInventoryStore(server.deps.db);
    const files = new InventoryFiles(config.dataDir);
    const device = deviceRecord();
    await store.insertDevice(device);
    const relative = files.relativeFor(device.id, 'bench-manual.pdf');
    await files.ensureDeviceDir(device.id);
    writeFileSync(files.resolve(relative)!, site.manual);

    const manuals = server.deps.homeManuals;
    const t = performance.now();
    const first = await manuals.extract(relative);
    const firstMs = performance.now() - t;

    const rows: Array<[string, number[], IntervalHistogram]> = [];
    await measured('extraction in the worker', rows, () => manuals.extract(relative));
    await measured('download + extraction + store', rows, async () => {
      const d = deviceRecord();
      await store.insertDevice(d);
      await manuals.fetchManual(d.id, site.at('/manuals/cm-4200.pdf'));
    });
    const mainThreadCopy = `${temp.dir}/main-thread-${randomUUID()}.pdf`;
    copyFileSync(files.resolve(relative)!, mainThreadCopy);
    await handlers.pdfText({ path: mainThreadCopy, maxChars: 2_000_000 }); // pdf-parse loaded on this thread first, as in the worker
    await measured('on the main thread (no worker)', rows, () => handlers.pdfText({ path: mainThreadCopy, maxChars: 2_000_000 }));

    console.log(`inventory manual (${PAGES}-page PDF, ${(site.manual.length / 1024).toFixed(0)} KB, ${first.text.length} characters of text; ${ROUNDS} rounds)`);
    console.log(`  first extraction incl. worker start: ${firstMs.toFixed(0)} ms`);
    for (const [label, xs, h] of rows) {
      const ms = (ns: number) => (ns / 1e6).toFixed(0).padStart(4);
      console.log(
        `  ${label.padEnd(32)} p50 ${pct(xs, 50).toFixed(0).padStart(5)} ms  max ${Math.max(...xs).toFixed(0).padStart(5)} ms` +
          `  event-loop delay: p99 ${ms(h.percentile(99))} ms  max ${ms(h.max)} ms${label === 'extraction in the worker' ? `  (target p99 < 50 ms: ${h.percentile(99) / 1e6 < 50 ? 'met' : 'NOT met'})` : ''}`,
      );
    }
  } finally {
    await server.close();
    await site.close();
    temp.remove();
  }
}
