// The admin Storage page's scan (issue 39): GET /api/admin/storage on a real server whose data folder
// holds 100,000 small files (maps/, 200 folders of 500), against the same walk done synchronously
// (readdirSync + lstatSync: the fastest a walk gets on this disk, holding the event loop throughout).
// While the server scans, perf_hooks.monitorEventLoopDelay (10 ms resolution) records how long any
// other request would have waited. Each measurement 3 times, the median kept (the first is warm-up
// for the page cache). Targets: the scan under 2 s, event-loop delay p99 under 50 ms.
// Run: npm run bench -- storage
import { lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { request } from 'undici';
import { createServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import { makeTempDir } from '../test/harness/temp-dir.js';

const FOLDERS = 200;
const PER_FOLDER = 500;
const RUNS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function syncWalk(dir: string): number {
  let bytes = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) bytes += syncWalk(full);
    else bytes += lstatSync(full).size;
  }
  return bytes;
}

export async function run(): Promise<void> {
  const temp = makeTempDir('hearth-bench-storage-');
  const body = Buffer.alloc(100, 1);
  for (let d = 0; d < FOLDERS; d++) {
    const dir = path.join(temp.dir, 'maps', `f${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < PER_FOLDER; f++) writeFileSync(path.join(dir, `${f}.bin`), body);
  }
  const config = { ...loadConfig({ DATA_DIR: temp.dir, LOG_LEVEL: 'warn' }, []), host: '127.0.0.1', port: 0 };
  const server = await createServer(config, { logger: createMemoryLogger('warn') });
  try {
    const { url } = await server.listen(0, '127.0.0.1');
    await server.deps.boot.start();
    const admin = await server.deps.auth.createFirstAdmin('Alex', '1234');
    const headers = { cookie: `session=${admin.token}` };
    const scans: number[] = [];
    const p99s: number[] = [];
    const syncs: number[] = [];
    let files = 0;
    for (let i = 0; i <= RUNS; i++) {
      const t0 = performance.now();
      syncWalk(path.join(temp.dir, 'maps'));
      const sync = performance.now() - t0;
      const h = monitorEventLoopDelay({ resolution: 10 });
      h.enable();
      const t = performance.now();
      const r = await request(`${url}/api/admin/storage`, { headers });
      const answer = (await r.body.json()) as { areas: Array<{ key: string; files: number }> };
      const ms = performance.now() - t;
      h.disable();
      if (r.statusCode !== 200) throw new Error(`storage answered ${r.statusCode}`);
      files = answer.areas.find((a) => a.key === 'maps')!.files;
      if (i === 0) continue;
      scans.push(ms);
      syncs.push(sync);
      p99s.push(h.percentile(99) / 1e6);
    }
    const scan = median(scans);
    const sync = median(syncs);
    console.log(`storage scan: ${files} files in maps/`);
    console.log(`  GET /api/admin/storage  ${scan.toFixed(0)} ms (median of ${RUNS}; target < 2000)`);
    console.log(`  synchronous walk        ${sync.toFixed(0)} ms (blocks the event loop throughout)`);
    console.log(`  ratio Hearth / sync     ${(scan / sync).toFixed(2)}x`);
    console.log(`  event-loop delay p99    ${median(p99s).toFixed(1)} ms during the scan (target < 50)`);
  } finally {
    await server.close();
    temp.remove();
  }
}
