// Home inventory label OCR: time per label photo (tesseract.js in its worker thread, the picture
// prepared with sharp first) over ten rating plates rendered at test time
// (test/fixtures/inventory/labels.ts), and this process's event-loop delay while OCR runs
// (perf_hooks.monitorEventLoopDelay, 10 ms resolution: how long any other request would have
// waited). The first label includes the worker's start and is reported apart.
// Run: npm run bench -- inventory-ocr. The merge joins it with the others into bench/inventory.ts.
// Measured 2026-11-26 on the shared 2-core machine (10 plates, 2 rounds): first label incl. worker
// start 818 ms; per label p50 219 ms, p95 233 ms; model and serial exact 20/20; event-loop delay
// while reading p50 10 ms, p99 12 ms, max 17 ms (the 10 ms floor is the monitor's resolution).
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { LabelOcr } from '../server/modules/home-inventory/ocr.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import { benchPlates, labelJpeg } from '../test/fixtures/inventory/labels.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

export async function run(): Promise<void> {
  const plates = benchPlates(10);
  const photos = await Promise.all(plates.map((p) => labelJpeg(p)));
  const ocr = new LabelOcr({ logger: createMemoryLogger('warn') });
  try {
    const t = performance.now();
    await ocr.read(photos[0]!);
    const firstMs = performance.now() - t;
    const h = monitorEventLoopDelay({ resolution: 10 });
    const xs: number[] = [];
    let exact = 0;
    h.enable();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, photo] of photos.entries()) {
        const started = performance.now();
        const r = await ocr.read(photo);
        xs.push(performance.now() - started);
        if (r.text.includes(plates[i]!.model) && r.text.includes(plates[i]!.serial)) exact++;
      }
    }
    h.disable();
    const ms = (ns: number) => (ns / 1e6).toFixed(0);
    console.log(`inventory label OCR (${photos.length} rendered rating plates, ${ROUNDS} rounds, ${xs.length} reads)`);
    console.log(`  first label incl. worker start: ${firstMs.toFixed(0)} ms`);
    console.log(`  per label: p50 ${pct(xs, 50).toFixed(0)} ms  p95 ${pct(xs, 95).toFixed(0)} ms  max ${Math.max(...xs).toFixed(0)} ms`);
    console.log(`  model and serial read exactly: ${exact}/${xs.length}`);
    console.log(`  event-loop delay while reading: p50 ${ms(h.percentile(50))} ms  p99 ${ms(h.percentile(99))} ms  max ${ms(h.max)} ms`);
  } finally {
    await ocr.close();
  }
}
