// archive_search, the chat tool over the installed archives: article titles and full text
// (ArchivesService.findArticles, as unified search), the best few with a short snippet each and a
// link into the web app's archive viewer. Listed in this module's manifest (module.ts), gathered by the chat module; its
// Extension (same id) is in extensions.ts.
import { z } from 'zod';
import type { UserActor } from '../../actor.js';
import type { ChatTool, ChatToolResult } from '../chat/public.js';
import { clip, keyWords } from '../search/public.js';
import { archiveArticleUrl } from './search-provider.js';
import type { ArchivesService } from './service.js';

export const ARCHIVE_SEARCH_TIMEOUT_MS = 4000;
const DEFAULT_RESULTS = 3;
/** Characters of each snippet the model reads (its context is small). */
const SNIPPET_CHARS = 240;

export const ArchiveSearchArgs = z.object({
  query: z.string().trim().min(1).max(200).describe('What to look up: a few key words, e.g. "heat stroke first aid".'),
  limit: z.number().int().min(1).max(10).optional().describe('How many articles to return (1-10, default 3).'),
});

type Archives = Pick<ArchivesService, 'findArticles' | 'readiness'>;

async function lookUp(archives: Archives, actor: UserActor, query: string, limit: number): Promise<ChatToolResult> {
  const ready = await archives.readiness();
  // a sentence the model (and the tool's chip) can pass on; chat records the call as failed
  if (!ready.available) throw new Error(`The offline archives cannot be searched right now. ${ready.unavailableReason ?? ''}`.trim());
  // only the archives the member's Archives level lets them see
  const found = await archives.findArticles(actor, query, limit);
  const sources = found.map((a) => ({ type: 'archive' as const, title: a.title, url: archiveArticleUrl(a.sourceId, a.path), snippet: clip(a.snippet, SNIPPET_CHARS) }));
  if (sources.length === 0) return { content: `Nothing was found in the offline archives for "${query}".`, summary: `Looked up "${query}" in the archives: nothing found`, sources };
  const lines = found.map((a, i) => `${i + 1}. ${a.title} (${a.label}) ${sources[i]!.url}${sources[i]!.snippet ? `\n   ${sources[i]!.snippet}` : ''}`);
  return {
    content: `From the offline archives for "${query}":\n${lines.join('\n')}`,
    summary: `Looked up "${query}" in the archives: ${sources.length} ${sources.length === 1 ? 'article' : 'articles'}`,
    sources,
  };
}

export function createArchiveSearchTool(deps: { archives: Archives }): ChatTool<typeof ArchiveSearchArgs> {
  return {
    id: 'archive_search',
    description:
      'Search the offline reference archives installed on this household server (encyclopedias, medical references, how-to books) by key words. Returns the best articles with a short snippet and a link. Use it for facts, health, how-to and general knowledge questions.',
    args: ArchiveSearchArgs,
    timeoutMs: ARCHIVE_SEARCH_TIMEOUT_MS,
    run: (args, ctx) => lookUp(deps.archives, ctx.actor, args.query, args.limit ?? DEFAULT_RESULTS),
    async ground(question, ctx) {
      // a whole question finds little in a full-text index: its key words together, then the
      // longest of them alone
      const words = keyWords(question);
      if (words.length === 0) return { content: '', summary: 'Nothing to look up in the archives', sources: [] };
      const all = await lookUp(deps.archives, ctx.actor, words.join(' '), DEFAULT_RESULTS);
      if (all.sources.length > 0 || words.length === 1) return all;
      for (const w of words.slice(0, 2)) {
        const one = await lookUp(deps.archives, ctx.actor, w, DEFAULT_RESULTS);
        if (one.sources.length > 0) return one;
      }
      return all;
    },
  };
}
