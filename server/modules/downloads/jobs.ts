// The executor the runner calls: model-runtime pulls for runtime models, resumable HTTP downloads
// (through the SSRF guard) for everything else.
import { downloadToFile } from '../../adapters/web/download.js';
import type { ModelRuntimeClient } from '../../adapters/model-runtime/ollama.js';
import type { SsrfGuard } from '../../platform/ssrf.js';
import type { JobExecutor } from './runner.js';
import { STALL_TIMEOUT_MS } from './schema.js';

export function createDownloadExecutor(deps: {
  guard: SsrfGuard;
  runtime: ModelRuntimeClient;
  destinationPath: (destination: string) => string;
  stallTimeoutMs?: number;
}): JobExecutor {
  const stallTimeoutMs = deps.stallTimeoutMs ?? STALL_TIMEOUT_MS;
  return async (job, ctx) => {
    if (job.kind === 'runtime_model') {
      await deps.runtime.pull(job.target, {
        signal: ctx.signal,
        stallTimeoutMs,
        onProgress: (p) => ctx.onProgress(p.completed, p.total || null),
      });
      return;
    }
    if (!job.destination) throw Object.assign(new Error(`${job.label} has no destination.`), { retryable: false });
    await downloadToFile({
      guard: deps.guard,
      url: job.target,
      dest: deps.destinationPath(job.destination),
      expectedBytes: job.expectedBytes,
      sha256: job.sha256,
      signal: ctx.signal,
      stallTimeoutMs,
      onProgress: (p) => ctx.onProgress(p.bytesDone, p.bytesTotal),
    });
  };
}
