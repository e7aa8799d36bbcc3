// The Reader's large imports and exports share the server with everyone else (issue 13): while
// 20,000 bookmarks are imported, and while the whole library is exported as JSON and as HTML, the
// server's event loop must keep reaching I/O. This measures its delay (perf_hooks, 5 ms
// resolution) during each, against the same server sitting idle for as long in the same run (the
// baseline), and counts the cheap requests answered meanwhile. Moved here from
// test/api/reader-load.test.ts, which keeps the behaviour (other requests are answered) without a
// timed bound. Run: npm run bench -- reader-load
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { synthetic } from './bookmarks-import.js';
import { startBenchServer } from './bench-server.js';

const COUNT = Number(process.env.BENCH_READER_BOOKMARKS ?? 20_000);

interface Phase {
  ms: number;
  p99: number;
  max: number;
  answered: number;
}

/** Runs `work` with the event-loop delay sampled and GET `cheap` asked in a loop meanwhile. */
async function measured(cheap: () => Promise<Response>, work: () => Promise<unknown>): Promise<Phase> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  let finished = false;
  let answered = 0;
  const others = (async () => {
    while (!finished) {
      const r = await cheap();
      await r.arrayBuffer();
      if (!finished) answered++;
    }
  })();
  h.enable();
  const t = performance.now();
  try {
    await work();
  } finally {
    finished = true;
    await others;
  }
  const ms = performance.now() - t;
  h.disable();
  return { ms, p99: h.percentile(99) / 1e6, max: h.max / 1e6, answered };
}

export async function run(): Promise<void> {
  const server = await startBenchServer({ name: 'reader-load' });
  try {
    const { url } = server;
    const { headers } = server.member;
    const cheap = () => fetch(`${url}/api/notifications/unread-count`, { headers });
    const html = synthetic(COUNT);

    const importing = await measured(cheap, async () => {
      const r = await fetch(`${url}/api/reader/import/html`, { method: 'POST', headers: { ...headers, 'content-type': 'text/html' }, body: html });
      await r.text();
      if (r.status !== 200) throw new Error(`import answered ${r.status}`);
    });
    const exporting = async (kind: 'json' | 'html') =>
      measured(cheap, async () => {
        const r = await fetch(`${url}/api/reader/export/${kind}`, { headers });
        await r.arrayBuffer();
        if (r.status !== 200) throw new Error(`export ${kind} answered ${r.status}`);
      });
    const json = await exporting('json');
    const exportHtml = await exporting('html');
    const idle = await measured(cheap, () => sleep(Math.max(1000, importing.ms)));

    const line = (name: string, p: Phase) =>
      `reader-load: ${name}: ${p.ms.toFixed(0)} ms; event-loop delay p99 ${p.p99.toFixed(1)} ms (${(p.p99 / idle.p99).toFixed(1)}x idle), max ${p.max.toFixed(1)} ms; ${p.answered} other requests answered (${((p.answered / p.ms) * 1000).toFixed(0)}/s; idle ${((idle.answered / idle.ms) * 1000).toFixed(0)}/s)`;
    console.log(`reader-load: idle baseline: event-loop delay p99 ${idle.p99.toFixed(1)} ms, max ${idle.max.toFixed(1)} ms`);
    console.log(line(`import of ${COUNT} bookmarks`, importing));
    console.log(line('export as JSON', json));
    console.log(line('export as HTML', exportHtml));
  } finally {
    await server.close();
  }
}
