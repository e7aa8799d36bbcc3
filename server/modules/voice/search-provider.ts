// Voice memos in unified search: the caller's own memos whose title or transcript holds the words
// (nobody else's, admins included), linking to the Memos page.
import type { SearchProvider } from '../search/public.js';
import { clip, keyWords } from '../search/public.js';
import type { MemosService } from './memos-service.js';

export function createMemoSearchProvider(memos: Pick<MemosService, 'find'>): SearchProvider {
  return {
    type: 'memo',
    label: 'Voice memos',
    async search(q, ctx) {
      const words = keyWords(q);
      if (words.length === 0) return [];
      const found = await memos.find(ctx.actor, words, ctx.limit);
      return found.map((m) => ({
        type: 'memo',
        id: m.id,
        title: m.title ?? `Voice memo of ${m.createdAt.slice(0, 10)}`,
        snippet: clip(m.text, 160),
        url: `/memos?memo=${encodeURIComponent(m.id)}`,
      }));
    },
  };
}
