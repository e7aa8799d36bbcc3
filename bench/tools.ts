// Household tools (issue 38). A real server (the converter's programs on the search path), then:
// 1. upload: a 100 MB file through the converter's receive path (POST /api/converter/jobs: session,
//    busboy, the file streamed to the job's folder, the job queued; measured to the 202) against the
//    same 100 MB uploaded to a bare node:http server that writes the request straight to a file on
//    the same disk (no session, no multipart, no checks). Target: Hearth ≥ 0.8x that direct write.
//    fs.writeFile of the bytes already in memory is printed too, for scale: it has no network at
//    all, so an upload over loopback (about 3 Gbit/s here) cannot come near it.
// 2. speed test download: GET /api/speedtest/garbage?ckSize=100 (100 MiB) against a plain 100 MiB
//    file served by a bare node:http server (fs stream, the file in the page cache) in the same run,
//    both read by one client to the end. Target: Hearth ≥ 0.9x.
// Each measurement 5 times, alternating, the median kept.
// Run: npm run bench -- tools
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { multipart } from '../test/harness/multipart.js';
import { makeTempDir } from '../test/harness/temp-dir.js';
import { startBenchServer } from './bench-server.js';

const MB100 = 100 * 1024 * 1024;
const RUNS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mbps = (bytes: number, ms: number) => (bytes * 8) / (ms / 1000) / 1e6;

async function timed(fn: () => Promise<void>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function drainGet(url: string, headers: Record<string, string>): Promise<number> {
  const res = await request(url, { headers });
  let n = 0;
  for await (const chunk of res.body) n += (chunk as Buffer).length;
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
  return n;
}

export async function run(): Promise<void> {
  const temp = makeTempDir('hearth-bench-tools-');
  const server = await startBenchServer({ name: 'tools', env: { PATH: '/usr/bin:/bin' }, overrides: { tuning: { converterMaxUploadBytes: 2 * MB100 } } });
  const bare = http.createServer((req, res) => {
    if (req.method === 'POST') {
      void pipeline(req, createWriteStream(path.join(temp.dir, 'bare-upload.bin'))).then(() => res.writeHead(202).end());
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    createReadStream(path.join(temp.dir, 'static.bin')).pipe(res);
  });
  try {
    const { url } = server;
    const { headers } = server.admin;
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

    // 1. upload
    const bytes = randomBytes(MB100);
    const form = multipart([
      { name: 'preset', value: 'pdf-smaller' },
      { name: 'file', filename: 'big.pdf', type: 'application/pdf', bytes },
    ]);
    const direct: number[] = [];
    const hearth: number[] = [];
    const overHttp: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      direct.push(await timed(() => writeFile(path.join(temp.dir, 'direct.bin'), bytes)));
      rmSync(path.join(temp.dir, 'direct.bin'));
      hearth.push(
        await timed(async () => {
          const r = await request(`${url}/api/converter/jobs`, { method: 'POST', body: form.body, headers: { ...headers, 'content-type': form.type } });
          const body = (await r.body.json()) as { jobId?: string };
          if (r.statusCode !== 202 || !body.jobId) throw new Error(`upload answered ${r.statusCode}`);
          // the job itself is not what is measured: stop it
          await request(`${url}/api/converter/jobs/${body.jobId}`, { method: 'DELETE', headers }).then((d) => d.body.dump());
        }),
      );
      overHttp.push(
        await timed(async () => {
          const r = await request(bareUrl, { method: 'POST', body: bytes });
          await r.body.dump();
        }),
      );
    }
    const d = median(direct);
    const h = median(hearth);
    const b = median(overHttp);
    console.log(
      `tools: 100 MB upload: Hearth's receive path ${h.toFixed(0)} ms (${mbps(MB100, h).toFixed(0)} Mbit/s); the same upload written straight to disk by a bare HTTP server ${b.toFixed(0)} ms: ${(b / h).toFixed(2)}x (target ≥ 0.8x); for scale, fs.writeFile of the bytes in memory ${d.toFixed(0)} ms (${(d / h).toFixed(2)}x)`,
    );

    // 2. download
    writeFileSync(path.join(temp.dir, 'static.bin'), bytes);
    const garbage: number[] = [];
    const plain: number[] = [];
    await drainGet(`${bareUrl}/static.bin`, {}); // the file into the page cache
    for (let i = 0; i < RUNS; i++) {
      garbage.push(
        await timed(async () => {
          if ((await drainGet(`${url}/api/speedtest/garbage?ckSize=100&r=${i}`, headers)) !== MB100) throw new Error('garbage was short');
        }),
      );
      plain.push(
        await timed(async () => {
          if ((await drainGet(`${bareUrl}/static.bin`, {})) !== MB100) throw new Error('the static file was short');
        }),
      );
    }
    const g = median(garbage);
    const p = median(plain);
    console.log(`tools: speed test download of 100 MiB: Hearth's garbage ${g.toFixed(0)} ms (${mbps(MB100, g).toFixed(0)} Mbit/s); a plain static file ${p.toFixed(0)} ms (${mbps(MB100, p).toFixed(0)} Mbit/s): ${(p / g).toFixed(2)}x (target ≥ 0.9x)`);
  } finally {
    bare.close();
    await server.close();
    temp.remove();
  }
}
