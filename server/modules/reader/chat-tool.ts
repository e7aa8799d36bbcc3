// reader_search, the chat tool over the Reader: the caller's own and household items (never
// another member's), through the Reader's own search (ReaderItemsService.find). Registered in the
// chat module (listed in this module's module.ts); its Extension (same id) is in extensions.ts.
import { z } from 'zod';
import type { ChatTool, ChatToolContext, ChatToolResult } from '../chat/public.js';
import { clip, keyWords, readableUrl } from '../search/public.js';
import type { ReaderItemsService } from './items-service.js';
import { readerItemUrl } from './search-provider.js';

export const READER_SEARCH_TIMEOUT_MS = 2000;
const DEFAULT_RESULTS = 3;
const SNIPPET_CHARS = 240;

export const ReaderSearchArgs = z.object({
  query: z.string().trim().min(1).max(200).describe('Words to find in the saved links and articles, e.g. "lasagne recipe".'),
  limit: z.number().int().min(1).max(10).optional().describe('How many items to return (1-10, default 3).'),
});

type Items = Pick<ReaderItemsService, 'find'>;

async function lookUp(items: Items, ctx: ChatToolContext, query: string, limit: number, anyWord: boolean): Promise<ChatToolResult> {
  let found = await items.find(ctx.actor, query, limit, { anyWord });
  // all the words found nothing: any of them
  if (found.length === 0 && !anyWord && /\s/.test(query.trim())) found = await items.find(ctx.actor, query, limit, { anyWord: true });
  const sources = found.map((i) => ({ type: 'reader' as const, title: i.title?.trim() || readableUrl(i.url), url: readerItemUrl(i.id), snippet: clip(i.excerpt, SNIPPET_CHARS) }));
  if (sources.length === 0) return { content: `Nothing saved in the Reader matches "${query}".`, summary: `Looked up "${query}" in the Reader: nothing found`, sources };
  const lines = found.map((i, n) => `${n + 1}. ${sources[n]!.title} (${i.url}) ${sources[n]!.url}${sources[n]!.snippet ? `\n   ${sources[n]!.snippet}` : ''}`);
  return {
    content: `Saved in the Reader, for "${query}":\n${lines.join('\n')}`,
    summary: `Looked up "${query}" in the Reader: ${sources.length} ${sources.length === 1 ? 'item' : 'items'}`,
    sources,
  };
}

export function createReaderSearchTool(deps: { items: Items }): ChatTool<typeof ReaderSearchArgs> {
  return {
    id: 'reader_search',
    description:
      "Search the links and articles this person saved in the Reader, and the household's shared links, by words in their title, text or address. Use it when they ask about something they saved or read.",
    args: ReaderSearchArgs,
    timeoutMs: READER_SEARCH_TIMEOUT_MS,
    run: (args, ctx) => lookUp(deps.items, ctx, args.query, args.limit ?? DEFAULT_RESULTS, false),
    async ground(question, ctx) {
      const words = keyWords(question);
      if (words.length === 0) return { content: '', summary: 'Nothing to look up in the Reader', sources: [] };
      return lookUp(deps.items, ctx, words.join(' '), DEFAULT_RESULTS, true);
    },
  };
}
