// The signed-in pages, as one typed list: the router builds its routes from it and the shell builds
// its navigation from it. A new feature adds one entry here (and, for a header control such as a
// notifications bell, one entry in HEADER_ITEMS); nothing else in app/ changes. A page that belongs to
// a tool names it in `toolId`: it is in the navigation, and opens, only while that tool is enabled.
// `section` says where the navigation lists a page: 'main' (the sidebar, the phone's tab bar),
// 'more' (under More: useful, not daily) or 'admin' (on the Admin page, the one entry admins get for
// looking after the household; Downloads and the App Store are listed there too).
import { lazy, useState, type ComponentType, type ReactElement } from 'react';
import { matchPath } from 'react-router';
import { prefetch } from '../api/client';
import type { Role } from '../api/types';
import { NotificationBell } from '../features/notifications/NotificationBell';
import type { IconName } from '../ui/icons';

// Each page is its own chunk, loaded when first opened (router.tsx shows a small wait meanwhile),
// so the first screen downloads only the shell. The page a load starts on is fetched at once, beside
// the start-up requests (preloadPageFor), instead of after them.
// Once a page's code is here (preloadPageFor asks for it beside the session, so on a first load it
// usually is), the page draws at once instead of first committing the wait and then itself.
const loaders = new Map<ComponentType, () => Promise<unknown>>();
function lazyPage(load: () => Promise<ComponentType>): ComponentType {
  let loaded: ComponentType | undefined;
  let started: Promise<{ default: ComponentType }> | undefined;
  const start = () =>
    (started ??= load().then((Component) => {
      loaded = Component;
      return { default: Component };
    }));
  const Lazy = lazy(start);
  function Page(): ReactElement {
    // chosen once per mount: a later render never swaps the component under a page in use
    const [Ready] = useState(() => loaded);
    return Ready ? <Ready /> : <Lazy />;
  }
  loaders.set(Page, start);
  return Page;
}

const AdminPage = lazyPage(() => import('../features/admin/AdminPage').then((m) => m.AdminPage));
const AppStorePage = lazyPage(() => import('../features/apps/AppStorePage').then((m) => m.AppStorePage));
const ChatPage = lazyPage(() => import('../features/chat/ChatPage').then((m) => m.ChatPage));
const DownloadsPage = lazyPage(() => import('../features/downloads/DownloadsPage').then((m) => m.DownloadsPage));
const FeaturesPage = lazyPage(() => import('../features/features-admin/FeaturesPage').then((m) => m.FeaturesPage));
const DefaultLayoutPage = lazyPage(() => import('../features/home/DefaultLayoutPage').then((m) => m.DefaultLayoutPage));
const DevicePage = lazyPage(() => import('../features/inventory/DevicePage').then((m) => m.DevicePage));
const InventoryPage = lazyPage(() => import('../features/inventory/InventoryPage').then((m) => m.InventoryPage));
const WarrantiesPage = lazyPage(() => import('../features/inventory/WarrantiesPage').then((m) => m.WarrantiesPage));
const HomePage = lazyPage(() => import('../features/home/HomePage').then((m) => m.HomePage));
const MemberLayoutPage = lazyPage(() => import('../features/home/MemberLayoutPage').then((m) => m.MemberLayoutPage));
const ArchivesAdminPage = lazyPage(() => import('../features/library/ArchivesAdminPage').then((m) => m.ArchivesAdminPage));
const LibraryPage = lazyPage(() => import('../features/library/LibraryPage').then((m) => m.LibraryPage));
const ReaderPage = lazyPage(() => import('../features/library/ReaderPage').then((m) => m.ReaderPage));
const ModelsPage = lazyPage(() => import('../features/models/ModelsPage').then((m) => m.ModelsPage));
const MembersPage = lazyPage(() => import('../features/members/MembersPage').then((m) => m.MembersPage));
const ArticlePage = lazyPage(() => import('../features/reader/ArticlePage').then((m) => m.ArticlePage));
const ReaderAdminPage = lazyPage(() => import('../features/reader/ReaderAdminPage').then((m) => m.ReaderAdminPage));
const ReaderListPage = lazyPage(() => import('../features/reader/ReaderListPage').then((m) => m.ReaderListPage));
const CreatePage = lazyPage(() => import('../features/image/CreatePage').then((m) => m.CreatePage));
const EditImagePage = lazyPage(() => import('../features/image/EditPage').then((m) => m.EditPage));
const ImageEnginePage = lazyPage(() => import('../features/image-admin/EnginePage').then((m) => m.EnginePage));
const ImageLorasPage = lazyPage(() => import('../features/image-admin/LorasPage').then((m) => m.LorasPage));
const ImageMembersPage = lazyPage(() => import('../features/image-admin/MembersImagePage').then((m) => m.MembersImagePage));
const LinkAccountPage = lazyPage(() => import('../features/media/LinkAccount').then((m) => m.LinkAccountPage));
const HomeVideosPage = lazyPage(() => import('../features/media/HomeVideosPage').then((m) => m.HomeVideosPage));
const MediaStoragePage = lazyPage(() => import('../features/media-admin/StoragePage').then((m) => m.StoragePage));
const ProfilePage = lazyPage(() => import('../features/profile/ProfilePage').then((m) => m.ProfilePage));
const MediaConnectionPage = lazyPage(() => import('../features/media-admin/ConnectionPage').then((m) => m.ConnectionPage));
const MediaPage = lazyPage(() => import('../features/media/MediaPage').then((m) => m.MediaPage));
const MediaTitlePage = lazyPage(() => import('../features/media/TitlePage').then((m) => m.TitlePage));
const ImageHistoryPage = lazyPage(() => import('../features/image/HistoryPage').then((m) => m.HistoryPage));
const MediaPlayerPage = lazyPage(() => import('../features/media/PlayerPage').then((m) => m.PlayerPage));

export interface ShellPage {
  /** Stable id; also used for keys. */
  id: string;
  /** Route path under the shell without the leading slash ('' is the home page; may contain params or a trailing '/*'). */
  path: string;
  /** Navigation label, also the page's document title. */
  label: string;
  icon: IconName;
  /** Who may open it: 'admin' pages are hidden from members, and show them AdminOnlyPage instead. */
  access: 'user' | 'admin';
  Component: ComponentType;
  /** Listed in the navigation (default true); false for pages reached from another page. */
  inNav?: boolean;
  /** The tool (GET /api/tools id) this page belongs to; absent for built-in pages. */
  toolId?: string;
  /** Where the navigation lists it (default 'main'); see the top of this file. */
  section?: 'main' | 'more' | 'admin';
  /** One line for the Admin page's list. */
  summary?: string;
  /**
   * Listed only while this holds for the caller (navFor's `holds`, features/media/nav.ts): 'media' =
   * the household's Plex is connected, or the caller is an admin; 'home-videos' = the caller's own
   * home videos library is set up or being set up.
   */
  shownWhen?: 'media' | 'home-videos';
  /**
   * The GETs the page makes first, asked for at start-up beside the session when a load opens on
   * this page (client.ts `prefetch`); exactly the paths the page asks for, or they are not used.
   */
  prefetch?: (params: Readonly<Record<string, string | undefined>>, search: string) => string[];
}

export const SHELL_PAGES: readonly ShellPage[] = [
  { id: 'home', path: '', label: 'Home', icon: 'home', access: 'user', Component: HomePage, prefetch: () => ['/api/home-layout'] },
  {
    id: 'saved-reader',
    path: 'reader',
    label: 'Reader',
    icon: 'bookmark',
    access: 'user',
    Component: ReaderListPage,
    toolId: 'reader',
    // the list as it opens without filters (ReaderListPage's first page of 60)
    prefetch: (_, search) => (search ? [] : ['/api/reader?limit=60', '/api/reader/collections', '/api/reader/tags']),
  },
  {
    id: 'reader-article',
    path: 'reader/:id',
    label: 'Reader',
    icon: 'bookmark',
    access: 'user',
    Component: ArticlePage,
    inNav: false,
    toolId: 'reader',
    prefetch: ({ id }) => (id ? [`/api/reader/${encodeURIComponent(id)}`] : []),
  },
  // one page for /chat and /chat/:id, so an answer keeps arriving while the address gains the chat's id
  { id: 'chat', path: 'chat/*', label: 'Chat', icon: 'chat', access: 'user', Component: ChatPage },
  {
    id: 'inventory',
    path: 'inventory',
    label: 'Inventory',
    icon: 'box',
    access: 'user',
    Component: InventoryPage,
    toolId: 'inventory',
    // 'more' until the phone's tab bar can take a seventh tab: at 320 px Home, Reader, Chat, Library,
    // Admin and More already fill it (navigation.test.ts checks no label is cut)
    section: 'more',
    summary: 'Every device in the house, with its manual, warranty and service history.',
    // the list as it opens without a search or a kind chosen (queries.ts devicesUrl)
    prefetch: (_, search) => (search ? [] : ['/api/home/devices']),
  },
  { id: 'inventory-warranties', path: 'inventory/warranties', label: 'Warranties', icon: 'box', access: 'user', Component: WarrantiesPage, inNav: false, toolId: 'inventory', prefetch: () => ['/api/home/warranties?days=60'] },
  {
    id: 'inventory-device',
    path: 'inventory/:id',
    label: 'Inventory',
    icon: 'box',
    access: 'user',
    Component: DevicePage,
    inNav: false,
    toolId: 'inventory',
    prefetch: ({ id }) => (id ? [`/api/home/devices/${encodeURIComponent(id)}`] : []),
  },
  { id: 'library', path: 'library', label: 'Library', icon: 'book', access: 'user', Component: LibraryPage, toolId: 'library' },
  // /read/:sourceId opens an archive at its home page, /read/:sourceId/<article path> at that article (chat's sources, search results)
  { id: 'reader', path: 'read/:sourceId/*', label: 'Reader', icon: 'book', access: 'user', Component: ReaderPage, inNav: false, toolId: 'library' },
  // 'more' for the same reason as the Inventory: the phone's tab bar is full at 320 px
  {
    id: 'images',
    path: 'images',
    label: 'Pictures',
    icon: 'image',
    access: 'user',
    Component: CreatePage,
    section: 'more',
    summary: 'Create pictures from words and tidy up photos, privately on this computer.',
    prefetch: () => ['/api/image/status', '/api/image/loras', '/api/image/building'],
  },
  { id: 'images-edit', path: 'images/edit', label: 'Edit a picture', icon: 'image', access: 'user', Component: EditImagePage, inNav: false, prefetch: () => ['/api/image/status', '/api/image/history'] },
  { id: 'media-play', path: 'media/play/:ratingKey', label: 'Play', icon: 'play', access: 'user', Component: MediaPlayerPage, inNav: false },
  { id: 'images-history', path: 'images/history', label: 'My pictures', icon: 'image', access: 'user', Component: ImageHistoryPage, inNav: false, prefetch: (_, search) => (search ? [] : ['/api/image/history']) },
  {
    id: 'media',
    path: 'media',
    label: 'Media',
    icon: 'play',
    access: 'user',
    Component: MediaPage,
    section: 'more',
    shownWhen: 'media',
    summary: 'The household’s films and shows on Plex: continue watching, what is new, what is playing.',
    prefetch: () => ['/api/mediaserver/status'],
  },
  { id: 'media-title', path: 'media/title/:ratingKey', label: 'Media', icon: 'play', access: 'user', Component: MediaTitlePage, inNav: false, prefetch: ({ ratingKey }) => (ratingKey ? [`/api/mediaserver/meta/${encodeURIComponent(ratingKey)}`] : []) },
  { id: 'apps', path: 'apps', label: 'App Store', icon: 'apps', access: 'user', Component: AppStorePage, section: 'more', summary: 'The apps Hearth offers, and which ones the household has.' },
  { id: 'downloads', path: 'downloads', label: 'Downloads', icon: 'download', access: 'user', Component: DownloadsPage, section: 'more', summary: 'Everything Hearth is downloading, with progress.' },
  { id: 'members', path: 'members', label: 'Members', icon: 'members', access: 'admin', Component: MembersPage, section: 'admin', summary: 'Add people, change names, PINs and roles, unlock a profile.', prefetch: () => ['/api/admin/users'] },
  { id: 'features', path: 'features', label: 'Features', icon: 'sliders', access: 'admin', Component: FeaturesPage, section: 'admin', summary: 'The models and components Hearth runs on this computer.' },
  { id: 'models', path: 'admin/models', label: 'Models', icon: 'sparkles', access: 'admin', Component: ModelsPage, section: 'admin', summary: 'The AI models on this computer, the household’s choices, and who may use which.' },
  { id: 'archives', path: 'admin/archives', label: 'Archives', icon: 'archive', access: 'admin', Component: ArchivesAdminPage, section: 'admin', summary: 'Download and look after the offline archives in the Library.' },
  { id: 'image-engine', path: 'admin/images', label: 'Image engine', icon: 'image', access: 'admin', Component: ImageEnginePage, section: 'admin', summary: 'Set up the program that draws pictures, and see what it can do.', prefetch: () => ['/api/admin/image-engine'] },
  { id: 'image-loras', path: 'admin/image-loras', label: 'Picture add-ons', icon: 'sparkles', access: 'admin', Component: ImageLorasPage, inNav: false, section: 'admin', summary: 'LoRAs: add them, sort them into categories, find more online.', prefetch: () => ['/api/admin/image-loras'] },
  { id: 'image-members', path: 'admin/image-members', label: 'Pictures: who may use what', icon: 'members', access: 'admin', Component: ImageMembersPage, inNav: false, section: 'admin', summary: 'Each member’s picture protections and the add-ons they may use.', prefetch: () => ['/api/admin/users', '/api/admin/image-loras'] },
  { id: 'media-link', path: 'media/link', label: 'Link my Plex account', icon: 'play', access: 'user', Component: LinkAccountPage, inNav: false, prefetch: () => ['/api/mediaserver/status', '/api/mediaserver/me'] },
  { id: 'profile', path: 'profile', label: 'Your profile', icon: 'members', access: 'user', Component: ProfilePage, inNav: false, prefetch: () => ['/api/mediaserver/status'] },
  { id: 'media-videos', path: 'media/videos', label: 'My home videos', icon: 'upload', access: 'user', Component: HomeVideosPage, section: 'more', shownWhen: 'home-videos', summary: 'Add your own videos to your private library on Plex.', prefetch: () => ['/api/mediaserver/me/library-sections'] },
  { id: 'media-admin', path: 'admin/media', label: 'Media server', icon: 'play', access: 'admin', Component: MediaConnectionPage, section: 'admin', summary: 'Connect the household’s Plex, and see whether it is working.', prefetch: () => ['/api/mediaserver/config'] },
  { id: 'media-storage', path: 'admin/media-storage', label: 'Media storage', icon: 'folder', access: 'admin', Component: MediaStoragePage, section: 'admin', summary: 'Where members’ own videos are kept, and their private libraries on Plex.', prefetch: () => ['/api/admin/storage-locations', '/api/mediaserver/admin/library-sections'] },
  { id: 'reader-admin', path: 'admin/reader', label: 'Household links', icon: 'bookmark', access: 'admin', Component: ReaderAdminPage, inNav: false, toolId: 'reader', section: 'admin', summary: 'Links in the Reader that everyone in the household sees.' },
  { id: 'home-default', path: 'home/default', label: 'Default home screen', icon: 'home', access: 'admin', Component: DefaultLayoutPage, inNav: false, section: 'admin', summary: 'The home screen a new member starts with.' },
  { id: 'member-home', path: 'members/:userId/home', label: 'Home screen', icon: 'home', access: 'admin', Component: MemberLayoutPage, inNav: false },
  // the admin entry: a list of the pages above in 'admin' and 'more' (not an app, so not in the App Store)
  { id: 'admin', path: 'admin', label: 'Admin', icon: 'shield', access: 'admin', Component: AdminPage, inNav: false },
];

/** The admin entry's page id: the shell shows it as the last main entry for admins. */
export const ADMIN_PAGE_ID = 'admin';

export function canOpen(page: Pick<ShellPage, 'access'>, role: Role): boolean {
  return page.access === 'user' || role === 'admin';
}

export interface ShellNav {
  /** The sidebar's entries and the phone's tabs (an admin's end with Admin). */
  main: ShellPage[];
  /** Under More (on wide screens, a second group in the sidebar). */
  more: ShellPage[];
}

/**
 * The navigation for a role; `isVisible` (the enabled-tools rule) drops pages of tools that are off,
 * `holds` pages whose `shownWhen` does not hold (the Media page while no Plex is connected, My home
 * videos without a library of one's own).
 */
export function navFor(role: Role, isVisible: (toolId?: string) => boolean = () => true, holds: (when: NonNullable<ShellPage['shownWhen']>) => boolean = () => true): ShellNav {
  const listed = SHELL_PAGES.filter((p) => p.inNav !== false && canOpen(p, role) && isVisible(p.toolId) && (!p.shownWhen || holds(p.shownWhen)));
  const admin = SHELL_PAGES.find((p) => p.id === ADMIN_PAGE_ID);
  return {
    main: [...listed.filter((p) => (p.section ?? 'main') === 'main'), ...(admin && canOpen(admin, role) ? [admin] : [])],
    more: listed.filter((p) => p.section === 'more'),
  };
}

/** The pages the Admin page lists, in order: the admin pages, then Downloads and the App Store. */
export function adminPagesFor(role: Role, isVisible: (toolId?: string) => boolean = () => true): ShellPage[] {
  const open = SHELL_PAGES.filter((p) => canOpen(p, role) && isVisible(p.toolId));
  return [...open.filter((p) => p.section === 'admin'), ...open.filter((p) => p.section === 'more')];
}

/** Is this location one of the admin pages (so the Admin entry shows as current)? */
export function isAdminLocation(pathname: string): boolean {
  return SHELL_PAGES.some((p) => p.access === 'admin' && matchPath({ path: pageHref(p), end: true }, pathname) !== null);
}

export const pageHref = (page: Pick<ShellPage, 'path'>) => `/${page.path.replace(/\/\*$/, '')}`;

/**
 * Starts fetching the code and the first data of the page at `pathname` (if it is one of the
 * shell's), and the shell's own data (`SHELL_PREFETCH`): a shell page is opened by someone signed
 * in, so that data is asked for beside the session, not once the session has answered (a round trip
 * later, which the first screen waited for on a phone's line). A failure is left to the page and
 * the shell to tell.
 */
export function preloadPageFor(pathname: string, search = ''): void {
  for (const page of SHELL_PAGES) {
    const match = matchPath({ path: `/${page.path}`, end: true }, pathname);
    if (!match) continue;
    loaders.get(page.Component)?.().catch(() => undefined);
    for (const path of page.prefetch?.(match.params, search) ?? []) prefetch(path);
    preloadShell();
    return;
  }
}

/**
 * The GETs the shell itself makes on every signed-in screen (the enabled tools for the navigation,
 * the bell's count), asked for as soon as the session says someone is signed in, beside the page's
 * own, instead of after the shell's first render; the shell's queries take these answers
 * (client.ts `prefetch`).
 */
export const SHELL_PREFETCH: readonly string[] = ['/api/tools', '/api/notifications/unread-count'];

export function preloadShell(): void {
  for (const path of SHELL_PREFETCH) prefetch(path);
}

/** Small controls shown in the shell header next to the user's name (e.g. a notifications bell). */
export interface HeaderItem {
  id: string;
  access: 'user' | 'admin';
  Component: ComponentType;
}

export const HEADER_ITEMS: readonly HeaderItem[] = [{ id: 'notifications', access: 'user', Component: NotificationBell }];
