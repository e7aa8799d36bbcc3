// The web app's own pages as search results: a small table with the words people type for each
// ("pin" finds Members), filtered by who is asking (admin pages for admins only) and by the
// household's tools (a page of a tool that is switched off does not open, so it is not offered).
// The paths are the web app's routes (renderer/src/app/pages.tsx).
import { isAdmin } from '../../actor.js';
import type { SearchProvider } from './providers.js';
import type { SearchResult } from './schema.js';
import { fitScore } from './text.js';

export interface PageEntry {
  id: string;
  title: string;
  path: string;
  /** One line shown under the title. */
  snippet: string;
  access: 'user' | 'admin';
  /** The tool the page belongs to: offered only while that tool is enabled. */
  toolId?: string;
  /** Other words people use for it. */
  words: string[];
}

export const PAGES: readonly PageEntry[] = [
  { id: 'home', title: 'Home', path: '/', snippet: 'Your home screen.', access: 'user', words: ['start', 'main', 'dashboard', 'widgets'] },
  { id: 'reader', title: 'Reader', path: '/reader', snippet: 'Links and articles saved to read later.', access: 'user', toolId: 'reader', words: ['saved', 'bookmarks', 'links', 'articles', 'read later'] },
  { id: 'chat', title: 'Chat', path: '/chat', snippet: 'Ask questions; answers from the household’s archives and Reader.', access: 'user', words: ['ask', 'assistant', 'ai', 'question', 'conversation', 'chats', 'talk'] },
  { id: 'library', title: 'Library', path: '/library', snippet: 'Offline encyclopedias and books.', access: 'user', toolId: 'library', words: ['archives', 'encyclopedia', 'wikipedia', 'books', 'offline', 'kiwix'] },
  { id: 'inventory', title: 'Inventory', path: '/inventory', snippet: 'Every device in the house: photos, manuals, warranties and service history.', access: 'user', toolId: 'inventory', words: ['devices', 'appliances', 'warranty', 'warranties', 'manual', 'manuals', 'receipts', 'serial number', 'home inventory', 'service', 'repair'] },
  { id: 'downloads', title: 'Downloads', path: '/downloads', snippet: 'Everything Hearth is downloading, with progress.', access: 'user', words: ['progress', 'queue', 'downloading'] },
  { id: 'apps', title: 'App Store', path: '/apps', snippet: 'The apps Hearth offers, and which ones the household has.', access: 'user', words: ['apps', 'tools', 'extensions', 'install', 'store'] },
  { id: 'admin', title: 'Admin', path: '/admin', snippet: 'Looking after the household.', access: 'admin', words: ['settings', 'manage', 'administration'] },
  { id: 'members', title: 'Members', path: '/members', snippet: 'Add people, change names, PINs and roles, unlock a profile.', access: 'admin', words: ['people', 'users', 'family', 'pin', 'profile', 'profiles', 'accounts', 'kids', 'unlock', 'roles'] },
  { id: 'features', title: 'Features', path: '/features', snippet: 'The models and components Hearth runs on this computer.', access: 'admin', words: ['models', 'ollama', 'ai', 'components', 'chat model'] },
  { id: 'models', title: 'Models', path: '/admin/models', snippet: 'The AI models on this computer, the household’s choices, and who may use which.', access: 'admin', words: ['ollama', 'ai', 'llm', 'chat model', 'pull', 'download model', 'access'] },
  { id: 'archives', title: 'Archives', path: '/admin/archives', snippet: 'Download and look after the offline archives in the Library.', access: 'admin', words: ['kiwix', 'zim', 'wikipedia', 'download archives', 'verify'] },
  { id: 'household-links', title: 'Household links', path: '/admin/reader', snippet: 'Links in the Reader that everyone in the household sees.', access: 'admin', toolId: 'reader', words: ['shared links', 'bookmarks', 'household'] },
  { id: 'home-default', title: 'Default home screen', path: '/home/default', snippet: 'The home screen a new member starts with.', access: 'admin', words: ['layout', 'widgets', 'new member'] },
];

/** How well a page fits the words typed: 0 when some word fits nothing. */
export function pageScore(page: PageEntry, q: string): number {
  return fitScore(q, [
    { text: page.title, weight: 3 },
    { text: page.words.join(' '), weight: 2 },
    { text: page.snippet, weight: 1 },
  ]);
}

export function createPageSearchProvider(deps: { isEnabled: (toolId: string) => Promise<boolean>; pages?: readonly PageEntry[] }): SearchProvider {
  return {
    type: 'page',
    label: 'Pages',
    async search(q, ctx) {
      const admin = isAdmin(ctx.actor);
      const fits = (deps.pages ?? PAGES)
        .filter((p) => p.access === 'user' || admin)
        .map((p) => ({ p, score: pageScore(p, q) }))
        .filter((x) => x.score > 0);
      const open = await Promise.all(fits.map((x) => (x.p.toolId ? deps.isEnabled(x.p.toolId) : true)));
      return fits
        .filter((_, i) => open[i])
        .sort((a, b) => b.score - a.score)
        .slice(0, ctx.limit)
        .map(({ p }): SearchResult => ({ type: 'page', id: p.id, title: p.title, snippet: p.snippet, url: p.path }));
    },
  };
}
