// Download throughput: Hearth's queue (guarded request, streaming sha256, .part file, verify size
// and sha256, rename) against curl fetching the same file from the same local server in the same
// run, plus Hearth's resident memory during the transfers, for two file sizes (memory must not grow
// with size). Fairness: every timed transfer starts after `sync` (no other transfer's dirty pages
// being written back during it), the rounds alternate which of the two goes first (an even number
// of them: here whichever goes first is often the faster, so an odd count favours one side), and
// the result is the median of each side, with each round's own ratio beside it. Hearth's time is from just before the enqueue request to the job's
// finishedAt (same clock; the status is polled only every 250 ms, so that polling costs the server
// next to nothing and its granularity does not count); the job's own startedAt..finishedAt is
// printed beside it. Each round also
// prints the CPU time per GB of curl, of the whole Hearth process and of the file server ("source").
// Page state: in a VM whose balloon reports free pages to the host, writing into memory that was
// given back costs ~3x the system time of writing into memory freed a moment ago (1 GB with curl:
// 2.2 s and 1.8 sys-s vs 1.2 s and 0.5 sys-s here), which swamped every other difference. So each
// timed transfer is preceded by writing and deleting a scratch file of the same size ("warm", the
// default, what a bare-metal machine always has); BENCH_DOWNLOAD_PAGES=cold waits 5 s instead, so
// both pay the host's cost.
// Run: npm run build && npm run bench -- download
//   BENCH_DOWNLOAD_MB=1024 (largest size; the other is a quarter), BENCH_DOWNLOAD_ROUNDS=4
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { guardedGet } from '../server/adapters/web/http-get.js';
import { createSsrfGuard, guardedRequest } from '../server/platform/ssrf.js';
import { makeTempDir } from '../test/harness/temp-dir.js';
import { freePort, until } from '../test/harness/net.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MB = 1024 * 1024;
const TICKS = 100; // /proc/<pid>/stat clock ticks per second on Linux

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
/** User and system CPU seconds a process (all its threads) has used so far. */
function cpu(pid: number): { user: number; sys: number } {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(f[11]) / TICKS, sys: Number(f[12]) / TICKS };
}
const COLD = process.env.BENCH_DOWNLOAD_PAGES === 'cold';
let scratchDir = '';
/** Brings every timed transfer to the same page state (see the top of the file), then syncs. */
function settle(bytes: number): void {
  if (COLD) {
    spawnSync('sync');
    spawnSync('sleep', ['5']);
    return;
  }
  const scratch = path.join(scratchDir, 'scratch.bin');
  const block = Buffer.alloc(MB, 1);
  const fd = openSync(scratch, 'w');
  for (let done = 0; done < bytes; done += MB) writeSync(fd, block);
  closeSync(fd);
  rmSync(scratch);
  spawnSync('sync');
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function startFileServer(file: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/file-server-child.ts'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));
  return { url, child };
}

interface HearthRun {
  seconds: number;
  /** The job's own startedAt..finishedAt (ms resolution). */
  jobSeconds: number;
  cpuUser: number;
  cpuSys: number;
}

/** One Hearth server for all rounds of one size; peak RSS is sampled across all of them. */
async function startHearth(sourceOrigin: string) {
  const temp = makeTempDir('hearth-bench-');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(root, 'dist/server/cli.js')], {
    env: { ...process.env, PORT: String(port), HTTPS_PORT: '0', HOST: '127.0.0.1', DATA_DIR: temp.dir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: 'http://127.0.0.1:9', FETCH_ALLOW_ORIGINS: sourceOrigin },
    stdio: 'ignore',
  });
  await until(async () => (await fetch(`${base}/api/system/ready`)).status === 200, 'Hearth to start', 20_000);
  const setup = await fetch(`${base}/api/setup/admin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench', pin: '1234' }) });
  const cookie = setup.headers.get('set-cookie')!.split(';')[0]!;
  const pid = child.pid!;
  const idleRssMB = rss(pid);
  let peakRssMB = idleRssMB;
  const sampler = setInterval(() => (peakRssMB = Math.max(peakRssMB, rss(pid))), 50);
  let n = 0;

  const download = async (url: string, sha: string, bytes: number): Promise<HearthRun> => {
    const destination = `archives/bench-${n++}.bin`;
    settle(bytes);
    const c0 = cpu(pid);
    const t0 = Date.now();
    const enq = await fetch(`${base}/api/admin/queue/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ jobs: [{ kind: 'archive', hostClass: 'archive', label: 'bench', target: url, destination, expectedBytes: bytes, sha256: sha }] }),
    });
    const id = ((await enq.json()) as { jobs: Array<{ id: string }> }).jobs[0]!.id;
    type Job = { id: string; state: string; lastError: string | null; startedAt: string | null; finishedAt: string | null };
    const finished = await until(
      async () => {
        const s = (await (await fetch(`${base}/api/jobs/status`, { headers: { cookie } })).json()) as { jobs: Job[] };
        const j = s.jobs.find((x) => x.id === id)!;
        return j.state === 'completed' || j.state === 'failed' ? j : null;
      },
      'the download',
      600_000,
      250,
    );
    const c1 = cpu(pid);
    if (finished.state === 'failed') throw new Error(`download failed: ${finished.lastError}`);
    rmSync(path.join(temp.dir, destination), { force: true });
    const seconds = (Date.parse(finished.finishedAt!) - t0) / 1000;
    const jobSeconds = (Date.parse(finished.finishedAt!) - Date.parse(finished.startedAt!)) / 1000;
    return { seconds, jobSeconds, cpuUser: c1.user - c0.user, cpuSys: c1.sys - c0.sys };
  };

  const stop = async () => {
    clearInterval(sampler);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    temp.remove();
  };
  return { download, stop, idleRssMB, peakRssMB: () => peakRssMB };
}

function curlDownload(url: string, out: string, bytes: number): { seconds: number; cpuUser: number; cpuSys: number } {
  settle(bytes);
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', 'curl', '-sf', '-o', out, url]);
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`curl failed (${r.status}): ${r.stderr.toString()}`);
  const [user, sys] = r.stderr.toString().trim().split('\n').at(-1)!.split(' ').map(Number);
  rmSync(out, { force: true });
  return { seconds, cpuUser: user!, cpuSys: sys! };
}

/**
 * The read path alone, in this process, for the largest file: the socket read + sha256 loop of
 * guardedGet (one reused read buffer) against the same loop over undici's body stream
 * (guardedRequest), alternating, no disk writes. This is why downloads do not read through undici.
 */
async function readPathComparison(url: string, mb: number, rounds: number): Promise<void> {
  const guard = createSsrfGuard({ allowOrigins: [new URL(url).origin] });
  const sides = {
    undici: async () => {
      const hash = createHash('sha256');
      const res = await guardedRequest(guard, url);
      for await (const chunk of res.body) hash.update(chunk as Buffer);
      return hash.digest('hex');
    },
    guardedGet: async () => {
      const hash = createHash('sha256');
      const res = await guardedGet(guard, url);
      await res.readBody((chunk) => void hash.update(chunk));
      return hash.digest('hex');
    },
  };
  const results: Record<string, Array<{ seconds: number; cpu: number }>> = { undici: [], guardedGet: [] };
  try {
    for (let i = 0; i < rounds; i++) {
      for (const name of i % 2 === 0 ? (['undici', 'guardedGet'] as const) : (['guardedGet', 'undici'] as const)) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        await sides[name]();
        const c = process.cpuUsage(c0);
        results[name]!.push({ seconds: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 });
      }
    }
  } finally {
    await guard.close();
  }
  const line = (name: string) => {
    const r = results[name]!;
    return `${name} ${(mb / median(r.map((x) => x.seconds))).toFixed(0)} MB/s, ${((median(r.map((x) => x.cpu)) * 1024) / mb).toFixed(2)} CPU-s/GB`;
  };
  const cpuRatio = median(results.guardedGet!.map((x) => x.cpu)) / median(results.undici!.map((x) => x.cpu));
  console.log(`  read path only (${mb} MB, socket reads + sha256, no disk, medians of ${rounds}): ${line('guardedGet')}; ${line('undici')}; guardedGet uses ${cpuRatio.toFixed(2)}x undici's CPU`);
}

export async function run(): Promise<void> {
  const bigMB = Number(process.env.BENCH_DOWNLOAD_MB ?? 1024);
  // even, so that each side goes first as often as the other (whichever goes first is often faster here)
  const rounds = Number(process.env.BENCH_DOWNLOAD_ROUNDS ?? 4);
  const sizes = [Math.max(64, Math.round(bigMB / 4)), bigMB];
  const temp = makeTempDir('hearth-bench-files-');
  scratchDir = temp.dir;
  const cpuNote = (c: { cpuUser: number; cpuSys: number }, mb: number) => `${(((c.cpuUser + c.cpuSys) * 1024) / mb).toFixed(2)} CPU-s/GB (sys ${((c.cpuSys * 1024) / mb).toFixed(2)})`;
  try {
    console.log(`download (loopback, file served by a separate process; curl and Hearth in the same run, ${rounds} rounds alternating order, ${COLD ? 'cold pages' : 'warm pages'} and sync before each, medians)`);
    for (const mb of sizes) {
      const file = path.join(temp.dir, `src-${mb}.bin`);
      const sha = makeFile(file, mb);
      const server = await startFileServer(file);
      const hearth = await startHearth(new URL(server.url).origin);
      try {
        spawnSync('curl', ['-sf', '-o', '/dev/null', server.url]); // warm the page cache and the file server
        const curlRuns: ReturnType<typeof curlDownload>[] = [];
        const hearthRuns: HearthRun[] = [];
        for (let i = 0; i < rounds; i++) {
          const order = i % 2 === 0 ? ['curl', 'hearth'] : ['hearth', 'curl'];
          const sourceCpu: Record<string, number> = {};
          for (const who of order) {
            const s0 = cpu(server.child.pid!);
            if (who === 'curl') curlRuns.push(curlDownload(server.url, path.join(temp.dir, 'curl.bin'), mb * MB));
            else hearthRuns.push(await hearth.download(server.url, sha, mb * MB));
            const s1 = cpu(server.child.pid!);
            sourceCpu[who] = s1.user + s1.sys - s0.user - s0.sys;
          }
          const c = curlRuns.at(-1)!;
          const h = hearthRuns.at(-1)!;
          console.log(
            `    ${mb} MB round ${i + 1} (${order[0]} first): curl ${(mb / c.seconds).toFixed(0)} MB/s [${cpuNote(c, mb)}; source ${((sourceCpu.curl! * 1024) / mb).toFixed(2)}], hearth ${(mb / h.seconds).toFixed(0)} MB/s (job ${(mb / h.jobSeconds).toFixed(0)} MB/s) [${cpuNote(h, mb)}; source ${((sourceCpu.hearth! * 1024) / mb).toFixed(2)}]`,
          );
        }
        const curlMBs = mb / median(curlRuns.map((r) => r.seconds));
        const hearthMBs = mb / median(hearthRuns.map((r) => r.seconds));
        const jobMBs = mb / median(hearthRuns.map((r) => r.jobSeconds));
        // each round's own ratio: the two transfers of a round ran under the most similar conditions
        const pairRatios = hearthRuns.map((h, i) => curlRuns[i]!.seconds / h.seconds);
        if (mb === bigMB) await readPathComparison(server.url, mb, rounds);
        console.log(
          `  ${mb} MB: curl ${curlMBs.toFixed(0)} MB/s, hearth ${hearthMBs.toFixed(0)} MB/s (job's own time ${jobMBs.toFixed(0)} MB/s; with sha256 + verify) = ${(hearthMBs / curlMBs).toFixed(2)}x curl (medians of ${rounds}; the rounds' own ratios ${pairRatios.map((r) => r.toFixed(2)).join(', ')}, median ${median(pairRatios).toFixed(2)}x); hearth RSS idle ${hearth.idleRssMB.toFixed(0)} MB, peak ${hearth.peakRssMB().toFixed(0)} MB`,
        );
      } finally {
        await hearth.stop();
        server.child.kill('SIGTERM');
        rmSync(file, { force: true });
      }
    }
    console.log('  targets: at least 0.9x curl; peak RSS flat across sizes');
  } finally {
    temp.remove();
  }
}
