// Where a Reader save's time goes: each phase of an offline capture (archive mode, the real
// Chromium and parse worker) on article pages, and the whole save through a real Hearth (POST
// /api/reader until the item is ready), the first one after start included.
//
//   npm run bench -- capture-phases [--rounds=N]
//
// Pages: the readability corpus (/work/shared/fixtures/readability-pages, else the repo's copy:
// real articles, their remote assets failing at once as there is no internet in the bench) and
// the capture fixture site's article, whose pictures, stylesheet and icon are served; plus
// the same article with what most news sites carry: a script that reports to its server every
// 400 ms for as long as the page is open (so the network is never quiet for half a second).
// All on 127.0.0.1, let through the SSRF guard by exact origin.
//
// Figures are medians over the rounds, in ms, and each phase's share of the capture; the line to
// compare across runs and machines is each total as a ratio to `goto`, a bare page.goto of the same
// page (until its load event) in the same browser in the same run. Phase names: CaptureTimings in
// server/modules/reader/capture/types.ts. Needs Chromium (CHROMIUM_PATH, Playwright's, or /usr/bin/chromium).
import type dns from 'node:dns';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createSharedChromium, resolveChromiumPath } from '../server/adapters/browser/chromium.js';
import { createCaptureEngine, type CaptureEngineDeps } from '../server/modules/reader/capture/engine.js';
import type { CaptureTimings } from '../server/modules/reader/capture/types.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import { createSsrfGuard } from '../server/platform/ssrf.js';
import { articlePage, startFixtureSite } from '../test/fixtures/capture/server.js';
import { makeTempDir } from '../test/harness/temp-dir.js';

const SHARED_CORPUS = '/work/shared/fixtures/readability-pages';
const CORPUS = existsSync(SHARED_CORPUS) ? SHARED_CORPUS : path.resolve(import.meta.dirname, '../test/fixtures/readability-pages');
const CORPUS_PAGES = ['nytimes-1', 'guardian-1', 'theverge', 'wapo-1', 'ars-1', 'bbc-1', 'lemonde-1', 'wikipedia'].filter((p) => existsSync(path.join(CORPUS, p, 'source.html')));
const BEACON = `<script>setInterval(() => { fetch('/beacon?t=' + Date.now(), { method: 'POST', body: 'seen' }).catch(() => {}); }, 400);</script>`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : 0;
};

export async function run(): Promise<void> {
  const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice('--rounds='.length) ?? 2);
  const exe = resolveChromiumPath(process.env.CHROMIUM_PATH);
  if (!existsSync(exe)) {
    console.log(`capture-phases: skipped, no Chromium at ${exe}`);
    return;
  }
  const site = await startFixtureSite();
  for (const p of CORPUS_PAGES) {
    const body = readFileSync(path.join(CORPUS, p, 'source.html'));
    site.routes.set(`/corpus/${p}`, (_q, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body));
  }
  site.routes.set('/beacon-article', (_q, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage('A page that keeps reporting', '', BEACON)));
  site.routes.set('/beacon', (_q, res) => res.writeHead(204).end());
  const pages = ['/article', '/beacon-article', ...CORPUS_PAGES.map((p) => `/corpus/${p}`)];
  const offline = ((hostname: string, _o: unknown, cb: (e: NodeJS.ErrnoException) => void) => process.nextTick(cb, Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }))) as unknown as typeof dns.lookup;
  const guard = createSsrfGuard({ allowOrigins: [site.origin], lookup: offline });
  const temp = makeTempDir('hearth-bench-capture-phases-');
  const base: CaptureEngineDeps = { guard, logger: createMemoryLogger('error') };
  let n = 0;
  try {
    // 1. the first capture of a fresh engine: Chromium and the parse worker start with it
    const cold: Array<{ ms: number; timings: CaptureTimings }> = [];
    for (let r = 0; r < rounds; r++) {
      const browser = createSharedChromium({ executablePath: exe });
      const engine = createCaptureEngine({ ...base, browser });
      const timings: CaptureTimings = {};
      const t = performance.now();
      await engine.capture({ url: `${site.origin}/article`, mode: 'archive', outDir: path.join(temp.dir, String(++n)), publicBase: '/r/', timings });
      cold.push({ ms: performance.now() - t, timings });
      await engine.close();
      await browser.close();
    }

    // 2. each page with a warm engine, beside a bare page.goto of it in the same browser
    const browser = createSharedChromium({ executablePath: exe });
    const engine = createCaptureEngine({ ...base, browser });
    await engine.capture({ url: `${site.origin}/article`, mode: 'archive', outDir: path.join(temp.dir, String(++n)), publicBase: '/r/' });
    const byPage = new Map<string, { ms: number[]; goto: number[]; timings: CaptureTimings[] }>();
    for (let r = 0; r < rounds; r++) {
      for (const p of pages) {
        const row = byPage.get(p) ?? { ms: [], goto: [], timings: [] };
        byPage.set(p, row);
        const ctx = await browser.newContext();
        // the same routing as a capture's, so the two load the same bytes the same way
        await ctx.route('**/*', async (route) => {
          const u = route.request().url();
          if (!u.startsWith(site.origin)) return route.abort('failed');
          const res = await fetch(u, { method: route.request().method(), body: route.request().postData() ?? undefined }).catch(() => null);
          if (!res) return route.abort('failed');
          await route.fulfill({ status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? 'application/octet-stream' }, body: Buffer.from(await res.arrayBuffer()) });
        });
        const page = await ctx.newPage();
        let t = performance.now();
        await page.goto(site.origin + p, { waitUntil: 'load' }).catch(() => undefined);
        row.goto.push(performance.now() - t);
        await ctx.close();
        const timings: CaptureTimings = {};
        t = performance.now();
        await engine.capture({ url: site.origin + p, mode: 'archive', outDir: path.join(temp.dir, String(++n)), publicBase: '/r/', timings });
        row.ms.push(performance.now() - t);
        row.timings.push(timings);
      }
    }
    await engine.close();
    await browser.close();

    const phaseNames = (ts: CaptureTimings[]) => [...new Set(ts.flatMap((t) => Object.keys(t)))];
    const phasesLine = (ts: CaptureTimings[], total: number) =>
      phaseNames(ts)
        .map((k) => {
          const ms = median(ts.map((t) => t[k] ?? 0));
          return `${k} ${Math.round(ms)} (${Math.round((100 * ms) / total)}%)`;
        })
        .join(', ');
    console.log(`capture-phases (archive mode in Chromium ${exe}; ${rounds} rounds; medians in ms; ratio = the capture over a bare page.goto of the same page, same run)`);
    const coldMs = median(cold.map((c) => c.ms));
    console.log(`  first capture of a fresh engine (/article): ${Math.round(coldMs)} ms: ${phasesLine(cold.map((c) => c.timings), coldMs)}`);
    const ratios: number[] = [];
    for (const [p, row] of byPage) {
      const ms = median(row.ms);
      const goto = median(row.goto);
      ratios.push(ms / goto);
      console.log(`  ${p.padEnd(22)} ${`${Math.round(ms)} ms`.padStart(8)}  goto ${`${Math.round(goto)} ms`.padStart(7)}  ratio ${(ms / goto).toFixed(1).padStart(5)}x  ${phasesLine(row.timings, ms)}`);
    }
    const all = [...byPage.values()].flatMap((r) => r.timings);
    const allMs = median([...byPage.values()].flatMap((r) => r.ms));
    console.log(`  every page: median ${Math.round(allMs)} ms, median ratio to goto ${median(ratios).toFixed(1)}x; phases (median per capture): ${phasesLine(all, allMs)}`);
  } finally {
    await guard.close();
    await site.close();
    temp.remove();
  }
}
