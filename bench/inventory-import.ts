// Homebox CSV import and the event loop (issue 29, item 4): the event-loop delay of the server's
// process (perf_hooks.monitorEventLoopDelay, 10 ms resolution) and the latency of GET
// /api/system/ready asked in a loop, first with nothing else going on (the baseline, same run), then
// while a member imports, one file after another:
//   - a 1.6 MB header of 100,000 columns (refused: too many columns),
//   - a 5,000-item Homebox file (imported each time: no import refs, so 5,000 more devices),
//   - the same file with an unclosed quote at its very end (refused after the whole file is read).
// Figures are given as ratios to the baseline, so they hold on any machine. The target: the ready
// route's p99 during imports within 5x of idle, and no event-loop stall over 100 ms.
// INVENTORY_IMPORT_ROUNDS sets how many files of each kind (default 8).
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { HOMEBOX_COLUMNS } from '../server/modules/home-inventory/homebox-csv.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import { makeTempDir } from '../test/harness/temp-dir.js';

const ROUNDS = Number(process.env.INVENTORY_IMPORT_ROUNDS ?? 8);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

/** A 1.6 MB header: HB.name and 100,000 custom-field columns, then one row. */
export function wideHeaderCsv(columns = 100_000): string {
  const head = ['HB.name'];
  for (let i = 0; i < columns; i++) head.push(`HB.field.c${String(i).padStart(6, '0')}`);
  return `${head.join(',')}\nKettle\n`;
}

/** `rows` Homebox items with every column filled, about 0.8 KB each. */
export function bigHomeboxCsv(rows = 5_000): string {
  const lines = [[...HOMEBOX_COLUMNS, 'HB.field.Colour', 'HB.field.Voltage'].join(',')];
  const note = 'Bought for the kitchen; the service engineer said to descale it every three months and to keep the receipt in the drawer.';
  for (let i = 0; i < rows; i++) {
    const values: Record<string, string> = {
      'HB.location': 'Home / Kitchen',
      'HB.tags': 'Appliance; Kitchen',
      'HB.name': `Kettle number ${i}`,
      'HB.quantity': '1',
      'HB.description': note,
      'HB.notes': note,
      'HB.purchase_price': '49.99',
      'HB.purchase_from': 'Kitchen Store',
      'HB.purchase_date': '2024-02-29',
      'HB.manufacturer': 'Bosch',
      'HB.model_number': `TWK${i}`,
      'HB.serial_number': `SN-${i}-${'x'.repeat(20)}`,
      'HB.warranty_expires': '2027-02-28',
      'HB.warranty_details': 'Two years from the date of purchase, with the receipt.',
    };
    lines.push([...HOMEBOX_COLUMNS.map((c) => `"${values[c] ?? ''}"`), 'Steel', '230 V'].join(','));
  }
  return `${lines.join('\n')}\n`;
}

export async function run(): Promise<void> {
  const temp = makeTempDir('hearth-bench-import-');
  const config = { ...loadConfig({ DATA_DIR: temp.dir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: 'http://127.0.0.1:9', PATH: '' }, []), host: '127.0.0.1', port: 0 };
  const server = await createServer(config, { logger: createMemoryLogger('warn') });
  try {
    const { url } = await server.listen(0, '127.0.0.1');
    const admin = await server.deps.auth.createFirstAdmin('Alex', '1234');
    const cookie = `session=${admin.token}`;
    const wide = wideHeaderCsv();
    const big = bigHomeboxCsv();
    const broken = `${big}"Unclosed quote,Bosch\n`;
    const post = async (csv: string) => {
      const res = await fetch(`${url}/api/home/import`, { method: 'POST', body: csv, headers: { cookie, origin: url, 'content-type': 'text/csv' } });
      return { status: res.status, body: (await res.json()) as { imported?: number; error?: { message: string } } };
    };

    /** Asks the ready route in a loop while `work` runs; the event-loop delay over the same span. */
    const measure = async (work: () => Promise<void>) => {
      const h = monitorEventLoopDelay({ resolution: 10 });
      const ready: number[] = [];
      let done = false;
      h.enable();
      const asker = (async () => {
        while (!done) {
          const t = performance.now();
          const res = await fetch(`${url}/api/system/ready`);
          await res.arrayBuffer();
          ready.push(performance.now() - t);
        }
      })();
      const t = performance.now();
      await work();
      const ms = performance.now() - t;
      done = true;
      await asker;
      h.disable();
      return { ms, ready, delayP99: h.percentile(99) / 1e6, delayMax: h.max / 1e6 };
    };

    // warm: the worker (or the parser) loaded once before anything is measured
    await post(wide);
    const idleMs = 2_000;
    const idle = await measure(() => new Promise((r) => setTimeout(r, idleMs)));
    const rows: Array<[string, Awaited<ReturnType<typeof measure>>, string]> = [];
    let answer = '';
    const phase = async (label: string, work: () => Promise<void>) => {
      const m = await measure(work);
      rows.push([label, m, answer]);
    };
    await phase(`${ROUNDS} × 100,000-column header (1.6 MB)`, async () => {
      for (let i = 0; i < ROUNDS; i++) answer = `${(await post(wide)).status}`;
    });
    await phase(`${ROUNDS} × 5,000 items (${(big.length / 1024 / 1024).toFixed(1)} MB)`, async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const r = await post(big);
        answer = `${r.status} (${r.body.imported ?? r.body.error?.message} items)`;
      }
    });
    await phase(`${ROUNDS} × the same, unclosed quote at the end`, async () => {
      for (let i = 0; i < ROUNDS; i++) answer = `${(await post(broken)).status}`;
    });

    const f = (n: number) => n.toFixed(1).padStart(7);
    console.log(`inventory import: event loop and GET /api/system/ready during Homebox CSV imports (${ROUNDS} files each)`);
    console.log(`  idle ${idleMs} ms: ready p50 ${f(pct(idle.ready, 50))} ms  p99 ${f(pct(idle.ready, 99))} ms  (${idle.ready.length} asked)  event-loop delay p99 ${f(idle.delayP99)} ms  max ${f(idle.delayMax)} ms`);
    for (const [label, m, last] of rows) {
      const p50 = pct(m.ready, 50);
      const p99 = pct(m.ready, 99);
      console.log(
        `  ${label.padEnd(44)} ${f(m.ms)} ms in all, last answer ${last}\n` +
          `    ready p50 ${f(p50)} ms (${(p50 / pct(idle.ready, 50)).toFixed(1)}x idle)  p99 ${f(p99)} ms (${(p99 / pct(idle.ready, 99)).toFixed(1)}x idle)  (${m.ready.length} asked)` +
          `  event-loop delay p99 ${f(m.delayP99)} ms  max ${f(m.delayMax)} ms  (target: ready p99 within 5x idle and no stall over 100 ms: ${p99 <= 5 * pct(idle.ready, 99) && m.delayMax < 100 ? 'met' : 'NOT met'})`,
      );
    }
  } finally {
    await server.close();
    temp.remove();
  }
}
