// Unified search over the caller's own conversations: titles and message text through the chat
// full-text indexes, each result opening the conversation in the web app (/chat/<id>).
import type { SearchContext, SearchProvider } from '../search/public.js';
import type { SearchResult } from '../search/schema.js';
import type { ChatService } from './service.js';

export function conversationSearchProvider(chat: Pick<ChatService, 'search'>): SearchProvider {
  return {
    type: 'conversation',
    label: 'Chats',
    async search(q: string, ctx: SearchContext): Promise<SearchResult[]> {
      const found = await chat.search(ctx.actor, q, ctx.limit);
      return found.map((c) => ({ type: 'conversation', id: c.id, title: c.title, snippet: c.snippet, url: `/chat/${encodeURIComponent(c.id)}` }));
    },
  };
}
