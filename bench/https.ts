// `npm run bench -- https`: HTTPS beside HTTP on the same server, the same routes, in one run (issue
// 31). 50 keep-alive connections each way, alternating rounds so both see the same machine state:
// a small API answer (GET /api/system/ready; target: HTTPS at least 0.8x HTTP's requests per
// second) and a 1 MB web app asset (target: at least 0.5x). BENCH_SECONDS sets each phase's length.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadInWorker, type LoadResult } from './http-load.js';

const CONNECTIONS = 50;
const PHASE_S = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ASSET_BYTES = 1024 * 1024;

const fmt = (r: LoadResult) => `${r.rps.toFixed(0)} req/s, ${r.mbps.toFixed(1)} MB/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, errors ${r.errors}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function run(): Promise<void> {
  const { createServer } = await import('../server/app.js');
  const { loadConfig } = await import('../server/config.js');
  const { createMemoryLogger } = await import('../server/platform/logger.js');
  const { makeTempDir } = await import('../test/harness/temp-dir.js');

  const temp = makeTempDir('hearth-bench-https-');
  const webDir = path.join(temp.dir, 'web');
  mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Hearth</title>');
  // a hashed asset of the build's kind that is not precompressed (an image, a font, a model file)
  writeFileSync(path.join(webDir, 'assets', 'photo-3f9a1c.bin'), randomBytes(ASSET_BYTES));
  const dataDir = path.join(temp.dir, 'data');
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: 'http://127.0.0.1:9', PATH: '' }, []), host: '127.0.0.1', port: 0, httpsPort: 0, webDir };
  const server = await createServer(config, { logger: createMemoryLogger('warn') });
  try {
    const { url } = await server.listen(0, '127.0.0.1');
    await server.deps.boot.start();
    const secure = await server.secure();
    if (!secure) throw new Error('HTTPS did not open');
    const ca = readFileSync(path.join(dataDir, 'tls', 'ca.crt'), 'utf8');
    const tls = { ca, servername: 'localhost' };
    const routes = [
      { name: 'small API answer (GET /api/system/ready)', path: '/api/system/ready', target: 0.8 },
      { name: '1 MB asset (GET /assets/photo-3f9a1c.bin)', path: '/assets/photo-3f9a1c.bin', target: 0.5 },
    ];
    console.log(`https: ${CONNECTIONS} keep-alive connections, ${ROUNDS} rounds of ${PHASE_S} s each way, HTTP ${url} vs HTTPS ${secure.url} (TLS 1.3, ECDSA P-256 household certificate)`);
    const summary: string[] = [];
    for (const route of routes) {
      const ratios: number[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        // the order alternates, so neither side always runs on a warmer (or hotter) machine
        const order = round % 2 ? (['http', 'https'] as const) : (['https', 'http'] as const);
        const results: Partial<Record<'http' | 'https', LoadResult>> = {};
        for (const scheme of order) {
          const base = scheme === 'http' ? url : `https://localhost:${secure.port}`;
          results[scheme] = await loadInWorker(`${base}${route.path}`, { connections: CONNECTIONS, seconds: PHASE_S, ...(scheme === 'https' ? { tls } : {}) });
        }
        const ratio = results.https!.rps / results.http!.rps;
        ratios.push(ratio);
        console.log(`  ${route.name}, round ${round}: HTTP ${fmt(results.http!)} | HTTPS ${fmt(results.https!)} | ratio ${ratio.toFixed(2)}x`);
      }
      const m = median(ratios);
      summary.push(`  ${route.name}: HTTPS/HTTP median ${m.toFixed(2)}x (target >= ${route.target}x) ${m >= route.target ? 'OK' : 'BELOW TARGET'}`);
    }
    console.log(summary.join('\n'));
  } finally {
    await server.close();
    temp.remove();
  }
}
