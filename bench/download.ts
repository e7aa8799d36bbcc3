// Download throughput: Hearth's queue (guarded request, streaming sha256, .part file, rename)
// against curl fetching the same file from the same local server in the same run, plus Hearth's
// resident memory sampled during the transfer, for two file sizes (memory must not grow with size).
// Run: npm run build && npm run bench -- download   (BENCH_DOWNLOAD_MB=1024 by default)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '../test/harness/temp-dir.js';
import { freePort, until } from '../test/harness/net.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MB = 1024 * 1024;

function makeFile(file: string, mb: number): string {
  const block = randomBytes(MB);
  const hash = createHash('sha256');
  const fd = openSync(file, 'w');
  for (let i = 0; i < mb; i++) {
    block[0] = i & 0xff; // not one repeated block
    writeSync(fd, block);
    hash.update(block);
  }
  closeSync(fd);
  return hash.digest('hex');
}

const rss = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function startFileServer(file: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/file-server-child.ts'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));
  return { url, child };
}

async function hearthDownload(url: string, sha: string, bytes: number): Promise<{ seconds: number; peakRssMB: number; idleRssMB: number }> {
  const temp = makeTempDir('hearth-bench-');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(root, 'dist/server/cli.js')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: temp.dir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: 'http://127.0.0.1:9', FETCH_ALLOW_ORIGINS: new URL(url).origin },
    stdio: 'ignore',
  });
  try {
    await until(async () => (await fetch(`${base}/api/system/ready`)).status === 200, 'Hearth to start', 20_000);
    const setup = await fetch(`${base}/api/setup/admin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench', pin: '1234' }) });
    const cookie = setup.headers.get('set-cookie')!.split(';')[0]!;
    const idleRssMB = rss(child.pid!);
    let peak = idleRssMB;
    const sampler = setInterval(() => (peak = Math.max(peak, rss(child.pid!))), 100);
    const t0 = performance.now();
    const enq = await fetch(`${base}/api/admin/queue/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ jobs: [{ kind: 'archive', hostClass: 'archive', label: 'bench', target: url, destination: 'archives/bench.bin', expectedBytes: bytes, sha256: sha }] }),
    });
    const id = ((await enq.json()) as { jobs: Array<{ id: string }> }).jobs[0]!.id;
    const finished = await until(async () => {
      const s = (await (await fetch(`${base}/api/jobs/status`, { headers: { cookie } })).json()) as { jobs: Array<{ id: string; state: string; lastError: string | null }> };
      const j = s.jobs.find((x) => x.id === id)!;
      return j.state === 'completed' || j.state === 'failed' ? j : null;
    }, 'the download', 600_000, 100);
    if (finished.state === 'failed') throw new Error(`download failed: ${finished.lastError}`);
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    return { seconds, peakRssMB: peak, idleRssMB };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    temp.remove();
  }
}

function curlDownload(url: string, out: string): number {
  const t0 = performance.now();
  const r = spawnSync('curl', ['-sf', '-o', out, url]);
  if (r.status !== 0) throw new Error(`curl failed (${r.status})`);
  const seconds = (performance.now() - t0) / 1000;
  rmSync(out, { force: true });
  return seconds;
}

export async function run(): Promise<void> {
  const bigMB = Number(process.env.BENCH_DOWNLOAD_MB ?? 1024);
  const sizes = [Math.max(64, Math.round(bigMB / 4)), bigMB];
  const temp = makeTempDir('hearth-bench-files-');
  try {
    console.log(`download (loopback, file served by a separate process; curl and Hearth in the same run)`);
    for (const mb of sizes) {
      const file = path.join(temp.dir, `src-${mb}.bin`);
      const sha = makeFile(file, mb);
      const server = await startFileServer(file);
      try {
        curlDownload(server.url, path.join(temp.dir, 'warm.bin')); // warm the page cache
        const curlS = curlDownload(server.url, path.join(temp.dir, 'curl.bin'));
        const h = await hearthDownload(server.url, sha, mb * MB);
        const curlMBs = mb / curlS;
        const hearthMBs = mb / h.seconds;
        console.log(`  ${mb} MB: curl ${curlMBs.toFixed(0)} MB/s, hearth ${hearthMBs.toFixed(0)} MB/s (with sha256 + verify) = ${(hearthMBs / curlMBs).toFixed(2)}x curl; hearth RSS idle ${h.idleRssMB.toFixed(0)} MB, peak ${h.peakRssMB.toFixed(0)} MB`);
      } finally {
        server.child.kill('SIGTERM');
        rmSync(file, { force: true });
      }
    }
    console.log('  targets: at least 0.9x curl; peak RSS flat across sizes');
  } finally {
    temp.remove();
  }
}
