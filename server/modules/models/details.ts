// One model's details (capabilities, context window) asked of the runtime once and kept: a
// model's capabilities do not change while it stays installed. Answers are kept for `ttlMs`
// (default 10 min), failures are not kept, and callers asking at the same time share one request.
import type { ModelDetails, ModelRuntimeClient } from '../../adapters/model-runtime/ollama.js';

export const MODEL_DETAILS_TTL_MS = 10 * 60_000;

export class ModelDetailsCache {
  private readonly kept = new Map<string, { at: number; details: ModelDetails }>();
  private readonly asking = new Map<string, Promise<ModelDetails>>();

  constructor(
    private readonly deps: { runtime: Pick<ModelRuntimeClient, 'show'>; now: () => number; ttlMs?: number },
  ) {}

  async get(model: string): Promise<ModelDetails> {
    const kept = this.kept.get(model);
    if (kept && this.deps.now() - kept.at < (this.deps.ttlMs ?? MODEL_DETAILS_TTL_MS)) return kept.details;
    const pending = this.asking.get(model);
    if (pending) return pending;
    const ask = this.deps.runtime
      .show(model)
      .then((details) => {
        this.kept.set(model, { at: this.deps.now(), details });
        return details;
      })
      .finally(() => this.asking.delete(model));
    this.asking.set(model, ask);
    return ask;
  }

  /** Forget a model (after it is deleted or pulled again). */
  forget(model: string): void {
    this.kept.delete(model);
  }
}
