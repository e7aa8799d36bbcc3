// The Reader in unified search: the caller's own and household items (never another member's),
// through the Reader's own full-text search and visibility rules (ReaderItemsService.find).
import { clip, readableUrl, type SearchProvider } from '../search/public.js';
import type { ReaderItemsService } from './items-service.js';

export const readerItemUrl = (id: string) => `/reader/${encodeURIComponent(id)}`;

export function createReaderSearchProvider(deps: { items: Pick<ReaderItemsService, 'find'>; isEnabled: () => Promise<boolean> }): SearchProvider {
  return {
    type: 'reader',
    label: 'Reader',
    async search(q, ctx) {
      if (!(await deps.isEnabled())) return [];
      const items = await deps.items.find(ctx.actor, q, ctx.limit);
      return items.map((i) => ({ type: 'reader', id: i.id, title: i.title?.trim() || readableUrl(i.url), snippet: clip(i.excerpt, 160), url: readerItemUrl(i.id) }));
    },
  };
}
