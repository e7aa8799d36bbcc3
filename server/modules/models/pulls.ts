// The one place a model is pulled into the model runtime. Boot's repair of a lost essential and the
// download queue's model jobs both ask here, so a model is pulled at most once at a time whoever
// asks (a job left in the queue and boot's repair used to pull the same model side by side), and a
// model the runtime already lists is never pulled again ("present" wins). A runtime that cannot say
// which models it has is not pulled from blindly: the caller gets its error and may try later.
import type { ModelRuntimeClient, PullProgress } from '../../adapters/model-runtime/ollama.js';

/** Ollama names a model "name:tag"; a bare name means ":latest". */
export const modelKey = (name: string) => (name.includes(':') ? name : `${name}:latest`);
export const sameModel = (a: string, b: string) => modelKey(a) === modelKey(b);

export interface EnsureOptions {
  signal?: AbortSignal;
  stallTimeoutMs?: number;
  onProgress?: (p: PullProgress) => void;
}

export class ModelPulls {
  private readonly inFlight = new Map<string, { done: Promise<void>; listeners: Set<(p: PullProgress) => void> }>();

  constructor(private readonly runtime: ModelRuntimeClient) {}

  /**
   * Makes sure the runtime has the model: 'present' when it already listed it (or a pull another
   * caller was running finished), 'pulled' when this call pulled it. Throws the runtime's error
   * when it cannot be listed or the pull fails.
   */
  async ensure(model: string, opts: EnsureOptions = {}): Promise<'present' | 'pulled'> {
    const key = modelKey(model);
    const running = this.inFlight.get(key);
    if (running) {
      if (opts.onProgress) running.listeners.add(opts.onProgress);
      try {
        await abortable(running.done, opts.signal);
      } finally {
        if (opts.onProgress) running.listeners.delete(opts.onProgress);
      }
      return 'present';
    }
    const listeners = new Set<(p: PullProgress) => void>(opts.onProgress ? [opts.onProgress] : []);
    const done = (async () => {
      const have = await this.runtime.listModels();
      if (have.some((m) => sameModel(m.name, model))) return false;
      await this.runtime.pull(model, { signal: opts.signal, stallTimeoutMs: opts.stallTimeoutMs, onProgress: (p) => listeners.forEach((l) => l(p)) });
      return true;
    })();
    const entry = { done: done.then(() => undefined), listeners };
    // a failure is the owner's to report; joiners see it through their own await
    entry.done.catch(() => undefined);
    this.inFlight.set(key, entry);
    try {
      return (await done) ? 'pulled' : 'present';
    } finally {
      if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
    }
  }
}

/** The promise, or the signal's reason once it aborts first (the pull itself goes on for its owner). */
function abortable(p: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
