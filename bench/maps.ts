// Offline maps (issue 36). A real server with the test region Fixtureton installed through the admin
// download (a local file server as the catalog host), then, one phase after another:
// 1. tiles: rounds of 2,000 requests for the region's z14 tiles, 50 at a time, through Hearth's route
//    (session, region look-up, directory walk, ETag) against the baseline in the same run: a bare
//    node:http server that reads the same tile bytes from the same file with one positional read per
//    request (what serving the file's bytes costs at the least). After one warm-up round of each,
//    five rounds alternate; the median of the rounds' p95 ratios is the figure. Target: Hearth's p95
//    within 1/0.8 of it. CPU per tile and reading the tiles in-process with no HTTP are printed too;
// 2. place search: 200 GET /api/maps/geocode with prefixes of world city names and the town's streets
//    (p50/p95, target p95 < 10 ms);
// 3. directions: 30 GET /api/maps/route across the town by car and on foot (p50/p95, target < 200 ms).
// Run: npm run bench -- maps
import { open } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { RegionFiles } from '../server/modules/maps/region-files.js';
import { FakeFileServer } from '../test/fakes/file-server.js';
import { fixturetonRegion, fixturetonTiles, writeMapCatalog } from '../test/harness/maps.js';
import { connectSse } from '../test/harness/sse-client.js';
import { startBenchServer } from './bench-server.js';

const CONCURRENCY = 50;
const TILE_REQUESTS = 2_000;
const ROUNDS = 5;
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** Runs `n` calls of `one`, `concurrency` at a time; the time of each and the whole. */
async function pool(n: number, concurrency: number, one: (i: number) => Promise<void>): Promise<{ times: number[]; wallMs: number }> {
  const times: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const t = performance.now();
        await one(i);
        times.push(performance.now() - t);
      }
    }),
  );
  return { times, wallMs: performance.now() - t0 };
}

export async function run(): Promise<void> {
  const files = await new FakeFileServer().start();
  const town = fixturetonTiles();
  const server = await startBenchServer({ name: 'maps', env: { PATH: '/usr/bin:/bin' }, config: (dir) => ({ mapCatalogPath: writeMapCatalog(dir, [fixturetonRegion(files)]), fetchAllowOrigins: [files.url] }) });
  try {
    const { url } = server;
    const { headers } = server.admin;
    const t0 = performance.now();
    const install = await connectSse(url, '/api/admin/maps/download/fixtureton', headers, { body: {} });
    await install.ended;
    if (!install.events.some((e) => e.event === 'done')) throw new Error(`the region did not install: ${JSON.stringify(install.events.at(-1))}`);
    console.log(`maps: Fixtureton installed (download, place names, world cities, directions) in ${(performance.now() - t0).toFixed(0)} ms`);

    // 1. tiles
    const reader = new RegionFiles(4);
    const file = reader.get('bench', 'v1', path.join(server.dataDir, 'maps', 'fixtureton.pmtiles'));
    const z14: Array<[number, number]> = [];
    for await (const t of file.tilesAt(14)) z14.push([t.x, t.y]);
    const direct = await pool(TILE_REQUESTS, CONCURRENCY, async (i) => {
      const [x, y] = z14[i % z14.length]!;
      const found = await file.tile(14, x, y);
      if (found.kind !== 'tile') throw new Error('no tile');
    });
    // the baseline: the same bytes from the same file over a bare HTTP server
    const ranges: Array<{ offset: number; length: number }> = [];
    for (const [x, y] of z14) {
      const found = await file.tile(14, x, y);
      if (found.kind !== 'tile') throw new Error('no tile');
      ranges.push({ offset: town.indexOf(found.data), length: found.data.length });
    }
    await reader.closeAll();
    const fh = await open(path.join(server.dataDir, 'maps', 'fixtureton.pmtiles'), 'r');
    const bare = http.createServer((req, res) => {
      const r = ranges[Number(req.url!.slice(1)) % ranges.length]!;
      const buf = Buffer.alloc(r.length);
      void fh.read(buf, 0, r.length, r.offset).then(() => res.writeHead(200, { 'content-type': 'application/vnd.mapbox-vector-tile', 'content-encoding': 'gzip' }).end(buf));
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
    const viaHearth = (i: number) => {
      const [x, y] = z14[i % z14.length]!;
      return fetch(`${url}/api/maps/tiles/fixtureton/14/${x}/${y}.mvt`, { headers }).then(async (r) => {
        await r.arrayBuffer();
        if (r.status !== 200) throw new Error(`tile answered ${r.status}`);
      });
    };
    const viaBare = (i: number) => fetch(`${bareUrl}/${i}`).then((r) => r.arrayBuffer().then(() => undefined));
    // one unmeasured round of each warms the JIT (the first round alone was half as fast); then
    // rounds alternate so a busy moment of the machine falls on both sides alike
    await pool(TILE_REQUESTS, CONCURRENCY, viaHearth);
    await pool(TILE_REQUESTS, CONCURRENCY, viaBare);
    const rounds: Array<{ hearth: Awaited<ReturnType<typeof pool>>; bare: Awaited<ReturnType<typeof pool>>; hearthCpu: number; bareCpu: number }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      let cpu = process.cpuUsage();
      const hearth = await pool(TILE_REQUESTS, CONCURRENCY, viaHearth);
      const hearthCpu = cpuMs(process.cpuUsage(cpu));
      cpu = process.cpuUsage();
      const baseline = await pool(TILE_REQUESTS, CONCURRENCY, viaBare);
      rounds.push({ hearth, bare: baseline, hearthCpu, bareCpu: cpuMs(process.cpuUsage(cpu)) });
    }
    await new Promise((resolve) => bare.close(resolve));
    await fh.close();
    const rate = (p: { wallMs: number }) => (TILE_REQUESTS / p.wallMs) * 1000;
    const median = (xs: number[]) => pct(xs, 50);
    const ratios = rounds.map((r) => pct(r.bare.times, 95) / pct(r.hearth.times, 95));
    const hearthP95 = median(rounds.map((r) => pct(r.hearth.times, 95)));
    const bareP95 = median(rounds.map((r) => pct(r.bare.times, 95)));
    console.log(
      `maps: tiles, ${CONCURRENCY} at a time, ${ROUNDS} rounds of ${TILE_REQUESTS} after a warm-up (medians): Hearth ${median(rounds.map((r) => rate(r.hearth))).toFixed(0)}/s, p95 ${hearthP95.toFixed(1)} ms; ` +
        `the file's bytes over bare HTTP ${median(rounds.map((r) => rate(r.bare))).toFixed(0)}/s, p95 ${bareP95.toFixed(1)} ms: ${median(ratios).toFixed(2)}x (rounds ${ratios.map((x) => x.toFixed(2)).join(', ')}; target ≥ 0.8x); ` +
        `CPU per tile (client and server in this process) ${(median(rounds.map((r) => r.hearthCpu)) / TILE_REQUESTS).toFixed(3)} vs ${(median(rounds.map((r) => r.bareCpu)) / TILE_REQUESTS).toFixed(3)} ms; in-process, no HTTP: ${rate(direct).toFixed(0)}/s`,
    );

    // 2. place search (the world cities are loaded by the install)
    const prefixes = ['par', 'lond', 'new yo', 'cambr', 'zur', 'sao pa', 'tok', 'ber', 'mad', 'rom', 'high st', 'oak', 'market', 'copper', 'willow'];
    const geocode = await pool(200, 1, async (i) => {
      const r = await fetch(`${url}/api/maps/geocode?q=${encodeURIComponent(prefixes[i % prefixes.length]!)}&near=52.195,0.31&limit=10`, { headers });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`geocode answered ${r.status}`);
    });
    console.log(`maps: place search over ${prefixes.length} prefixes: p50 ${pct(geocode.times, 50).toFixed(2)} ms, p95 ${pct(geocode.times, 95).toFixed(2)} ms (target p95 < 10 ms)`);

    // 3. directions
    const trips = ['from=52.19,0.3&to=52.2005,0.3168&mode=car', 'from=52.1915,0.3052&to=52.199,0.31&mode=foot', 'from=52.2005,0.3&to=52.19,0.3168&mode=bike'];
    const route = await pool(30, 1, async (i) => {
      const r = await fetch(`${url}/api/maps/route?${trips[i % trips.length]!}`, { headers });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`route answered ${r.status}`);
    });
    console.log(`maps: directions in the town: p50 ${pct(route.times, 50).toFixed(1)} ms, p95 ${pct(route.times, 95).toFixed(1)} ms (target < 200 ms)`);
  } finally {
    await server.close();
    await files.close();
  }
}
