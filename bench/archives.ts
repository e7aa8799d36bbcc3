// Reference archives: the content proxy against kiwix-serve directly, in the same run, for the
// 20 KB article (A/Water_heater) and the 200 KB image (I/noise_200k.png) of the fixture archives,
// 8 connections for BENCH_SECONDS each (the proxy requests carry a session cookie, as the reader's
// iframe does) (targets: proxy at least 0.8x and 0.95x of direct), twice: with the proxy's entry
// cache (the default: repeat visits, and the style sheets and images every page shares) and with
// the cache off (every request goes to kiwix-serve, as a first visit does), then
// companion-search latency through zimSearch (full-text, and the suggest fallback of a book with no
// index). Hearth runs in this process (createServer); the load generator (bench/http-load.ts, the
// same client for both sides) runs in a worker thread so it does not share Hearth's event loop.
// Needs kiwix-serve and zimwriterfs (Debian kiwix-tools, zim-tools). Run: npm run bench -- archives
import { copyFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { ArchivesStore } from '../server/modules/archives/store.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import { freePort } from '../test/harness/net.js';
import { makeTempDir } from '../test/harness/temp-dir.js';
import { buildTestZims, kiwixServeOnPath } from '../test/harness/zims.js';
import { loadInWorker, type LoadResult } from './http-load.js';

const CONNECTIONS = 8;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 300);

async function load(url: string, seconds = DURATION_S, headers?: Record<string, string>): Promise<LoadResult> {
  return loadInWorker(url, { connections: CONNECTIONS, seconds, headers });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

export async function run(): Promise<void> {
  const zims = buildTestZims({ withNoIndex: true });
  try {
    await measure(zims, { cache: false, search: false });
    await measure(zims, { cache: true, search: true });
  } finally {
    zims.remove();
  }
}

async function measure(zims: ReturnType<typeof buildTestZims>, opts: { cache: boolean; search: boolean }): Promise<void> {
  const temp = makeTempDir('hearth-bench-');
  const archivePort = await freePort();
  const sources = [
    { id: 'fixturepedia', file: zims.encyclopedia },
    { id: 'fixturebooks', file: zims.books },
    { id: 'noindex', file: zims.noIndex! },
  ];
  const catalogFile = path.join(temp.dir, 'archives.json');
  writeFileSync(
    catalogFile,
    JSON.stringify({
      sources: sources.map((s) => ({ id: s.id, label: s.id, description: s.id, category: 'Reference', faviconUrl: 'https://example.org/f.ico', variants: [{ key: 'all', label: 'All', url: `https://example.org/${path.basename(s.file)}`, sizeBytes: statSync(s.file).size, date: '2024-05', language: 'eng' }] })),
    }),
  );
  const config = {
    ...loadConfig({ DATA_DIR: temp.dir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: 'http://127.0.0.1:9', PATH: '', ARCHIVE_CATALOG_PATH: catalogFile, ARCHIVE_SERVER_PORT: String(archivePort), KIWIX_SERVE_PATH: kiwixServeOnPath() }, []),
    host: '127.0.0.1',
    port: 0,
  };
  const server = await createServer(config, { logger: createMemoryLogger('warn'), tuning: opts.cache ? {} : { archiveCacheBytes: 0 } });
  try {
    const { url } = await server.listen(0, '127.0.0.1');
    await server.deps.boot.start();
    // the archives, installed as a finished download leaves them
    const store = new ArchivesStore(server.deps.db);
    const now = new Date().toISOString();
    for (const s of sources) {
      const dest = path.join(temp.dir, 'archives', s.id, path.basename(s.file));
      mkdirSync(path.dirname(dest), { recursive: true });
      copyFileSync(s.file, dest);
      await store.upsert({ sourceId: s.id, variantKey: 'all', filePath: dest, fileSizeBytes: statSync(dest).size, zimDate: '2024-05', downloadedAt: now, verifiedAt: now }, now);
    }
    await server.deps.archives.serve();
    // the reader's iframe is same-origin, so the browser sends the session cookie with every page and image
    const admin = await server.deps.auth.createFirstAdmin('Alex', '1234');
    const installed = (await server.deps.archives.installedView({ kind: 'user', id: admin.user.id, name: admin.user.name, role: 'admin', sessionId: '' })).archives;
    const pedia = installed.find((a) => a.sourceId === 'fixturepedia')!;
    if (!pedia.ready || !pedia.bookName) throw new Error(`the archive server is not serving: ${JSON.stringify(server.deps.archives.status())}`);
    const direct = `http://127.0.0.1:${archivePort}/${encodeURIComponent(pedia.bookName)}`;
    const browser = { cookie: `session=${admin.token}; ld-theme=light` };
    const proxy = `${url}/api/archives/view/fixturepedia`;

    console.log(`archives, proxy cache ${opts.cache ? 'ON (default; repeat requests are answered from memory)' : 'OFF (every request read from kiwix-serve)'}`);
    console.log(`  (kiwix-serve -n, ${CONNECTIONS} connections, ${DURATION_S} s each, closed-loop node:http client in a worker thread)`);
    const rows: Array<[string, string, number]> = [
      ['20 KB article A/Water_heater', 'A/Water_heater', 0.8],
      ['200 KB image I/noise_200k.png', 'I/noise_200k.png', 0.95],
    ];
    for (const [label, entry, target] of rows) {
      await load(`${direct}/${entry}`, 1); // warm-up: page cache, archive opened, JIT
      await load(`${proxy}/${entry}`, 1, browser);
      const d = await load(`${direct}/${entry}`);
      const p = await load(`${proxy}/${entry}`, DURATION_S, browser);
      if (d.errors || p.errors) console.log(`  (errors: direct ${d.errors}, proxy ${p.errors})`);
      const ratio = p.rps / d.rps;
      console.log(`  ${label}`);
      console.log(`    direct kiwix-serve: ${d.rps.toFixed(0)} req/s (${d.mbps.toFixed(0)} MB/s), p50 ${d.p50.toFixed(2)} ms, p99 ${d.p99.toFixed(2)} ms`);
      console.log(`    Hearth proxy:       ${p.rps.toFixed(0)} req/s (${p.mbps.toFixed(0)} MB/s), p50 ${p.p50.toFixed(2)} ms, p99 ${p.p99.toFixed(2)} ms`);
      console.log(`    ratio proxy/direct: ${ratio.toFixed(2)}x (target ${target}x) ${ratio >= target ? 'met' : 'MISSED'}`);
    }
    if (opts.cache) console.log(`  proxy cache: ${JSON.stringify(server.deps.archiveContent.cacheStats())}`);
    if (!opts.search) return;

    const terms = ['heater', 'pump', 'solar', 'valve', 'insulation', 'battery', 'water', 'radiator', 'filter', 'timber', 'paint', 'lock'];
    const bookTerms = ['garden', 'kitchen', 'power', 'small', 'tidy', 'chapter'];
    const time = async (sourceIds: string[], words: string[]) => {
      const ms: number[] = [];
      for (let i = 0; i < SEARCHES; i++) {
        const t0 = performance.now();
        const out = await server.deps.archives.zimSearch(sourceIds, words[i % words.length]!, 5);
        ms.push(performance.now() - t0);
        if (out.sources.length === 0) throw new Error(`no results for ${words[i % words.length]}`);
      }
      return `p50 ${pct(ms, 50).toFixed(2)} ms, p95 ${pct(ms, 95).toFixed(2)} ms`;
    };
    console.log(`  zimSearch latency (${SEARCHES} sequential calls, limit 5)`);
    console.log(`    full-text (fixturepedia):                 ${await time(['fixturepedia'], terms)}`);
    console.log(`    suggest fallback (book with no index):    ${await time(['noindex'], bookTerms)}`);
    console.log(`    two books (fixturepedia, fixturebooks):   ${await time(['fixturepedia', 'fixturebooks'], ['water', 'garden', 'heat', 'repair'])}`);
  } finally {
    await server.close();
    temp.remove();
  }
}
