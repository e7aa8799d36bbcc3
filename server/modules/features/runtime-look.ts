// One quick look at the model runtime's models, shared by every caller for a short while, and the
// budget a caller waits for it (the features service's availability answers and the role models'
// adoption both ask it).
import type { ModelRuntimeClient } from '../../adapters/model-runtime/ollama.js';
import type { Clock } from '../../platform/clock.js';

/** The model runtime as one look found it: its model names, or null when it did not answer. */
export type RuntimeModels = string[] | null;

/** How long one look at the model runtime answers every caller, and how long a caller waits for it. */
export const RUNTIME_LOOK_TTL_MS = 3_000;
export const RUNTIME_LOOK_BUDGET_MS = 1_500;

/** `work`'s answer, or `fallback` once RUNTIME_LOOK_BUDGET_MS has passed (the work itself goes on). */
export function withinLookBudget<T>(work: Promise<T>, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const budget = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), RUNTIME_LOOK_BUDGET_MS);
    timer.unref();
  });
  return Promise.race([work, budget]).finally(() => clearTimeout(timer));
}

export class RuntimeLook {
  private last: { at: number; look: Promise<RuntimeModels> } | null = null;

  constructor(private readonly deps: { runtime: ModelRuntimeClient; clock: Clock; ttlMs?: number }) {}

  /**
   * The model runtime's models, or null when it does not answer within RUNTIME_LOOK_BUDGET_MS.
   * GET /api/tools asks this on every page load and every time a tab comes back into view, so one
   * look serves every caller for the TTL (RUNTIME_LOOK_TTL_MS unless told), and a runtime that
   * hangs costs a caller at most the budget (it counts as not answering) instead of the adapter's
   * 5 s time-out.
   */
  models(): Promise<RuntimeModels> {
    const now = this.deps.clock.now().getTime();
    if (this.last && now - this.last.at < (this.deps.ttlMs ?? RUNTIME_LOOK_TTL_MS)) return this.last.look;
    const asked = this.deps.runtime.listModels().then(
      (models) => models.map((m) => m.name),
      () => null,
    );
    const look = withinLookBudget<RuntimeModels>(asked, null);
    this.last = { at: now, look };
    return look;
  }
}
