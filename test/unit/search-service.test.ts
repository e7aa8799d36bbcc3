// SearchService: every provider asked at once, within one budget; a provider that fails, says it
// cannot answer, or hangs is named in `unavailable` while the others answer.
import { describe, expect, it } from 'vitest';
import type { UserActor } from '../../server/actor.js';
import { ProviderUnavailableError, type SearchProvider } from '../../server/modules/search/providers.js';
import type { SearchType } from '../../server/modules/search/schema.js';
import { SearchProviderRegistry, SearchService } from '../../server/modules/search/service.js';
import { createMemoryLogger } from '../../server/platform/logger.js';

const actor: UserActor = { kind: 'user', id: 'u1', name: 'Sam', role: 'member', sessionId: 's1' };

function answering(type: SearchType, titles: string[]): SearchProvider {
  return { type, label: type, search: async (q, ctx) => titles.slice(0, ctx.limit).map((t) => ({ type, id: t, title: `${t} ${q}`, snippet: null, url: `/${t}` })) };
}

describe('SearchService', () => {
  it('answers in the fixed order of types, whatever the registration order, and leaves out empty groups', async () => {
    const registry = new SearchProviderRegistry().register(answering('page', ['home']), answering('tool', []), answering('reader', ['a', 'b', 'c']));
    const service = new SearchService({ registry, logger: createMemoryLogger() });
    const res = await service.search(actor, { q: 'x', limit: 2, types: undefined });
    expect(res.groups.map((g) => [g.type, g.results.length])).toEqual([
      ['reader', 2],
      ['page', 1],
    ]);
    expect(res.unavailable).toEqual([]);
  });

  it('refuses a second provider for the same type', () => {
    expect(() => new SearchProviderRegistry().register(answering('page', []), answering('page', []))).toThrow(/twice/);
  });

  it('names a provider that throws, says it cannot answer, or hangs past the budget; the others answer', async () => {
    const logger = createMemoryLogger();
    let hungSignal: AbortSignal | null = null;
    const registry = new SearchProviderRegistry().register(
      answering('reader', ['a']),
      { type: 'archive', label: 'Offline archives', search: () => Promise.reject(new ProviderUnavailableError('The archive server is not running.')) },
      { type: 'conversation', label: 'Chats', search: () => Promise.reject(new Error('SQLITE_BUSY: secret internals')) },
      {
        type: 'tool',
        label: 'Apps',
        search: (_q, ctx) => {
          hungSignal = ctx.signal;
          return new Promise(() => {}); // never answers
        },
      },
      answering('page', ['home']),
    );
    const service = new SearchService({ registry, logger, budgetMs: 50 });
    const res = await service.search(actor, { q: 'x', limit: 5, types: undefined });
    expect(res.groups.map((g) => g.type)).toEqual(['reader', 'page']);
    expect(res.unavailable).toEqual([
      { type: 'archive', reason: 'The archive server is not running.' },
      { type: 'conversation', reason: 'It could not be searched just now.' },
      { type: 'tool', reason: 'It took too long to answer this time.' },
    ]);
    // the hung provider was told to stop; the failure is logged, never shown
    expect(hungSignal!.aborted).toBe(true);
    expect(JSON.stringify(res)).not.toContain('SQLITE');
    expect(logger.lines.some((e) => e.msg === 'search provider failed')).toBe(true);
  });

  it('asks only the types asked for', async () => {
    let asked = 0;
    const counting: SearchProvider = { type: 'archive', label: 'a', search: async () => (asked++, []) };
    const service = new SearchService({ registry: new SearchProviderRegistry().register(answering('reader', ['a']), counting), logger: createMemoryLogger() });
    const res = await service.search(actor, { q: 'x', limit: 5, types: ['reader'] });
    expect(res.groups.map((g) => g.type)).toEqual(['reader']);
    expect(asked).toBe(0);
  });

  it('stops the providers when the caller leaves', async () => {
    const left = new AbortController();
    const registry = new SearchProviderRegistry().register({ type: 'reader', label: 'Reader', search: () => new Promise(() => {}) });
    const service = new SearchService({ registry, logger: createMemoryLogger(), budgetMs: 60_000 });
    const pending = service.search(actor, { q: 'x', limit: 5, types: undefined }, left.signal);
    left.abort();
    expect((await pending).unavailable).toHaveLength(1);
  });
});
