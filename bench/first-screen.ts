// What each first screen makes a modest phone's main thread do before it can answer a first tap,
// as a ratio to a minimal page opened in the same browser run, so the figure holds on any machine
// (this 2-core machine is shared and its absolute numbers move from run to run; the ratio between
// two pages measured side by side does not). Target: every first screen within 3x of the minimal
// page's busy time.
//
//   npm run build:web && npm run bench -- first-screen [--json] [--rounds=N] [--only=<words>]
//
// Each page opens cold (a fresh context: no cache, no service worker, no stored font) on a phone
// (390x844, touch) with the processor slowed 4x (CDP Emulation.setCPUThrottlingRate, as Lighthouse
// does for a mid-range phone), under a Chromium trace. The window is from the navigation to the
// page's first screen being drawn (its own landmark visible) plus SETTLE_MS, the time a person
// takes to read it and reach for a button: whatever the page keeps doing then still stands
// between them and their tap. Per page, the median over the rounds of:
//   - busy: the sum of the renderer main thread's top-level tasks in the window;
//   - long: how many of them took over 50 ms, and their blocking time (each one's part over 50 ms,
//     the TBT of Lighthouse, on the real trace instead of a simulation);
//   - CLS: the layout shifts the page reported (PerformanceObserver 'layout-shift', no input);
//   - commits: how many times React committed a render in the window (counted through the hook
//     React DevTools uses, __REACT_DEVTOOLS_GLOBAL_HOOK__, installed before the page's scripts), the
//     start-up re-renders as answers arrive made visible.
// The minimal page is the floor a page of this app cannot go under: the same server and browser,
// a document whose one module script draws a heading and a paragraph with the app's own React
// (react-dom's client, the largest part of every first screen's script), served beside the app.
// Its figures are in the first row; the pages' ratios are to its busy time (the target), and, in a
// second column, to the plain HTML page's (no script at all: what the browser itself costs).
//
// The household is bench/webapp-household.ts's (the Lighthouse bench's). CHROMIUM_PATH overrides
// the browser.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { root, startBenchHousehold, type BenchPage } from './webapp-household.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CPU_SLOWDOWN = 4;
const SETTLE_MS = 3000;
const TARGET_RATIO = 3;
const LONG_TASK_MS = 50;
const DETAIL = process.argv.includes('--detail');
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const MINIMAL_PATH = '/__bench/minimal';
const PLAIN_PATH = '/__bench/plain';
const PLAIN_HTML = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Plain</title></head><body><main><h1>Hearth</h1><p>A plain page: a heading and a paragraph, no script.</p></main></body></html>';

/** Counts React's commits in the page (the hook React DevTools installs, with only what React calls). */
const COMMIT_COUNTER = `window.__commits = 0;
window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true,
  renderers: new Map(),
  inject: function () { return 1; },
  onScheduleFiberRoot: function () {},
  onCommitFiberRoot: function () { window.__commits++; },
  onCommitFiberUnmount: function () {},
  onPostCommitFiberRoot: function () {},
  checkDCE: function () {},
};`;

export interface FirstScreen {
  page: string;
  path: string;
  /** Medians over the rounds, in ms of the slowed processor. */
  busyMs: number;
  longTasks: number;
  blockingMs: number;
  longestTaskMs: number;
  cls: number;
  /** React commits in the window (median). */
  commits: number;
  /** busyMs over the minimal page's. */
  ratio: number;
  /** busyMs over the plain HTML page's. */
  plainRatio: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  cat?: string;
  args?: Record<string, unknown> & { name?: string; data?: { url?: string; frames?: Array<{ url?: string; processId?: number }> } };
}

/**
 * What the main thread's tasks spent their time on (--detail): the outermost traced work inside
 * the tasks (script evaluation and function calls named by their script, style, layout, paint,
 * timers, idle callbacks, garbage collection...), in ms, largest first.
 */
function breakdown(events: TraceEvent[], key: string, start: number): Array<[string, number]> {
  const on = events.filter((e) => `${e.pid}:${e.tid}` === key && e.ph === 'X' && e.ts >= start && e.name !== 'ThreadControllerImpl::RunTask').sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const totals = new Map<string, number>();
  let taskEnd = -1;
  let outerEnd = -1;
  for (const e of on) {
    const end = e.ts + (e.dur ?? 0);
    if (e.name === 'RunTask') {
      taskEnd = end;
      outerEnd = -1;
      continue;
    }
    if (e.ts >= taskEnd || e.ts < outerEnd) continue;
    outerEnd = end;
    const data = (e.args?.data ?? (e.args as { beginData?: { url?: string } })?.beginData) as { url?: string; functionName?: string } | undefined;
    const where = data?.url ? ` ${data.url.replace(/^https?:\/\/[^/]+/, '').replace(/-[\w-]{8}\.js$/, '.js')}` : '';
    let name = `${e.name}${where}`;
    if (e.name === 'TimerFire' || e.name === 'FireIdleCallback' || e.name === 'FireAnimationFrame') {
      // named by the function the timer runs (the first call inside it)
      const call = on.find((c) => c.ts >= e.ts && c.ts < end && c.name === 'FunctionCall');
      const d = call?.args?.data as { url?: string; functionName?: string; lineNumber?: number; columnNumber?: number } | undefined;
      if (d) name += ` ${d.functionName || '?'}@${(d.url ?? '').replace(/^https?:\/\/[^/]+/, '')}:${d.lineNumber ?? ''}:${d.columnNumber ?? ''}`;
    }
    totals.set(name, (totals.get(name) ?? 0) + (e.dur ?? 0) / 1000);
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** The renderer main thread of the page at `origin`, and its top-level tasks from the navigation on. */
function mainThreadTasks(events: TraceEvent[], origin: string): number[] {
  const threads = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain') threads.set(`${e.pid}:${e.tid}`, 'main');
  // the renderer that parsed the page's document
  const parse = events.find((e) => e.name === 'ParseHTML' && threads.has(`${e.pid}:${e.tid}`) && String((e.args as { beginData?: { url?: string } })?.beginData?.url ?? '').startsWith(origin));
  if (!parse) throw new Error(`the trace has no ParseHTML of ${origin} on a renderer main thread`);
  const key = `${parse.pid}:${parse.tid}`;
  const start = events.filter((e) => `${e.pid}:${e.tid}` === key && e.name === 'ParseHTML').reduce((t, e) => Math.min(t, e.ts), Infinity);
  // the first ParseHTML is the document's; tasks before it belong to the blank page the tab opened on
  if (DETAIL) console.log(`    ${origin}: ${breakdown(events, key, start).slice(0, 40).map(([n, ms]) => `${n} ${Math.round(ms)}`).join(' | ')}`);
  return events
    .filter((e) => `${e.pid}:${e.tid}` === key && e.ph === 'X' && e.name === 'RunTask' && e.ts + (e.dur ?? 0) >= start)
    .map((e) => (e.dur ?? 0) / 1000);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The minimal page's module: react-dom's client drawing a heading and a paragraph, bundled as the app bundles it. */
async function minimalScript(): Promise<string> {
  const out = await build({
    stdin: {
      contents: `import { createRoot } from 'react-dom/client'; import { createElement as h } from 'react';
createRoot(document.getElementById('root')).render(h('main', null, h('h1', null, 'Hearth'), h('p', null, 'A minimal page: React draws a heading and a paragraph.')));`,
      resolveDir: root,
      loader: 'js',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

async function measure(browser: Browser, url: string, p: BenchPage & { ready: string }, cookie: string | null, minimal: { html: string; js: string }) {
  const context = await browser.newContext(PHONE);
  try {
    if (cookie) await context.addCookies([{ name: 'session', value: cookie.slice('session='.length), url, httpOnly: true, sameSite: 'Lax' }]);
    await context.route(`${url}/__bench/**`, (route) => {
      const u = route.request().url();
      return u.endsWith('.js')
        ? route.fulfill({ status: 200, contentType: 'text/javascript', body: minimal.js })
        : route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: u.endsWith(PLAIN_PATH) ? PLAIN_HTML : minimal.html });
    });
    await context.addInitScript(() => {
      const w = window as unknown as { __cls: number };
      w.__cls = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) if (!e.hadRecentInput) w.__cls += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // React looks for this hook when it loads and reports each committed render to it. A string, not
    // a function: under tsx a function's inner functions are wrapped in a helper the page lacks.
    await context.addInitScript({ content: COMMIT_COUNTER });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    await page.goto(`${url}${p.path}`);
    await page.locator(p.ready).first().waitFor({ state: 'visible', timeout: 60_000 });
    await page.waitForTimeout(SETTLE_MS);
    const { cls, commits } = await page.evaluate(() => {
      const w = window as unknown as { __cls: number; __commits: number };
      return { cls: w.__cls, commits: w.__commits };
    });
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
    const tasks = mainThreadTasks(trace.traceEvents, url);
    const long = tasks.filter((d) => d > LONG_TASK_MS);
    return {
      busyMs: tasks.reduce((a, b) => a + b, 0),
      longTasks: long.length,
      blockingMs: long.reduce((a, d) => a + d - LONG_TASK_MS, 0),
      longestTaskMs: Math.max(0, ...tasks),
      cls,
      commits,
    };
  } finally {
    await context.close();
  }
}

/** Each page's landmark: the first screen is drawn once it is visible. */
const READY: Record<string, string> = {
  'Minimal page': 'h1',
  'Plain HTML': 'h1',
  'Profile picker': 'h1',
  Home: 'h1',
  'Reader list': '.reader-item',
  Article: '[data-testid="reader-content"]',
  'Members (admin)': 'h1',
};

export async function run(): Promise<void> {
  const json = process.argv.includes('--json');
  const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice('--rounds='.length) ?? 3);
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);
  if (!existsSync(path.join(root, 'dist', 'web', 'index.html'))) throw new Error('dist/web is missing: run `npm run build:web` first (this bench builds nothing).');
  const minimal = {
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Minimal</title></head><body><div id="root"></div><script type="module" src="${MINIMAL_PATH}.js"></script></body></html>`,
    js: await minimalScript(),
  };
  const household = await startBenchHousehold();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
  try {
    const pages = [{ page: 'Minimal page', path: MINIMAL_PATH, as: 'nobody' as const }, { page: 'Plain HTML', path: PLAIN_PATH, as: 'nobody' as const }, ...household.pages.filter((p) => !only?.length || only.some((w) => p.page.toLowerCase().includes(w)))];
    const samples = new Map<string, Array<Awaited<ReturnType<typeof measure>>>>();
    // one warm-up load, not counted (the first page of a run pays for the browser's own start)
    await measure(browser, household.url, { ...pages[0]!, ready: READY[pages[0]!.page]! }, null, minimal);
    for (let r = 0; r < rounds; r++) {
      // the pages in turn, each round: a burst of load on the shared machine falls on all of them
      for (const p of pages) {
        const m = await measure(browser, household.url, { ...p, ready: READY[p.page]! }, household.cookies[p.as], minimal);
        samples.set(p.page, [...(samples.get(p.page) ?? []), m]);
      }
    }
    const results: FirstScreen[] = pages.map((p) => {
      const xs = samples.get(p.page)!;
      return {
        page: p.page,
        path: p.path,
        busyMs: Math.round(median(xs.map((x) => x.busyMs))),
        longTasks: median(xs.map((x) => x.longTasks)),
        blockingMs: Math.round(median(xs.map((x) => x.blockingMs))),
        longestTaskMs: Math.round(median(xs.map((x) => x.longestTaskMs))),
        cls: Number(median(xs.map((x) => x.cls)).toFixed(3)),
        commits: median(xs.map((x) => x.commits)),
        ratio: 0,
        plainRatio: 0,
      };
    });
    const floor = results[0]!.busyMs;
    const plain = results[1]!.busyMs;
    for (const r of results) {
      r.ratio = Number((r.busyMs / floor).toFixed(2));
      r.plainRatio = Number((r.busyMs / plain).toFixed(2));
    }
    const met = results.slice(2).every((r) => r.ratio <= TARGET_RATIO);
    if (json) {
      console.log(JSON.stringify({ chromium: CHROMIUM, cpuSlowdown: CPU_SLOWDOWN, settleMs: SETTLE_MS, rounds, results, met }, null, 2));
      return;
    }
    console.log(`first-screen (phone, processor ${CPU_SLOWDOWN}x slower, ${rounds} rounds, medians; main-thread work from the navigation to ${SETTLE_MS} ms after the first screen; target: busy <= ${TARGET_RATIO}x the minimal page)`);
    console.log(`  ${'page'.padEnd(17)} ${'busy'.padStart(8)} ${'ratio'.padStart(6)} ${'/plain'.padStart(7)} ${'long'.padStart(5)} ${'blocking'.padStart(9)} ${'longest'.padStart(8)} ${'CLS'.padStart(6)} ${'commits'.padStart(8)}`);
    for (const r of results) {
      console.log(
        `  ${r.page.padEnd(17)} ${`${r.busyMs} ms`.padStart(8)} ${`${r.ratio}x`.padStart(6)} ${`${r.plainRatio}x`.padStart(7)} ${String(r.longTasks).padStart(5)} ${`${r.blockingMs} ms`.padStart(9)} ${`${r.longestTaskMs} ms`.padStart(8)} ${r.cls.toFixed(3).padStart(6)} ${String(r.commits).padStart(8)}`,
      );
    }
    console.log(`  target: ${met ? 'met' : 'NOT met'}`);
  } finally {
    await browser.close();
    await household.close();
  }
}
