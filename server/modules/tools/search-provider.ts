// The App Store in unified search: tools and Extensions by name, description and examples. An
// installed App opens its page; anything else opens the App Store, where an admin can get it and a
// member can ask for it. Members are not offered an Extension that cannot work yet (as the store).
import { isAdmin } from '../../actor.js';
import { clip, fitScore, type SearchProvider } from '../search/public.js';
import type { ToolsService } from './service.js';

export const APP_STORE_URL = '/apps';

export function createToolSearchProvider(deps: { tools: Pick<ToolsService, 'list'> }): SearchProvider {
  return {
    type: 'tool',
    label: 'Apps',
    async search(q, ctx) {
      const admin = isAdmin(ctx.actor);
      const tools = (await deps.tools.list()).filter((t) => admin || !t.offline || (t.enabled && t.available));
      return tools
        .map((t) => ({
          t,
          score: fitScore(q, [
            { text: t.name, weight: 3 },
            { text: `${t.description} ${t.category}`, weight: 2 },
            { text: t.examples.join(' '), weight: 1 },
          ]),
        }))
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, ctx.limit)
        .map(({ t }) => ({
          type: 'tool' as const,
          id: t.id,
          title: t.name,
          snippet: clip(t.description, 160),
          url: t.enabled && t.route ? t.route : APP_STORE_URL,
        }));
    },
  };
}
