// The signed-in pages, as one typed list: the router builds its routes from it and the shell builds
// its navigation from it. A new feature adds one entry to page-table.ts (its address, access, module
// and first GETs, which the start-up loader reads too) and one here in PAGE_VIEWS (label, icon,
// component; and, for a header control such as a notifications bell, one entry in HEADER_ITEMS);
// nothing else in app/ changes. A page that belongs to
// a tool names it in `toolId`: it is in the navigation, and opens, only while that tool is enabled.
// `section` says where the navigation lists a page: 'main' (the sidebar, the phone's tab bar),
// 'more' (under More: useful, not daily) or 'admin' (on the Admin page, the one entry admins get for
// looking after the household; Downloads and the App Store are listed there too).
import { lazy, useState, type ComponentType, type ReactElement } from 'react';
import { matchPath } from 'react-router';
import { prefetch } from '../api/client';
import { firstDataFor, PAGE_TABLE, pageAt, SHELL_PREFETCH, type PageId, type PageRoute } from './page-table';
import type { Role } from '../api/types';
import { NotificationBell } from '../features/notifications/NotificationBell';
import type { IconName } from '../ui/icons';

// Each page is its own chunk, loaded when first opened (router.tsx shows a small wait meanwhile),
// so the first screen downloads only the shell. The page a load starts on is fetched at once, beside
// the app's own script (by the start-up loader in index.html; preloadPageFor finds it there).
// Once a page's code is here (on a first load it usually is), the page draws at once instead of first
// committing the wait and then itself.
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

/** What the app adds to each page of the table (page-table.ts): how the navigation shows it, and its component. */
export interface PageView {
  /** Navigation label, also the page's document title. */
  label: string;
  icon: IconName;
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
}

/** A signed-in page: where it lives and what it first asks for (page-table.ts), and how it shows. */
export type ShellPage = PageRoute & PageView;

const PAGE_VIEWS: Record<PageId, PageView> = {
  home: { label: 'Home', icon: 'home', Component: HomePage },
  'saved-reader': { label: 'Reader', icon: 'bookmark', Component: ReaderListPage, toolId: 'reader' },
  'reader-article': { label: 'Reader', icon: 'bookmark', Component: ArticlePage, inNav: false, toolId: 'reader' },
  chat: { label: 'Chat', icon: 'chat', Component: ChatPage },
  inventory: {
    label: 'Inventory',
    icon: 'box',
    Component: InventoryPage,
    toolId: 'inventory',
    // 'more' until the phone's tab bar can take a seventh tab: at 320 px Home, Reader, Chat, Library,
    // Admin and More already fill it (navigation.test.ts checks no label is cut)
    section: 'more',
    summary: 'Every device in the house, with its manual, warranty and service history.',
  },
  'inventory-warranties': { label: 'Warranties', icon: 'box', Component: WarrantiesPage, inNav: false, toolId: 'inventory' },
  'inventory-device': { label: 'Inventory', icon: 'box', Component: DevicePage, inNav: false, toolId: 'inventory' },
  library: { label: 'Library', icon: 'book', Component: LibraryPage, toolId: 'library' },
  reader: { label: 'Reader', icon: 'book', Component: ReaderPage, inNav: false, toolId: 'library' },
  // 'more' for the same reason as the Inventory: the phone's tab bar is full at 320 px
  images: { label: 'Pictures', icon: 'image', Component: CreatePage, section: 'more', summary: 'Create pictures from words and tidy up photos, privately on this computer.' },
  'images-edit': { label: 'Edit a picture', icon: 'image', Component: EditImagePage, inNav: false },
  'media-play': { label: 'Play', icon: 'play', Component: MediaPlayerPage, inNav: false },
  'images-history': { label: 'My pictures', icon: 'image', Component: ImageHistoryPage, inNav: false },
  media: {
    label: 'Media',
    icon: 'play',
    Component: MediaPage,
    section: 'more',
    shownWhen: 'media',
    summary: 'The household’s films and shows on Plex: continue watching, what is new, what is playing.',
  },
  'media-title': { label: 'Media', icon: 'play', Component: MediaTitlePage, inNav: false },
  apps: { label: 'App Store', icon: 'apps', Component: AppStorePage, section: 'more', summary: 'The apps Hearth offers, and which ones the household has.' },
  downloads: { label: 'Downloads', icon: 'download', Component: DownloadsPage, section: 'more', summary: 'Everything Hearth is downloading, with progress.' },
  members: { label: 'Members', icon: 'members', Component: MembersPage, section: 'admin', summary: 'Add people, change names, PINs and roles, unlock a profile.' },
  features: { label: 'Features', icon: 'sliders', Component: FeaturesPage, section: 'admin', summary: 'The models and components Hearth runs on this computer.' },
  models: { label: 'Models', icon: 'sparkles', Component: ModelsPage, section: 'admin', summary: 'The AI models on this computer, the household’s choices, and who may use which.' },
  archives: { label: 'Archives', icon: 'archive', Component: ArchivesAdminPage, section: 'admin', summary: 'Download and look after the offline archives in the Library.' },
  'image-engine': { label: 'Image engine', icon: 'image', Component: ImageEnginePage, section: 'admin', summary: 'Set up the program that draws pictures, and see what it can do.' },
  'image-loras': { label: 'Picture add-ons', icon: 'sparkles', Component: ImageLorasPage, inNav: false, section: 'admin', summary: 'LoRAs: add them, sort them into categories, find more online.' },
  'image-members': { label: 'Pictures: who may use what', icon: 'members', Component: ImageMembersPage, inNav: false, section: 'admin', summary: 'Each member’s picture protections and the add-ons they may use.' },
  'media-link': { label: 'Link my Plex account', icon: 'play', Component: LinkAccountPage, inNav: false },
  profile: { label: 'Your profile', icon: 'members', Component: ProfilePage, inNav: false },
  'media-videos': { label: 'My home videos', icon: 'upload', Component: HomeVideosPage, section: 'more', shownWhen: 'home-videos', summary: 'Add your own videos to your private library on Plex.' },
  'media-admin': { label: 'Media server', icon: 'play', Component: MediaConnectionPage, section: 'admin', summary: 'Connect the household’s Plex, and see whether it is working.' },
  'media-storage': { label: 'Media storage', icon: 'folder', Component: MediaStoragePage, section: 'admin', summary: 'Where members’ own videos are kept, and their private libraries on Plex.' },
  'reader-admin': { label: 'Household links', icon: 'bookmark', Component: ReaderAdminPage, inNav: false, toolId: 'reader', section: 'admin', summary: 'Links in the Reader that everyone in the household sees.' },
  'home-default': { label: 'Default home screen', icon: 'home', Component: DefaultLayoutPage, inNav: false, section: 'admin', summary: 'The home screen a new member starts with.' },
  'member-home': { label: 'Home screen', icon: 'home', Component: MemberLayoutPage, inNav: false },
  admin: { label: 'Admin', icon: 'shield', Component: AdminPage, inNav: false },
};

/** Every signed-in page, in the table's order (the router's routes and the navigation's entries). */
export const SHELL_PAGES: readonly ShellPage[] = PAGE_TABLE.map((route: PageRoute) => ({ ...route, ...PAGE_VIEWS[route.id as PageId] }));

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
 * Starts fetching the code of the page at `pathname` (if it is one of the shell's), beside the
 * start-up requests. In the built app the loader in index.html has asked for it already (this finds
 * it there: the browser fetches a module once).
 */
export function preloadPageFor(pathname: string): void {
  const found = pageAt(pathname);
  const page = found && SHELL_PAGES.find((p) => p.id === found.page.id);
  if (page) loaders.get(page.Component)?.().catch(() => undefined);
}

/**
 * Once the session names someone who will see the shell: the opened page's first data and the
 * shell's own (`SHELL_PREFETCH`), asked for now rather than after the shell has drawn (on a phone's
 * line a round trip each). The loader in index.html asks for the same (page-table.ts `firstDataFor`)
 * before this code has arrived; `prefetch` takes its answers instead of asking again. A failure is
 * left to the page and the shell to tell.
 */
export function prefetchFirstScreen(pathname: string, search: string, role: Role): void {
  for (const path of firstDataFor(pathname, search, role)) prefetch(path);
}

export { SHELL_PREFETCH };

/** Small controls shown in the shell header next to the user's name (e.g. a notifications bell). */
export interface HeaderItem {
  id: string;
  access: 'user' | 'admin';
  Component: ComponentType;
}

export const HEADER_ITEMS: readonly HeaderItem[] = [{ id: 'notifications', access: 'user', Component: NotificationBell }];
