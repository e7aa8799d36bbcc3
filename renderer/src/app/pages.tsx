// The signed-in pages, as one typed list: the router builds its routes from it and the shell builds
// its navigation from it. A new feature adds one entry here (and, for a header control such as a
// notifications bell, one entry in HEADER_ITEMS); nothing else in app/ changes. A page that belongs to
// a tool names it in `toolId`: it is in the navigation, and opens, only while that tool is enabled.
// `section` says where the navigation lists a page: 'main' (the sidebar, the phone's tab bar),
// 'more' (under More: useful, not daily) or 'admin' (on the Admin page, the one entry admins get for
// looking after the household; Downloads and the App Store are listed there too).
import { lazy, type ComponentType } from 'react';
import { matchPath } from 'react-router';
import type { Role } from '../api/types';
import { NotificationBell } from '../features/notifications/NotificationBell';
import type { IconName } from '../ui/icons';

// Each page is its own chunk, loaded when first opened (router.tsx shows a small wait meanwhile),
// so the first screen downloads only the shell.
const AdminPage = lazy(() => import('../features/admin/AdminPage').then((m) => ({ default: m.AdminPage })));
const AppStorePage = lazy(() => import('../features/apps/AppStorePage').then((m) => ({ default: m.AppStorePage })));
const ChatPage = lazy(() => import('../features/chat/ChatPage').then((m) => ({ default: m.ChatPage })));
const DownloadsPage = lazy(() => import('../features/downloads/DownloadsPage').then((m) => ({ default: m.DownloadsPage })));
const FeaturesPage = lazy(() => import('../features/features-admin/FeaturesPage').then((m) => ({ default: m.FeaturesPage })));
const DefaultLayoutPage = lazy(() => import('../features/home/DefaultLayoutPage').then((m) => ({ default: m.DefaultLayoutPage })));
const HomePage = lazy(() => import('../features/home/HomePage').then((m) => ({ default: m.HomePage })));
const MemberLayoutPage = lazy(() => import('../features/home/MemberLayoutPage').then((m) => ({ default: m.MemberLayoutPage })));
const ArchivesAdminPage = lazy(() => import('../features/library/ArchivesAdminPage').then((m) => ({ default: m.ArchivesAdminPage })));
const LibraryPage = lazy(() => import('../features/library/LibraryPage').then((m) => ({ default: m.LibraryPage })));
const ReaderPage = lazy(() => import('../features/library/ReaderPage').then((m) => ({ default: m.ReaderPage })));
const MembersPage = lazy(() => import('../features/members/MembersPage').then((m) => ({ default: m.MembersPage })));
const ArticlePage = lazy(() => import('../features/reader/ArticlePage').then((m) => ({ default: m.ArticlePage })));
const ReaderAdminPage = lazy(() => import('../features/reader/ReaderAdminPage').then((m) => ({ default: m.ReaderAdminPage })));
const ReaderListPage = lazy(() => import('../features/reader/ReaderListPage').then((m) => ({ default: m.ReaderListPage })));

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
}

export const SHELL_PAGES: readonly ShellPage[] = [
  { id: 'home', path: '', label: 'Home', icon: 'home', access: 'user', Component: HomePage },
  { id: 'saved-reader', path: 'reader', label: 'Reader', icon: 'bookmark', access: 'user', Component: ReaderListPage, toolId: 'reader' },
  { id: 'reader-article', path: 'reader/:id', label: 'Reader', icon: 'bookmark', access: 'user', Component: ArticlePage, inNav: false, toolId: 'reader' },
  // one page for /chat and /chat/:id, so an answer keeps arriving while the address gains the chat's id
  { id: 'chat', path: 'chat/*', label: 'Chat', icon: 'chat', access: 'user', Component: ChatPage },
  { id: 'library', path: 'library', label: 'Library', icon: 'book', access: 'user', Component: LibraryPage, toolId: 'library' },
  // /read/:sourceId opens an archive at its home page, /read/:sourceId/<article path> at that article (chat's sources, search results)
  { id: 'reader', path: 'read/:sourceId/*', label: 'Reader', icon: 'book', access: 'user', Component: ReaderPage, inNav: false, toolId: 'library' },
  { id: 'apps', path: 'apps', label: 'App Store', icon: 'apps', access: 'user', Component: AppStorePage, section: 'more', summary: 'The apps Hearth offers, and which ones the household has.' },
  { id: 'downloads', path: 'downloads', label: 'Downloads', icon: 'download', access: 'user', Component: DownloadsPage, section: 'more', summary: 'Everything Hearth is downloading, with progress.' },
  { id: 'members', path: 'members', label: 'Members', icon: 'members', access: 'admin', Component: MembersPage, section: 'admin', summary: 'Add people, change names, PINs and roles, unlock a profile.' },
  { id: 'features', path: 'features', label: 'Features', icon: 'sliders', access: 'admin', Component: FeaturesPage, section: 'admin', summary: 'The models and components Hearth runs on this computer.' },
  { id: 'archives', path: 'admin/archives', label: 'Archives', icon: 'archive', access: 'admin', Component: ArchivesAdminPage, section: 'admin', summary: 'Download and look after the offline archives in the Library.' },
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

/** The navigation for a role; `isVisible` (the enabled-tools rule) drops pages of tools that are off. */
export function navFor(role: Role, isVisible: (toolId?: string) => boolean = () => true): ShellNav {
  const listed = SHELL_PAGES.filter((p) => p.inNav !== false && canOpen(p, role) && isVisible(p.toolId));
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

/** Small controls shown in the shell header next to the user's name (e.g. a notifications bell). */
export interface HeaderItem {
  id: string;
  access: 'user' | 'admin';
  Component: ComponentType;
}

export const HEADER_ITEMS: readonly HeaderItem[] = [{ id: 'notifications', access: 'user', Component: NotificationBell }];
