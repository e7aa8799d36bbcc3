// A small closed-loop HTTP load generator in a worker thread: `connections` loops, each sending
// the next GET as soon as the previous response has been read whole. It uses node:http with a
// keep-alive agent, so it keeps connections open where the server allows it and opens a new one
// per request where the server closes them (kiwix-serve answers `Connection: close` to everything).
//
// Why not autocannon here: autocannon writes the next request onto a socket the server is closing,
// loses it, and keeps measuring latency from the lost request, so against kiwix-serve it reports
// p50 latencies above a second and a fraction of the real rate (228 req/s for the 200 KB image
// where a plain node:http loop gets 1,700). Its reconnectRate option stops counting responses.
import http from 'node:http';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

export interface LoadResult {
  requests: number;
  rps: number;
  mbps: number;
  p50: number;
  p99: number;
  errors: number;
  statuses: Record<string, number>;
}

interface Job {
  kind: 'http-load';
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
}

async function runLoad(job: Job): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let bytes = 0;
  let errors = 0;
  const start = performance.now();
  const end = start + job.seconds * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.get(job.url, { agent, headers: job.headers }, (res) => {
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => {
          statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
          if ((res.statusCode ?? 0) >= 400) errors++;
          latencies.push(performance.now() - t0);
          resolve();
        });
        res.on('error', () => {
          errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: job.connections }, async () => {
      while (performance.now() < end) await one();
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return { requests: latencies.length, rps: latencies.length / seconds, mbps: bytes / seconds / 1e6, p50: at(0.5), p99: at(0.99), errors, statuses };
}

/** Runs the load from a worker thread, so the generator does not share the caller's event loop. */
export function loadInWorker(url: string, opts: { connections: number; seconds: number; headers?: Record<string, string> }): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    // the worker loads this file through tsx (a worker does not inherit the --import tsx hooks)
    const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
    const worker = new Worker(boot, { eval: true, workerData: { kind: 'http-load', url, ...opts } satisfies Job });
    worker.once('message', (r: LoadResult) => {
      resolve(r);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

if (!isMainThread && (workerData as Job | undefined)?.kind === 'http-load') {
  void runLoad(workerData as Job).then((r) => parentPort!.postMessage(r));
}
