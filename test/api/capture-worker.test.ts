// The capture engine's DOM work runs in the parse worker: the static path (no Chromium needed)
// against local fixture pages. A worker that runs over its budget, exits or exhausts its heap fails
// that one capture with a clear CaptureError and the next capture works on a fresh worker; the
// main thread's event loop keeps turning while the worker is busy.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOM_TASKS_MODULE } from '../../server/modules/reader/capture/dom-tasks.js';
import { createCaptureEngine } from '../../server/modules/reader/capture/engine.js';
import { CaptureError, type CaptureEngine, type CaptureRequest } from '../../server/modules/reader/capture/types.js';
import { createMemoryLogger } from '../../server/platform/logger.js';
import { createSsrfGuard, type SsrfGuard } from '../../server/platform/ssrf.js';
import { ParseWorker, WorkerTaskError, WorkerTimeoutError } from '../../server/platform/workers/parse-worker.js';
import { until } from '../harness/net.js';
import { makeTempDir } from '../harness/temp-dir.js';

const FAULTY = new URL('../fixtures/capture/faulty-dom-tasks.ts', import.meta.url);

const para = (n: number) => Array.from({ length: n }, (_, i) => `<p>${i + 1}. The household kept its notes in a shared notebook by the stove, and every evening someone read them aloud to whoever was still awake.</p>`).join('\n');
const page = (title: string, marker = '') =>
  `<!doctype html><html lang="en"><head><title>${title}</title><style>body{background:url(/bg.png)}</style></head><body><!-- ${marker} --><article><h1>${title}</h1><img src="/pic.png" alt="">${para(30)}</article></body></html>`;
// a 1x1 PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let server: http.Server;
let origin: string;
let guard: SsrfGuard;
const temp = makeTempDir('hearth-capture-worker-');
let n = 0;
/** While set, /held answers only once it resolves. */
let held: Promise<void> | null = null;

function req(p: string, extra: Partial<CaptureRequest> = {}): CaptureRequest {
  return { url: origin + p, mode: 'archive', outDir: path.join(temp.dir, `c${++n}`), publicBase: `/api/reader/item${n}/archive/`, ...extra };
}

async function captureError(p: Promise<unknown>): Promise<CaptureError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(CaptureError);
    return err as CaptureError;
  }
  throw new Error('expected the capture to fail');
}

beforeAll(async () => {
  server = http.createServer((q, res) => {
    const p = q.url ?? '/';
    if (p.endsWith('.png')) {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(PNG);
    }
    if (p === '/held' && held) {
      void held.then(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page('Page /held'));
      });
      return;
    }
    const marker = { '/spin': 'hearth-test:spin', '/exit': 'hearth-test:exit', '/oom': 'hearth-test:oom', '/slow': 'hearth-test:slow' }[p] ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page(`Page ${p}`, marker));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  guard = createSsrfGuard({ allowOrigins: [origin] });
});

afterAll(async () => {
  await guard.close();
  await new Promise<void>((r) => server.close(() => r()));
  temp.remove();
});

describe('capture engine: DOM work in the parse worker', () => {
  it('runs the snapshot, reader view and challenge check in the worker', async () => {
    const worker = new ParseWorker({ handlers: DOM_TASKS_MODULE });
    const engine = createCaptureEngine({ guard, browserEnabled: false, parseWorker: worker, logger: createMemoryLogger('warn') });
    try {
      const r = req('/article');
      const res = await engine.capture(r);
      expect(res.method).toBe('static');
      expect(res.title).toBe('Page /article');
      expect(res.wordCount).toBeGreaterThan(300);
      expect(res.contentHtml).toMatch(new RegExp(`src="${r.publicBase}assets/[0-9a-f]{32}\\.png"`));
      const snapshot = readFileSync(path.join(r.outDir, 'index.html'), 'utf8');
      expect(snapshot).toMatch(/<img src="assets\/[0-9a-f]{32}\.png"/);
      expect(snapshot).toMatch(/url\("assets\/[0-9a-f]{32}\.png"\)/);
      const st = worker.stats();
      expect(st.threadId).not.toBeNull();
      expect(st.starts).toBe(1);
      expect(st.completed).toBeGreaterThanOrEqual(3); // challenge, prepare, render
    } finally {
      await engine.close();
      await worker.close(); // a worker the engine was given is not the engine's to close
    }
    expect(worker.stats().threadId).toBeNull();
  });

  it('a task over budget, a worker that exits and one out of heap each fail one capture; the next capture works', async () => {
    const worker = new ParseWorker({ handlers: FAULTY, taskTimeoutMs: 2_000, maxOldGenerationSizeMb: 64 });
    const engine = createCaptureEngine({ guard, browserEnabled: false, parseWorker: worker, logger: createMemoryLogger('error') });
    try {
      expect((await engine.capture(req('/before'))).title).toBe('Page /before');

      const t0 = Date.now();
      const spin = await captureError(engine.capture(req('/spin')));
      expect(spin.code).toBe('timeout');
      expect(spin.message).toMatch(/took too long to process \(over 2 s\)/);
      expect(Date.now() - t0).toBeLessThan(15_000);
      expect((await engine.capture(req('/after-spin'))).title).toBe('Page /after-spin');

      const exit = await captureError(engine.capture(req('/exit')));
      expect(exit.code).toBe('timeout');
      expect(exit.message).toMatch(/too large or complex to process/);
      expect((await engine.capture(req('/after-exit'))).title).toBe('Page /after-exit');

      const oom = await captureError(engine.capture(req('/oom')));
      expect(oom.code).toBe('timeout');
      expect(oom.message).toMatch(/too large or complex to process/);
      const after = await engine.capture(req('/after-oom'));
      expect(after.title).toBe('Page /after-oom');
      expect(after.contentHtml).toContain('assets/');

      const st = worker.stats();
      expect(st.starts).toBe(4); // the first, and one after each failure
      expect(st.failed).toBe(3);
    } finally {
      await worker.close();
      await engine.close();
    }
  }, 60_000);

  it("keeps the main thread's event loop turning while the worker parses", async () => {
    const worker = new ParseWorker({ handlers: FAULTY });
    const engine = createCaptureEngine({ guard, browserEnabled: false, parseWorker: worker, logger: createMemoryLogger('error') });
    try {
      await engine.capture(req('/warm-up')); // worker start-up is not what is measured
      const h = monitorEventLoopDelay({ resolution: 10 });
      h.enable();
      const t0 = Date.now();
      const res = await engine.capture(req('/slow')); // prepare spins 1.5 s in the worker
      h.disable();
      expect(Date.now() - t0).toBeGreaterThanOrEqual(1_500);
      expect(res.title).toBe('Page /slow');
      expect(h.max / 1e6).toBeLessThan(1_000);
    } finally {
      await worker.close();
      await engine.close();
    }
  });

  it("the engine's own worker starts lazily, closes with the engine and restarts for the next capture", async () => {
    const engine: CaptureEngine = createCaptureEngine({ guard, browserEnabled: false, logger: createMemoryLogger('warn') });
    try {
      expect((await engine.capture(req('/one'))).title).toBe('Page /one');
      await engine.close();
      expect((await engine.capture(req('/two'))).title).toBe('Page /two');
    } finally {
      await engine.close();
    }
  });

  it('starts its parse worker as the capture begins, while the page is still loading', async () => {
    const worker = new ParseWorker({ handlers: DOM_TASKS_MODULE });
    const engine: CaptureEngine = createCaptureEngine({ guard, browserEnabled: false, parseWorker: worker, logger: createMemoryLogger('warn') });
    try {
      let release!: () => void;
      held = new Promise<void>((r) => (release = r));
      const capture = engine.capture(req('/held'));
      // the page has not answered, yet the worker (jsdom and the rest) is already starting
      await until(() => worker.stats().starts === 1, 'the parse worker to start while the page is held');
      expect(worker.stats().completed).toBe(0);
      release();
      expect((await capture).title).toBe('Page /held');
      expect(worker.stats().starts).toBe(1);
    } finally {
      held = null;
      await worker.close();
      await engine.close();
    }
  });
});

describe('ParseWorker', () => {
  it('answers, reports handler errors without a restart, and times out then recovers', async () => {
    const worker = new ParseWorker({ handlers: FAULTY, taskTimeoutMs: 1_000 });
    try {
      await expect(worker.run('challenge', { html: '<title>Just a moment...</title>' })).resolves.toMatchObject({ reason: expect.stringContaining('challenge title') });
      await expect(worker.run('challenge', { html: 42 })).rejects.toBeInstanceOf(WorkerTaskError); // zod refuses the input
      await expect(worker.run('no-such-task', {})).rejects.toThrow(/unknown task/);
      expect(worker.stats().starts).toBe(1);
      await expect(worker.run('prepare', { html: '<!-- hearth-test:spin -->', url: 'https://example.org/', rendered: false, removeConsent: false })).rejects.toBeInstanceOf(WorkerTimeoutError);
      await expect(worker.run('challenge', { html: '<p>fine</p>' })).resolves.toEqual({ reason: null });
      expect(worker.stats().starts).toBe(2);
    } finally {
      await worker.close();
    }
  });

  it('a cancelled task rejects at once', async () => {
    const worker = new ParseWorker({ handlers: FAULTY });
    try {
      const ac = new AbortController();
      const p = worker.run('prepare', { html: '<!-- hearth-test:slow -->', url: 'https://example.org/', rendered: false, removeConsent: false }, { signal: ac.signal });
      setTimeout(() => ac.abort(), 100);
      await expect(p).rejects.toMatchObject({ name: 'AbortError' });
      await expect(worker.run('challenge', { html: '<p>fine</p>' })).resolves.toEqual({ reason: null });
    } finally {
      await worker.close();
    }
  });
});
