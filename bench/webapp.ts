// The web app as a phone sees it: Lighthouse (mobile emulation, its default simulated mobile
// throttling) in Debian's Chromium against a real Hearth serving the built web app, on the profile
// picker, Home, the Reader list, an article and the admin's Members page, plus the script the first
// screen of each loads (its bytes gzipped, and what actually crossed the wire). Targets: 95 or more
// in performance, accessibility and best practices on every page; first-screen script under 200 KB
// gzipped. It builds nothing: run `npm run build:web` first.
//
//   npm run build:web && npm run bench -- webapp [--json] [--lhr=<dir>]
//
// --lhr=<dir> writes each page's full Lighthouse report there (<page>.json), to read what costs.
// --only=<words> runs only the pages whose name contains one of the comma-separated words (any
// case), e.g. --only=picker,members, to try a change quickly; the targets are judged on all five.
//
// The household: an admin (Alex) who finished the welcome, a member (Sam) with a few Reader items,
// one of them an article with its text kept offline. Signed-in pages carry the session cookie
// through Lighthouse's extraHeaders. Chromium resolves no name but 127.0.0.1 and fetches nothing
// of its own (no component updates, no background networking). CHROMIUM_PATH overrides the browser.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { root, startBenchHousehold } from './webapp-household.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TARGET_SCORE = 95;
const TARGET_SCRIPT_BYTES = 200 * 1024;

export interface PageResult {
  page: string;
  path: string;
  as: 'nobody' | 'admin' | 'member';
  performance: number;
  accessibility: number;
  bestPractices: number;
  /** First Contentful Paint and Largest Contentful Paint, simulated, in ms. */
  fcpMs: number;
  lcpMs: number;
  totalBlockingMs: number;
  /** The scripts the page loaded: their bodies gzipped (level 9), and the bytes sent over the wire. */
  scriptGzipBytes: number;
  scriptWireBytes: number;
  scripts: number;
  /** Audits under full marks that weigh on a category, for the next person to look at. */
  failing: Array<{ category: string; id: string; title: string; score: number | null; where: string[] }>;
}

const pct = (score: number | null | undefined) => Math.round((score ?? 0) * 100);

export async function run(): Promise<void> {
  const json = process.argv.includes('--json');
  const lhrDir = process.argv.find((a) => a.startsWith('--lhr='))?.slice('--lhr='.length) || undefined;
  if (lhrDir) mkdirSync(lhrDir, { recursive: true });
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);
  const webIndex = path.join(root, 'dist', 'web', 'index.html');
  if (!existsSync(webIndex)) throw new Error('dist/web is missing: run `npm run build:web` first (this bench builds nothing).');

  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const household = await startBenchHousehold();
  const { url } = household;
  let chrome: Awaited<ReturnType<typeof chromeLauncher.launch>> | undefined;
  try {
    const allPages = household.pages;
    const pages = only?.length ? allPages.filter((p) => only.some((w) => p.page.toLowerCase().includes(w))) : allPages;
    if (pages.length === 0) throw new Error(`--only matched none of: ${allPages.map((p) => p.page).join(', ')}`);
    const cookies = household.cookies;

    chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      chromeFlags: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-default-apps',
        '--disable-extensions',
        // no network beyond this machine: every name but 127.0.0.1 fails to resolve
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      ],
    });

    const results: PageResult[] = [];
    for (const p of pages) {
      const cookie = cookies[p.as];
      const runner = await lighthouse(`${url}${p.path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        extraHeaders: cookie ? { Cookie: cookie } : null,
        // each page starts cold, as a phone opening Hearth for the first time that day would
        disableStorageReset: false,
      });
      if (!runner) throw new Error(`Lighthouse returned nothing for ${p.path}`);
      const lhr = runner.lhr;
      if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${p.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      if (new URL(lhr.finalDisplayedUrl).pathname !== p.path) throw new Error(`${p.path} ended on ${lhr.finalDisplayedUrl}: is the session cookie accepted?`);
      if (lhrDir) writeFileSync(path.join(lhrDir, `${p.page.toLowerCase().replace(/\W+/g, '-').replace(/-$/, '')}.json`), JSON.stringify(lhr, null, 1));

      const requests = ((lhr.audits['network-requests']?.details as { items?: Array<{ url: string; resourceType?: string; transferSize?: number }> } | undefined)?.items ?? []).filter(
        (r) => r.resourceType === 'Script',
      );
      let scriptGzipBytes = 0;
      for (const r of requests) {
        const body = Buffer.from(await (await fetch(r.url, { headers: cookie ? { cookie } : {} })).arrayBuffer());
        scriptGzipBytes += gzipSync(body, { level: 9 }).length;
      }
      const failing: PageResult['failing'] = [];
      for (const [key, category] of Object.entries(lhr.categories)) {
        for (const ref of category.auditRefs) {
          const audit = lhr.audits[ref.id];
          if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 0.9) continue;
          if (audit.scoreDisplayMode === 'notApplicable' || audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'manual') continue;
          const items = (audit.details as { items?: Array<{ node?: { selector?: string; explanation?: string }; description?: string; url?: string }> } | undefined)?.items ?? [];
          const where = items.slice(0, 4).map((i) => (i.node ? `${i.node.selector ?? ''} ${i.node.explanation?.split('\n')[1]?.trim() ?? ''}`.trim() : (i.description ?? i.url ?? ''))).filter(Boolean);
          failing.push({ category: key, id: ref.id, title: audit.title, score: audit.score, where });
        }
      }
      results.push({
        ...p,
        performance: pct(lhr.categories.performance?.score),
        accessibility: pct(lhr.categories.accessibility?.score),
        bestPractices: pct(lhr.categories['best-practices']?.score),
        fcpMs: Math.round(lhr.audits['first-contentful-paint']?.numericValue ?? 0),
        lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
        totalBlockingMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
        scriptGzipBytes,
        scriptWireBytes: requests.reduce((n, r) => n + (r.transferSize ?? 0), 0),
        scripts: requests.length,
        failing,
      });
    }

    const met = (r: PageResult) =>
      r.performance >= TARGET_SCORE && r.accessibility >= TARGET_SCORE && r.bestPractices >= TARGET_SCORE && r.scriptGzipBytes < TARGET_SCRIPT_BYTES;
    if (json) {
      const version = (JSON.parse(readFileSync(path.join(root, 'node_modules', 'lighthouse', 'package.json'), 'utf8')) as { version: string }).version;
      console.log(JSON.stringify({ lighthouse: version, chromium: CHROMIUM, results, met: results.every(met) }, null, 2));
      return;
    }
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(`webapp (Lighthouse, mobile emulation with simulated throttling, ${CHROMIUM}; targets: every score >= ${TARGET_SCORE}, first-screen script < ${kb(TARGET_SCRIPT_BYTES)} gzipped)`);
    console.log(`  ${'page'.padEnd(17)} ${'perf'.padStart(4)} ${'a11y'.padStart(4)} ${'b.p.'.padStart(4)}  ${'FCP'.padStart(7)} ${'LCP'.padStart(7)} ${'TBT'.padStart(6)}  ${'script gz'.padStart(10)} ${'on wire'.padStart(10)}  met`);
    for (const r of results) {
      console.log(
        `  ${r.page.padEnd(17)} ${String(r.performance).padStart(4)} ${String(r.accessibility).padStart(4)} ${String(r.bestPractices).padStart(4)}  ${`${r.fcpMs} ms`.padStart(7)} ${`${r.lcpMs} ms`.padStart(7)} ${`${r.totalBlockingMs} ms`.padStart(6)}  ${kb(r.scriptGzipBytes).padStart(10)} ${kb(r.scriptWireBytes).padStart(10)}  ${met(r) ? 'yes' : 'NO'}`,
      );
      for (const f of r.failing) {
        console.log(`      ${f.category}: ${f.id} (${f.score}) ${f.title}`);
        for (const w of f.where) console.log(`        ${w.slice(0, 160)}`);
      }
    }
    console.log(`  all targets: ${results.every(met) ? 'met' : 'NOT met'}`);
  } finally {
    if (chrome) chrome.kill();
    await household.close();
  }
}
