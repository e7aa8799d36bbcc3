// What a module gives unified search: one provider per type, in one file beside the module
// (modules/<x>/search-provider.ts), listed in its module.ts and gathered by the search module. A provider sees only what the
// caller may see, and answers within the search's time budget or is listed as unavailable.
import type { UserActor } from '../../actor.js';
import type { SearchResult, SearchType } from './schema.js';

export interface SearchContext {
  actor: UserActor;
  limit: number;
  /** Aborted when the search's time budget runs out or the caller leaves. */
  signal: AbortSignal;
}

export interface SearchProvider {
  type: SearchType;
  /** The group's heading. */
  label: string;
  search(q: string, ctx: SearchContext): Promise<SearchResult[]>;
}

/** Thrown by a provider that cannot answer right now; the reason (a sentence) is shown to people. */
export class ProviderUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ProviderUnavailableError';
  }
}
