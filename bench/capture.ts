// Reader capture: time per page in archive mode with the shared browser (one Chromium, a context
// per capture), with a fresh browser per capture (launch + capture + close), and with the static
// fetch (jsdom, no JavaScript). Pages: the capture fixture pages and a few real articles of the
// readability corpus, served on 127.0.0.1 and let through the SSRF guard by exact origin.
// Needs Chromium (CHROMIUM_PATH, Playwright's, or /usr/bin/chromium). Run: npm run bench -- capture
// BENCH_ROUNDS (default 2) repeats the page list. Each row also reports the main thread's
// event-loop delay while it ran (perf_hooks.monitorEventLoopDelay: max and p99), i.e. how long
// any other request to the server would have waited behind the capture's own work.
import type dns from 'node:dns';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { createSharedChromium, resolveChromiumPath } from '../server/adapters/browser/chromium.js';
import { createCaptureEngine, type CaptureEngineDeps } from '../server/modules/reader/capture/engine.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import { createSsrfGuard } from '../server/platform/ssrf.js';
import { startFixtureSite } from '../test/fixtures/capture/server.js';
import { makeTempDir } from '../test/harness/temp-dir.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CORPUS = path.resolve(import.meta.dirname, '../test/fixtures/readability-pages');
const CORPUS_PAGES = ['nytimes-1', 'medium-1', 'guardian-1', 'theverge', 'wapo-1', 'wikipedia'].filter((p) => existsSync(path.join(CORPUS, p, 'source.html')));

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

export async function run(): Promise<void> {
  const exe = resolveChromiumPath(process.env.CHROMIUM_PATH);
  if (!existsSync(exe)) {
    console.log(`capture: skipped, no Chromium at ${exe}`);
    return;
  }
  const site = await startFixtureSite();
  for (const p of CORPUS_PAGES) {
    const body = readFileSync(path.join(CORPUS, p, 'source.html'));
    site.routes.set(`/corpus/${p}/page.html`, (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    });
  }
  const pages = [...['/article', '/lazy', '/js', '/consent'], ...CORPUS_PAGES.map((p) => `/corpus/${p}/page.html`)];
  // the corpus pages' remote assets: names fail at once (no internet in the bench, and a slow resolver would dominate)
  const offline = ((hostname: string, _o: unknown, cb: (e: NodeJS.ErrnoException) => void) => process.nextTick(cb, Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }))) as unknown as typeof dns.lookup;
  const guard = createSsrfGuard({ allowOrigins: [site.origin], lookup: offline });
  const temp = makeTempDir('hearth-bench-capture-');
  const logger = createMemoryLogger('error');
  const base: CaptureEngineDeps = { guard, logger, idleTimeoutMs: 2_000 };
  let n = 0;
  const once = async (engine: ReturnType<typeof createCaptureEngine>, p: string) => {
    const t = performance.now();
    const res = await engine.capture({ url: site.origin + p, mode: 'archive', outDir: path.join(temp.dir, String(++n)), publicBase: '/r/' });
    return { ms: performance.now() - t, method: res.method };
  };
  const rows: Array<[string, number[], IntervalHistogram]> = [];
  const eld = () => {
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    return h;
  };
  try {
    // shared browser (launched once, before timing)
    const shared = createSharedChromium({ executablePath: exe });
    const engine = createCaptureEngine({ ...base, browser: shared });
    let t = performance.now();
    await once(engine, '/article');
    const firstMs = performance.now() - t;
    const sharedMs: number[] = [];
    const sharedEld = eld();
    for (let r = 0; r < ROUNDS; r++) for (const p of pages) sharedMs.push((await once(engine, p)).ms);
    sharedEld.disable();
    await engine.close();
    await shared.close();
    rows.push(['shared browser', sharedMs, sharedEld]);

    // a fresh browser for every capture
    const freshMs: number[] = [];
    const freshEld = eld();
    for (let r = 0; r < ROUNDS; r++)
      for (const p of pages) {
        t = performance.now();
        const b = createSharedChromium({ executablePath: exe });
        const fresh = createCaptureEngine({ ...base, browser: b });
        await once(fresh, p);
        await fresh.close();
        await b.close();
        freshMs.push(performance.now() - t);
      }
    freshEld.disable();
    rows.push(['fresh browser per capture', freshMs, freshEld]);

    // static fetch, no browser
    const st = createCaptureEngine({ ...base, browserEnabled: false });
    const staticMs: number[] = [];
    const staticEld = eld();
    for (let r = 0; r < ROUNDS; r++) for (const p of pages) staticMs.push((await once(st, p)).ms);
    staticEld.disable();
    await st.close();
    rows.push(['static fetch (no JS)', staticMs, staticEld]);

    console.log(`capture (archive mode: snapshot + assets + reader view + screenshot + og:image; ${pages.length} pages x ${ROUNDS} rounds; Chromium ${exe})`);
    console.log(`  first capture incl. browser launch: ${firstMs.toFixed(0)} ms`);
    for (const [label, xs, h] of rows) {
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      const ms = (ns: number) => (ns / 1e6).toFixed(0).padStart(5);
      console.log(
        `  ${label.padEnd(28)} p50 ${pct(xs, 50).toFixed(0).padStart(5)} ms  p95 ${pct(xs, 95).toFixed(0).padStart(5)} ms  mean ${mean.toFixed(0).padStart(5)} ms  (n=${xs.length})` +
          `  event-loop delay: max ${ms(h.max)} ms  p99 ${ms(h.percentile(99))} ms`,
      );
    }
  } finally {
    await guard.close();
    await site.close();
    temp.remove();
  }
}
