// The installed archives in unified search: article titles and full text through
// ArchivesService.findArticles, each result opening the article in the web app's archive viewer.
import { clip, ProviderUnavailableError, type SearchProvider } from '../search/public.js';
import { encodeSegments } from './proxy.js';
import type { ArchivesService } from './service.js';

/** The web app's viewer at one article (renderer route `read/:sourceId/*`). */
export const archiveArticleUrl = (sourceId: string, path: string) => `/read/${encodeURIComponent(sourceId)}/${encodeSegments(path.split('/'))}`;

export function createArchiveSearchProvider(deps: { archives: Pick<ArchivesService, 'findArticles' | 'statusView' | 'readiness'>; isEnabled: () => Promise<boolean> }): SearchProvider {
  return {
    type: 'archive',
    label: 'Offline archives',
    async search(q, ctx) {
      if (!(await deps.isEnabled())) return [];
      const status = await deps.archives.statusView();
      if (status.installedCount === 0) return [];
      if (status.kiwixState !== 'ready') throw new ProviderUnavailableError((await deps.archives.readiness()).unavailableReason ?? 'The archives cannot be searched right now.');
      const found = await deps.archives.findArticles(ctx.actor, q, ctx.limit);
      return found.map((a) => ({
        type: 'archive',
        id: `${a.sourceId}/${a.path}`,
        title: a.title,
        snippet: clip(a.snippet ? `${a.label}: ${a.snippet}` : a.label, 160),
        url: archiveArticleUrl(a.sourceId, a.path),
      }));
    },
  };
}
