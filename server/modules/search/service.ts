// Unified search: one question asked of every provider at once (each module's
// search-provider.ts, listed in its module.ts and gathered by the search module), within one time budget. A provider that fails
// or runs out of time is named in `unavailable` with a sentence; the others still answer. Groups
// come back in a fixed order, and a group with nothing in it is left out.
import type { UserActor } from '../../actor.js';
import { withoutUrls, type Logger } from '../../platform/logger.js';
import { untilAborted } from '../../platform/until-aborted.js';
import { ProviderUnavailableError, type SearchContext, type SearchProvider } from './providers.js';
import type { SearchResult } from './schema.js';
import { SearchType, type SearchGroup, type SearchQuery, type SearchResponse } from './schema.js';

/** How long one search waits for its slowest provider (default). */
export const SEARCH_BUDGET_MS = 1500;

/** Groups in this order, whatever order the providers were registered in. */
const ORDER: readonly SearchType[] = SearchType.options;

export class SearchProviderRegistry {
  private readonly providers = new Map<SearchType, SearchProvider>();

  register(...providers: SearchProvider[]): this {
    for (const p of providers) {
      if (this.providers.has(p.type)) throw new Error(`a search provider for ${p.type} is registered twice`);
      this.providers.set(p.type, p);
    }
    return this;
  }

  /** The registered providers in the answer's order. */
  all(): SearchProvider[] {
    return ORDER.flatMap((t) => {
      const p = this.providers.get(t);
      return p ? [p] : [];
    });
  }
}

export interface SearchDeps {
  registry: SearchProviderRegistry;
  logger: Logger;
  budgetMs?: number;
}

type Answer = { results: SearchResult[] } | { reason: string };

const TIMED_OUT = 'It took too long to answer this time.';
const FAILED = 'It could not be searched just now.';
/** What a provider's wait is stopped with when the search's budget runs out. */
const OUT_OF_TIME = Symbol('out of time');

export class SearchService {
  constructor(private readonly deps: SearchDeps) {}

  async search(actor: UserActor, query: SearchQuery, signal?: AbortSignal): Promise<SearchResponse> {
    const wanted = query.types ? new Set(query.types) : null;
    const providers = this.deps.registry.all().filter((p) => !wanted || wanted.has(p.type));
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(), this.deps.budgetMs ?? SEARCH_BUDGET_MS);
    const onLeave = () => budget.abort();
    signal?.addEventListener('abort', onLeave, { once: true });
    try {
      const answers = await Promise.all(providers.map((p) => this.ask(p, query.q, { actor, limit: query.limit, signal: budget.signal })));
      const groups: SearchGroup[] = [];
      const unavailable: SearchResponse['unavailable'] = [];
      providers.forEach((p, i) => {
        const a = answers[i]!;
        if ('reason' in a) unavailable.push({ type: p.type, reason: a.reason });
        else if (a.results.length > 0) groups.push({ type: p.type, label: p.label, results: a.results.slice(0, query.limit) });
      });
      return { q: query.q, groups, unavailable };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onLeave);
    }
  }

  /** One provider's answer, or why it has none: never throws, never outlasts the budget. */
  private ask(p: SearchProvider, q: string, ctx: SearchContext): Promise<Answer> {
    const { signal } = ctx;
    const answer = () => p.search(q, ctx).then(
      (results): Answer => ({ results }),
      (err: unknown): Answer => {
        if (err instanceof ProviderUnavailableError) return { reason: err.reason };
        if (signal.aborted) return { reason: TIMED_OUT };
        this.deps.logger.warn({ type: p.type, err: withoutUrls(err instanceof Error ? err.message : String(err)) }, 'search provider failed');
        return { reason: FAILED };
      },
    );
    // `answer` never rejects: the only rejection here is the budget running out
    return untilAborted(answer, signal, () => OUT_OF_TIME).catch((err: unknown): Answer => {
      if (err === OUT_OF_TIME) return { reason: TIMED_OUT };
      throw err;
    });
  }
}
