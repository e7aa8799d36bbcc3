// Start-up benchmark: process start -> GET /api/system/ready 200, and resident memory after boot,
// for the built headless server (no sidecars), against a bare Node HTTP server measured in the same
// run as the baseline. Run: npm run build && npm run bench -- startup
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/harness/net.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

async function waitFor200(url: string, deadlineMs: number): Promise<void> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > end) throw new Error(`${url} not ready within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const rssBytes = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

async function measure(start: (port: number, dataDir: string) => ChildProcess, readyPath: string) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-'));
  const t0 = performance.now();
  const child = start(port, dataDir);
  try {
    await waitFor200(`http://127.0.0.1:${port}${readyPath}`, 20_000);
    const readyMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 1500)); // idle after boot
    return { readyMs, rss: rssBytes(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<void> {
  const hearth: Array<{ readyMs: number; rss: number }> = [];
  const bare: Array<{ readyMs: number; rss: number }> = [];
  for (let i = 0; i < RUNS; i++) {
    bare.push(
      await measure(
        (port) => spawn(process.execPath, ['-e', `require('http').createServer((q,s)=>s.end('ok')).listen(${port},'127.0.0.1')`], { stdio: 'ignore' }),
        '/',
      ),
    );
    hearth.push(
      await measure(
        (port, dataDir) =>
          spawn(process.execPath, [path.join(root, 'dist/server/cli.js')], {
            env: { ...process.env, PORT: String(port), HTTPS_PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: 'http://127.0.0.1:9' },
            stdio: 'ignore',
          }),
        '/api/system/ready',
      ),
    );
  }
  const h = { readyMs: median(hearth.map((x) => x.readyMs)), rssMB: median(hearth.map((x) => x.rss)) / 2 ** 20 };
  const b = { readyMs: median(bare.map((x) => x.readyMs)), rssMB: median(bare.map((x) => x.rss)) / 2 ** 20 };
  console.log(`startup (median of ${RUNS}, fresh DATA_DIR each, no sidecars)`);
  console.log(`  bare node http:  ready ${b.readyMs.toFixed(0)} ms, idle RSS ${b.rssMB.toFixed(1)} MB`);
  console.log(`  hearth:          ready ${h.readyMs.toFixed(0)} ms, idle RSS ${h.rssMB.toFixed(1)} MB`);
  console.log(`  ratio:           ready ${(h.readyMs / b.readyMs).toFixed(2)}x, RSS ${(h.rssMB / b.rssMB).toFixed(2)}x`);
  console.log(`  targets:         ready <= 1000 ms ${h.readyMs <= 1000 ? 'met' : 'MISSED'}, RSS < 150 MB ${h.rssMB < 150 ? 'met' : 'MISSED'}`);
}
