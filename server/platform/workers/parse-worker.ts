// A bounded worker thread for CPU-heavy parsing (jsdom, Readability, DOMPurify …), so the HTTP
// server's event loop never waits behind it. One long-lived worker, started on the first task,
// serving the `handlers` export of a module named by URL. Tasks run one at a time; each has a time
// budget (the worker is terminated and replaced when a task exceeds it) and the worker has a heap
// limit (a worker that dies fails its task only; the next task starts a fresh one). Every message
// crossing the thread boundary is checked with zod. This file is both the host (ParseWorker, main
// thread) and the worker's entry point.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { z } from 'zod';
import type { Logger } from '../logger.js';

/** What a handlers module exports: task name -> function of the (unvalidated) input. */
export type TaskHandlers = Record<string, (input: unknown) => unknown>;

const WORKER_MARK = 'hearth-parse-worker';

const TaskMessage = z.object({ id: z.number().int(), task: z.string().min(1), input: z.unknown() });
const WorkerMessage = z.union([
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('result'), id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.object({ type: z.literal('result'), id: z.number().int(), ok: z.literal(false), error: z.string() }),
]);
const WorkerInit = z.object({ mark: z.literal(WORKER_MARK), handlers: z.string().url() });

/** The task ran longer than its budget; the worker was terminated. */
export class WorkerTimeoutError extends Error {
  constructor(
    readonly task: string,
    readonly budgetMs: number,
  ) {
    super(`${task} took longer than ${Math.round(budgetMs / 1000)} s`);
    this.name = 'WorkerTimeoutError';
  }
}

/** The worker died (heap limit, crash, exit) while the task ran or before it could start. */
export class WorkerCrashedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerCrashedError';
  }
}

/** The task's handler threw; the worker is fine. */
export class WorkerTaskError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerTaskError';
  }
}

export interface ParseWorkerOptions {
  /** URL of the module whose `handlers` export the worker serves (.ts under tsx/vitest, .js when built). */
  handlers: URL;
  /** Budget of one task (default 30 s). */
  taskTimeoutMs?: number;
  /** Worker heap limit (default 512 MB). */
  maxOldGenerationSizeMb?: number;
  /** How long the worker may take to load its modules (default 60 s). */
  startTimeoutMs?: number;
  logger?: Logger;
}

export interface RunOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface ParseWorkerStats {
  /** Tasks answered by a worker (ok or handler error). */
  completed: number;
  /** Tasks failed by a timeout or a dead worker. */
  failed: number;
  /** Workers started so far. */
  starts: number;
  /** Thread id of the current worker (null when none runs). */
  threadId: number | null;
}

interface Pending {
  id: number;
  task: string;
  input: unknown;
  timeoutMs: number;
  resolve(v: unknown): void;
  reject(e: Error): void;
  signal?: AbortSignal;
  onAbort?: () => void;
  settled: boolean;
}

interface Live {
  worker: Worker;
  ready: Promise<void>;
}

/** The URL a Worker loads to run `entry`: TypeScript source goes through tsx's loader, registered in the worker. */
export function workerEntry(entry: URL): URL {
  if (!entry.pathname.endsWith('.ts')) return entry;
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(entry.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

export class ParseWorker {
  private live: Live | null = null;
  private readonly queue: Pending[] = [];
  private current: Pending | null = null;
  private timer: NodeJS.Timeout | null = null;
  private nextId = 1;
  private closed = false;
  private readonly counts = { completed: 0, failed: 0, starts: 0 };

  constructor(private readonly opts: ParseWorkerOptions) {}

  /** Runs `task` in the worker; resolves with the handler's result (validate it: it crossed a thread). */
  run(task: string, input: unknown, opts: RunOptions = {}): Promise<unknown> {
    if (opts.signal?.aborted) return Promise.reject(abortError());
    return new Promise<unknown>((resolve, reject) => {
      const p: Pending = { id: this.nextId++, task, input, timeoutMs: opts.timeoutMs ?? this.opts.taskTimeoutMs ?? 30_000, resolve, reject, signal: opts.signal, settled: false };
      if (opts.signal) {
        p.onAbort = () => {
          const i = this.queue.indexOf(p);
          if (i >= 0) this.queue.splice(i, 1);
          // a running task keeps its slot until the worker answers (or its budget ends it)
          this.settle(p, abortError());
        };
        opts.signal.addEventListener('abort', p.onAbort, { once: true });
      }
      this.closed = false;
      this.queue.push(p);
      this.pump();
    });
  }

  /**
   * Starts the worker now if none is running, so that the first task does not also wait for its
   * start (loading its handlers: jsdom and the rest, seconds on a busy machine). A caller that
   * knows work is coming calls it before its own slow steps (the capture engine, before the page loads).
   */
  warm(): void {
    if (this.live) return;
    this.closed = false;
    this.live = this.spawn();
  }

  stats(): ParseWorkerStats {
    return { ...this.counts, threadId: this.live?.worker.threadId ?? null };
  }

  /** Terminates the worker and fails queued tasks; a later run() starts a new worker. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) this.settle(p, new WorkerCrashedError('the parse worker was closed'));
    const live = this.live;
    this.live = null;
    if (this.current) {
      this.clearTimer();
      this.settle(this.current, new WorkerCrashedError('the parse worker was closed'));
      this.current = null;
    }
    if (live) await live.worker.terminate().catch(() => undefined);
  }

  private settle(p: Pending, err: Error | null, value?: unknown): void {
    if (p.settled) return;
    p.settled = true;
    if (p.onAbort) p.signal?.removeEventListener('abort', p.onAbort);
    if (err) p.reject(err);
    else p.resolve(value);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private spawn(): Live {
    const worker = new Worker(workerEntry(new URL(import.meta.url)), {
      workerData: { mark: WORKER_MARK, handlers: this.opts.handlers.href },
      resourceLimits: { maxOldGenerationSizeMb: this.opts.maxOldGenerationSizeMb ?? 512 },
      stdout: false,
      stderr: false,
    });
    worker.unref(); // an idle worker never keeps the process alive; a running task's timer does
    this.counts.starts++;
    let markReady: () => void = () => undefined;
    let failStart: (e: Error) => void = () => undefined;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failStart = reject;
    });
    ready.catch(() => undefined);
    const live: Live = { worker, ready };
    const startTimer = setTimeout(() => {
      failStart(new WorkerCrashedError('the parse worker did not start in time'));
      void worker.terminate();
    }, this.opts.startTimeoutMs ?? 60_000); // ref'd: a task waiting for the start keeps the process alive
    const died = (message: string) => {
      clearTimeout(startTimer);
      failStart(new WorkerCrashedError(message));
      if (this.live !== live) return;
      this.live = null;
      const cur = this.current;
      if (cur) {
        this.clearTimer();
        this.current = null;
        this.counts.failed++;
        this.opts.logger?.warn({ task: cur.task, err: message }, 'parse worker died during a task; the next task starts a new one');
        this.settle(cur, new WorkerCrashedError(message));
      }
      this.pump();
    };
    worker.on('message', (raw: unknown) => {
      const msg = WorkerMessage.safeParse(raw);
      if (!msg.success) {
        this.opts.logger?.warn({ err: msg.error.message }, 'parse worker: malformed message');
        return;
      }
      if (msg.data.type === 'ready') {
        clearTimeout(startTimer);
        markReady();
        return;
      }
      const cur = this.current;
      if (this.live !== live || !cur || cur.id !== msg.data.id) return; // an answer nobody waits for
      this.clearTimer();
      this.current = null;
      this.counts.completed++;
      if (msg.data.ok) this.settle(cur, null, msg.data.result);
      else this.settle(cur, new WorkerTaskError(msg.data.error));
      this.pump();
    });
    worker.on('error', (err) => died(`the parse worker crashed: ${err.message}`));
    worker.on('exit', (code) => died(`the parse worker exited (code ${code})`));
    return live;
  }

  private pump(): void {
    if (this.current || this.closed) return;
    const p = this.queue.shift();
    if (!p) return;
    if (p.settled) return this.pump();
    this.current = p;
    const live = (this.live ??= this.spawn());
    live.ready.then(
      () => {
        if (this.current !== p || this.live !== live) return;
        if (p.settled) {
          // cancelled while the worker started
          this.current = null;
          return this.pump();
        }
        this.timer = setTimeout(() => {
          if (this.current !== p) return;
          this.timer = null;
          this.current = null;
          this.counts.failed++;
          this.opts.logger?.warn({ task: p.task, budgetMs: p.timeoutMs }, 'parse worker task over budget; terminating the worker');
          if (this.live === live) this.live = null;
          void live.worker.terminate();
          this.settle(p, new WorkerTimeoutError(p.task, p.timeoutMs));
          this.pump();
        }, p.timeoutMs);
        try {
          live.worker.postMessage({ id: p.id, task: p.task, input: p.input });
        } catch (err) {
          this.clearTimer();
          this.current = null;
          this.settle(p, new WorkerTaskError(`the task input could not be sent: ${(err as Error).message}`));
          this.pump();
        }
      },
      (err: Error) => {
        if (this.current !== p) return;
        this.current = null;
        this.counts.failed++;
        if (this.live === live) this.live = null;
        this.settle(p, err);
        this.pump();
      },
    );
  }
}

function abortError(): Error {
  return Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });
}

// ---- worker side ----

async function serve(): Promise<void> {
  const port = parentPort!;
  const init = WorkerInit.parse(workerData);
  const mod = (await import(init.handlers)) as { handlers?: TaskHandlers };
  const handlers = mod.handlers ?? {};
  port.on('message', (raw: unknown) => {
    const msg = TaskMessage.safeParse(raw);
    if (!msg.success) return;
    const { id, task, input } = msg.data;
    void (async () => {
      try {
        const handler = Object.hasOwn(handlers, task) ? handlers[task] : undefined;
        if (!handler) throw new Error(`unknown task ${task}`);
        port.postMessage({ type: 'result', id, ok: true, result: await handler(input) });
      } catch (err) {
        port.postMessage({ type: 'result', id, ok: false, error: err instanceof Error ? err.message : String(err) });
      }
    })();
  });
  port.postMessage({ type: 'ready' });
}

if (!isMainThread && (workerData as { mark?: unknown } | null)?.mark === WORKER_MARK) await serve();
