// The executor the runner calls: model-runtime pulls for runtime models, resumable HTTP downloads
// (through the SSRF guard) for everything else. A download runs in a worker thread of its own
// unless it is known to be small: starting the thread costs ~0.2 s (measured from dist/), more
// than such a transfer takes, and its byte loop is too short to hold up the event loop.
import { downloadToFile } from '../../adapters/web/download.js';
import { downloadInWorker } from '../../adapters/web/download-worker.js';
import { isUnknownModelPull } from '../../adapter-errors/model-runtime.js';
import type { SsrfGuard } from '../../platform/ssrf.js';
import type { ModelPulls } from '../models/public.js';
import type { JobExecutor } from './runner.js';
import { STALL_TIMEOUT_MS, type DownloadJob } from './schema.js';

/** Downloads of a known size below this run on the calling thread. */
export const IN_THREAD_MAX_BYTES = 8 * 1024 * 1024;

export function createDownloadExecutor(deps: {
  guard: SsrfGuard;
  pulls: Pick<ModelPulls, 'ensure'>;
  destinationPath: (destination: string) => string;
  stallTimeoutMs?: number;
  /**
   * Request headers a job's source needs (the model hub's API key), asked for at each attempt so
   * they are never stored in the job's row; null for none.
   */
  headersFor?: (job: DownloadJob) => Promise<Record<string, string> | null>;
}): JobExecutor {
  const stallTimeoutMs = deps.stallTimeoutMs ?? STALL_TIMEOUT_MS;
  return async (job, ctx) => {
    if (job.kind === 'runtime_model') {
      // A job can outlive its reason: boot may be repairing the model, or the job was left over
      // from before a restart. The model pulls are shared with boot, so a model is pulled once at a
      // time and one the runtime already has is not pulled again.
      try {
        await deps.pulls.ensure(job.target, {
          signal: ctx.signal,
          stallTimeoutMs,
          onProgress: (p) => ctx.onProgress(p.completed, p.total || null),
        });
      } catch (err) {
        // a name Ollama's library does not know: another attempt cannot fix that
        if (isUnknownModelPull(err)) {
          throw Object.assign(new Error(`Ollama's library has no model called ${job.target}. Check the name and try again.`), { retryable: false });
        }
        throw err;
      }
      return;
    }
    if (!job.destination) throw Object.assign(new Error(`${job.label} has no destination.`), { retryable: false });
    const headers = (await deps.headersFor?.(job)) ?? undefined;
    const transfer = job.expectedBytes != null && job.expectedBytes < IN_THREAD_MAX_BYTES ? downloadToFile : downloadInWorker;
    await (job.kind === 'map' ? mismatchIsFinal : (work: Promise<unknown>) => work)(transfer({
      guard: deps.guard,
      url: job.target,
      dest: deps.destinationPath(job.destination),
      expectedBytes: job.expectedBytes,
      sha256: job.sha256,
      signal: ctx.signal,
      stallTimeoutMs,
      headers,
      onProgress: (p) => ctx.onProgress(p.bytesDone, p.bytesTotal),
    }));
  };
}

/**
 * A map region's file that arrived whole but not as the catalog describes it (size or checksum)
 * is not fetched again: a region is large, and the catalog, not the transfer, is what disagrees.
 */
async function mismatchIsFinal(work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (err) {
    if ((err as { mismatch?: unknown }).mismatch === true) throw Object.assign(new Error((err as Error).message), { retryable: false });
    throw err;
  }
}
