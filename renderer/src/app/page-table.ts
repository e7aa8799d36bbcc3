// Where each signed-in page lives: its address, who may open it, the module its code is in, and the
// GETs it makes first. React-free, so that both the app (pages.tsx adds each page's label, icon and
// component) and the start-up loader inlined in index.html (boot-loader.ts, built by
// renderer/boot-plugin.ts) read the one list: the loader asks for the opened page's code and first
// data beside the app's own script, before that script has arrived. The build fails when a `module`
// here is not a lazily loaded chunk of its own (pages.tsx imports it with `lazyPage`), and
// test/unit/page-table.test.ts checks each page's component is the one its `module` names.
// Order matters: the first entry whose path matches a location is the page it opens.

export type PrefetchParams = Readonly<Record<string, string | undefined>>;

export interface PageRoute {
  /** Stable id; also used for keys. */
  id: string;
  /** Route path under the shell without the leading slash ('' is the home page; may contain params or a trailing '/*'). */
  path: string;
  /** Who may open it: 'admin' pages are hidden from members, and show them AdminOnlyPage instead. */
  access: 'user' | 'admin';
  /** The page's module under renderer/src (without extension): the chunk pages.tsx loads it from. */
  module: string;
  /**
   * The GETs the page makes first, asked for at start-up beside the page's code when a load opens on
   * this page (the loader, or client.ts `prefetch`); exactly the paths the page asks for, or they are
   * not used.
   */
  prefetch?: (params: PrefetchParams, search: string) => string[];
}

const enc = encodeURIComponent;

export const PAGE_TABLE = [
  { id: 'home', path: '', access: 'user', module: 'features/home/HomePage', prefetch: () => ['/api/home-layout'] },
  // the list as it opens without filters (ReaderListPage's first page of 60)
  {
    id: 'saved-reader',
    path: 'reader',
    access: 'user',
    module: 'features/reader/ReaderListPage',
    prefetch: (_, search) => (search ? [] : ['/api/reader?limit=60', '/api/reader/collections', '/api/reader/tags']),
  },
  { id: 'reader-article', path: 'reader/:id', access: 'user', module: 'features/reader/ArticlePage', prefetch: ({ id }) => (id ? [`/api/reader/${enc(id)}`] : []) },
  // one page for /chat and /chat/:id, so an answer keeps arriving while the address gains the chat's id
  { id: 'chat', path: 'chat/*', access: 'user', module: 'features/chat/ChatPage' },
  // the list as it opens without a search or a kind chosen (queries.ts devicesUrl)
  { id: 'inventory', path: 'inventory', access: 'user', module: 'features/inventory/InventoryPage', prefetch: (_, search) => (search ? [] : ['/api/home/devices']) },
  { id: 'inventory-warranties', path: 'inventory/warranties', access: 'user', module: 'features/inventory/WarrantiesPage', prefetch: () => ['/api/home/warranties?days=60'] },
  { id: 'inventory-device', path: 'inventory/:id', access: 'user', module: 'features/inventory/DevicePage', prefetch: ({ id }) => (id ? [`/api/home/devices/${enc(id)}`] : []) },
  { id: 'library', path: 'library', access: 'user', module: 'features/library/LibraryPage' },
  // /read/:sourceId opens an archive at its home page, /read/:sourceId/<article path> at that article (chat's sources, search results)
  { id: 'reader', path: 'read/:sourceId/*', access: 'user', module: 'features/library/ReaderPage' },
  { id: 'images', path: 'images', access: 'user', module: 'features/image/CreatePage', prefetch: () => ['/api/image/status', '/api/image/loras', '/api/image/building'] },
  { id: 'images-edit', path: 'images/edit', access: 'user', module: 'features/image/EditPage', prefetch: () => ['/api/image/status', '/api/image/history'] },
  { id: 'media-play', path: 'media/play/:ratingKey', access: 'user', module: 'features/media/PlayerPage' },
  { id: 'images-history', path: 'images/history', access: 'user', module: 'features/image/HistoryPage', prefetch: (_, search) => (search ? [] : ['/api/image/history']) },
  { id: 'media', path: 'media', access: 'user', module: 'features/media/MediaPage', prefetch: () => ['/api/mediaserver/status'] },
  {
    id: 'media-title',
    path: 'media/title/:ratingKey',
    access: 'user',
    module: 'features/media/TitlePage',
    prefetch: ({ ratingKey }) => (ratingKey ? [`/api/mediaserver/meta/${enc(ratingKey)}`] : []),
  },
  { id: 'apps', path: 'apps', access: 'user', module: 'features/apps/AppStorePage' },
  { id: 'downloads', path: 'downloads', access: 'user', module: 'features/downloads/DownloadsPage' },
  { id: 'members', path: 'members', access: 'admin', module: 'features/members/MembersPage', prefetch: () => ['/api/admin/users'] },
  { id: 'features', path: 'features', access: 'admin', module: 'features/features-admin/FeaturesPage' },
  { id: 'models', path: 'admin/models', access: 'admin', module: 'features/models/ModelsPage' },
  { id: 'archives', path: 'admin/archives', access: 'admin', module: 'features/library/ArchivesAdminPage' },
  { id: 'image-engine', path: 'admin/images', access: 'admin', module: 'features/image-admin/EnginePage', prefetch: () => ['/api/admin/image-engine'] },
  { id: 'image-loras', path: 'admin/image-loras', access: 'admin', module: 'features/image-admin/LorasPage', prefetch: () => ['/api/admin/image-loras'] },
  { id: 'image-members', path: 'admin/image-members', access: 'admin', module: 'features/image-admin/MembersImagePage', prefetch: () => ['/api/admin/users', '/api/admin/image-loras'] },
  { id: 'media-link', path: 'media/link', access: 'user', module: 'features/media/LinkAccount', prefetch: () => ['/api/mediaserver/status', '/api/mediaserver/me'] },
  { id: 'profile', path: 'profile', access: 'user', module: 'features/profile/ProfilePage', prefetch: () => ['/api/mediaserver/status'] },
  { id: 'media-videos', path: 'media/videos', access: 'user', module: 'features/media/HomeVideosPage', prefetch: () => ['/api/mediaserver/me/library-sections'] },
  { id: 'media-admin', path: 'admin/media', access: 'admin', module: 'features/media-admin/ConnectionPage', prefetch: () => ['/api/mediaserver/config'] },
  {
    id: 'media-storage',
    path: 'admin/media-storage',
    access: 'admin',
    module: 'features/media-admin/StoragePage',
    prefetch: () => ['/api/admin/storage-locations', '/api/mediaserver/admin/library-sections', '/api/mediaserver/admin/upload-limits'],
  },
  { id: 'reader-admin', path: 'admin/reader', access: 'admin', module: 'features/reader/ReaderAdminPage' },
  { id: 'home-default', path: 'home/default', access: 'admin', module: 'features/home/DefaultLayoutPage' },
  { id: 'member-home', path: 'members/:userId/home', access: 'admin', module: 'features/home/MemberLayoutPage' },
  // the admin entry: a list of the pages in 'admin' and 'more' (not an app, so not in the App Store)
  { id: 'admin', path: 'admin', access: 'admin', module: 'features/admin/AdminPage' },
] as const satisfies readonly PageRoute[];

export type PageId = (typeof PAGE_TABLE)[number]['id'];

/**
 * The params of `pathname` when it opens the page at `path` (a PAGE_TABLE path), or null: the same
 * answers as react-router's `matchPath({path: '/' + path, end: true}, pathname)` (the same pattern,
 * test/unit/page-table.test.ts compares them for every table path), with each param decoded as the
 * router hands it to the page, and without react-router: the loader must stay small. Letters match
 * in any case, trailing slashes are allowed, `:name` takes one segment and a final `*` the rest.
 */
export function matchPagePath(path: string, pathname: string): Record<string, string> | null {
  const names: string[] = [];
  const splat = path.endsWith('*');
  let source = ('/' + path)
    .replace(/\/*\*?$/, '')
    .replace(/^\/*/, '/')
    .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
    .replace(/\/:([\w-]+)/g, (_, name: string) => {
      names.push(name);
      return '/([^\\/]+)';
    });
  if (splat) names.push('*');
  source = '^' + source + (splat ? '(?:\\/(.+)|\\/*)$' : '\\/*$');
  const found = new RegExp(source, 'i').exec(pathname);
  if (!found) return null;
  const params: Record<string, string> = {};
  names.forEach((name, i) => (params[name] = decodeSegment((found[i + 1] ?? '').replace(/%2F/g, '/'))));
  return params;
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The first page of the table `pathname` opens, with its params. */
export function pageAt(pathname: string): { page: PageRoute; params: Record<string, string> } | null {
  for (const page of PAGE_TABLE as readonly PageRoute[]) {
    const params = matchPagePath(page.path, pathname);
    if (params) return { page, params };
  }
  return null;
}

/**
 * The GETs the shell itself makes on every signed-in screen (the enabled tools for the navigation,
 * the bell's count), asked for as soon as the session says someone is signed in, beside the page's
 * own, instead of after the shell's first render; the shell's queries take these answers
 * (client.ts `prefetch`).
 */
export const SHELL_PREFETCH: readonly string[] = ['/api/tools', '/api/notifications/unread-count'];

/** Does this start-up answer lead to the shell (not the profile picker, nor the setup wizard)? */
export function seesShell(setup: { needsAdmin: boolean; welcomeComplete: boolean }, user: { role: string } | null): boolean {
  return !setup.needsAdmin && !!user && (user.role !== 'admin' || setup.welcomeComplete);
}

/**
 * What the first screen at `pathname` asks for once a signed-in `role` is known: the page's first
 * GETs (none for a page the role may not open: it shows a sentence instead) and the shell's own.
 */
export function firstDataFor(pathname: string, search: string, role: string): string[] {
  const found = pageAt(pathname);
  const page = found && (found.page.access === 'user' || role === 'admin') ? (found.page.prefetch?.(found.params, search) ?? []) : [];
  return [...page, ...SHELL_PREFETCH];
}
