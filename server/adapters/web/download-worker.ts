// downloadToFile() in a worker thread of its own, so a fast transfer's byte loop (socket reads,
// sha256, copies into the write buffers) never takes turns with the HTTP server on the main event
// loop. The worker builds its own SSRF guard from the main guard's settings and runs the same
// downloadToFile (resume, If-Range, the size and sha256 checks, the stall timeout and the
// retryable flags are all that function's). Progress comes back at most every PROGRESS_EVERY_MS;
// an abort is passed on and answered only once the worker has stopped writing (cancel removes the
// .part right after); a worker that dies fails the attempt retryably, keeping the .part for the
// next one. This file is both the host (downloadInWorker) and the worker's entry point, started
// the way the parse worker is (TypeScript under tsx, .js when built).
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { z } from 'zod';
import { createAddressGuard, fixedOffline } from '../../platform/ssrf-address.js';
import type { SsrfGuard } from '../../platform/ssrf.js';
import { workerEntry } from '../../platform/workers/parse-worker.js';
import { DownloadError, downloadToFile, type DownloadFailure, type DownloadOptions, type DownloadResult } from './download.js';

const WORKER_MARK = 'hearth-download-worker';
const PROGRESS_EVERY_MS = 50;
/** How long an aborted worker may take to stop before it is terminated. */
const ABORT_GRACE_MS = 5_000;

const WorkerInit = z.object({
  mark: z.literal(WORKER_MARK),
  guard: z.object({ allowOrigins: z.array(z.string()), offline: z.boolean(), offlineReason: z.enum(['env', 'admin']).optional() }),
  url: z.string(),
  dest: z.string(),
  expectedBytes: z.number().nullable(),
  sha256: z.string().nullable(),
  stallTimeoutMs: z.number().positive(),
  headers: z.record(z.string(), z.string()).optional(),
});
type WorkerInit = z.infer<typeof WorkerInit>;

const WorkerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('progress'), bytesDone: z.number(), bytesTotal: z.number().nullable() }),
  z.object({ type: z.literal('done'), result: z.object({ bytes: z.number(), sha256: z.string(), resumedFrom: z.number() }) }),
  z.object({ type: z.literal('failed'), aborted: z.boolean(), name: z.string(), message: z.string(), retryable: z.boolean().optional(), failure: z.string().optional(), mismatch: z.boolean().optional(), code: z.string().optional() }),
]);
type WorkerMessage = z.infer<typeof WorkerMessage>;

export interface DownloadWorkerHooks {
  /** Called with the thread once it is started (tests end it mid-transfer with this). */
  onWorker?: (worker: Worker) => void;
}

/**
 * downloadToFile() run in a worker thread. Falls back to the calling thread when the guard cannot
 * be rebuilt in another one (a guard made with a custom DNS lookup).
 */
export async function downloadInWorker(opts: DownloadOptions & { guard: SsrfGuard }, hooks: DownloadWorkerHooks = {}): Promise<DownloadResult> {
  const guardOptions = opts.guard.workerOptions;
  if (!guardOptions) return downloadToFile(opts);
  if (opts.signal.aborted) throw opts.signal.reason;
  const init: WorkerInit = {
    mark: WORKER_MARK,
    guard: guardOptions,
    url: opts.url,
    dest: opts.dest,
    expectedBytes: opts.expectedBytes ?? null,
    sha256: opts.sha256 ?? null,
    stallTimeoutMs: opts.stallTimeoutMs,
    headers: opts.headers,
  };
  const worker = new Worker(workerEntry(new URL(import.meta.url)), { workerData: init, stdout: false, stderr: false });
  hooks.onWorker?.(worker);
  return new Promise<DownloadResult>((resolve, reject) => {
    let answer: WorkerMessage | null = null;
    let graceTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      worker.postMessage({ type: 'abort' });
      graceTimer = setTimeout(() => void worker.terminate(), ABORT_GRACE_MS);
    };
    opts.signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (raw: unknown) => {
      const msg = WorkerMessage.safeParse(raw);
      if (!msg.success) return;
      if (msg.data.type === 'progress') return opts.onProgress?.({ bytesDone: msg.data.bytesDone, bytesTotal: msg.data.bytesTotal });
      // The answer is sent after the .part was closed: the thread has nothing left to do.
      answer = msg.data;
      void worker.terminate();
    });
    let crash: Error | null = null;
    worker.on('error', (err) => (crash = err));
    // Settle only once the thread has ended: after that nothing writes to the .part any more.
    worker.once('exit', (code) => {
      clearTimeout(graceTimer);
      opts.signal.removeEventListener('abort', onAbort);
      if (opts.signal.aborted) return reject(opts.signal.reason);
      const a = answer as WorkerMessage | null;
      if (a?.type === 'done') return resolve(a.result);
      if (a?.type === 'failed') {
        if (a.name === 'DownloadError') return reject(new DownloadError(a.message, a.retryable ?? true, (a.failure as DownloadFailure | undefined) ?? 'cut_off', a.mismatch === true));
        return reject(Object.assign(new Error(a.message), { name: a.name, code: a.code }));
      }
      const why = crash ? `: ${crash.message}` : ` (exit code ${code})`;
      reject(new DownloadError(`The download worker stopped unexpectedly${why}; the download will resume.`, true, 'cut_off'));
    });
  });
}

// ---- worker side ----

async function serve(): Promise<void> {
  const port = parentPort!;
  const init = WorkerInit.parse(workerData);
  const controller = new AbortController();
  port.on('message', (raw: unknown) => {
    if ((raw as { type?: unknown } | null)?.type === 'abort') controller.abort(new Error('aborted'));
  });
  const guard = createAddressGuard({ allowOrigins: init.guard.allowOrigins, offline: fixedOffline(init.guard.offline ? (init.guard.offlineReason ?? 'env') : null) });
  let lastProgress = 0;
  try {
    const result = await downloadToFile({
      guard,
      url: init.url,
      dest: init.dest,
      expectedBytes: init.expectedBytes,
      sha256: init.sha256,
      signal: controller.signal,
      stallTimeoutMs: init.stallTimeoutMs,
      headers: init.headers,
      onProgress: (p) => {
        const now = performance.now();
        if (now - lastProgress < PROGRESS_EVERY_MS) return;
        lastProgress = now;
        port.postMessage({ type: 'progress', ...p } satisfies WorkerMessage);
      },
    });
    port.postMessage({ type: 'progress', bytesDone: result.bytes, bytesTotal: result.bytes } satisfies WorkerMessage);
    port.postMessage({ type: 'done', result } satisfies WorkerMessage);
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    const code = (e as NodeJS.ErrnoException).code;
    port.postMessage({
      type: 'failed',
      aborted: controller.signal.aborted,
      name: e.name,
      message: e.message,
      retryable: e instanceof DownloadError ? e.retryable : undefined,
      failure: e instanceof DownloadError ? e.failure : undefined,
      mismatch: e instanceof DownloadError ? e.mismatch : undefined,
      code: typeof code === 'string' ? code : undefined,
    } satisfies WorkerMessage);
  } finally {
    port.close(); // nothing else keeps the thread alive: it exits
  }
}

if (!isMainThread && (workerData as { mark?: unknown } | null)?.mark === WORKER_MARK) await serve();
