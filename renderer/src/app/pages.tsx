// The signed-in pages, as one typed list: the router builds its routes from it and the shell builds
// its navigation from it. A new feature adds one entry here (and, for a header control such as a
// notifications bell, one entry in HEADER_ITEMS); nothing else in app/ changes. A page that belongs to
// a tool names it in `toolId`: it is in the navigation, and opens, only while that tool is enabled.
import { lazy, type ComponentType } from 'react';
import type { Role } from '../api/types';
import { NotificationBell } from '../features/notifications/NotificationBell';
import type { IconName } from '../ui/icons';

// Each page is its own chunk, loaded when first opened (router.tsx shows a small wait meanwhile),
// so the first screen downloads only the shell.
const AppStorePage = lazy(() => import('../features/apps/AppStorePage').then((m) => ({ default: m.AppStorePage })));
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
  /** Who may open it: 'admin' pages are hidden from members and redirect them home. */
  access: 'user' | 'admin';
  Component: ComponentType;
  /** Listed in the navigation (default true); false for pages reached from another page. */
  inNav?: boolean;
  /** The tool (GET /api/tools id) this page belongs to; absent for built-in pages. */
  toolId?: string;
}

export const SHELL_PAGES: readonly ShellPage[] = [
  { id: 'home', path: '', label: 'Home', icon: 'home', access: 'user', Component: HomePage },
  { id: 'members', path: 'members', label: 'Members', icon: 'members', access: 'admin', Component: MembersPage },
  { id: 'library', path: 'library', label: 'Library', icon: 'book', access: 'user', Component: LibraryPage, toolId: 'library' },
  { id: 'reader', path: 'read/:sourceId', label: 'Reader', icon: 'book', access: 'user', Component: ReaderPage, inNav: false, toolId: 'library' },
  { id: 'saved-reader', path: 'reader', label: 'Reader', icon: 'bookmark', access: 'user', Component: ReaderListPage, toolId: 'reader' },
  { id: 'reader-article', path: 'reader/:id', label: 'Reader', icon: 'bookmark', access: 'user', Component: ArticlePage, inNav: false, toolId: 'reader' },
  { id: 'downloads', path: 'downloads', label: 'Downloads', icon: 'download', access: 'user', Component: DownloadsPage },
  { id: 'apps', path: 'apps', label: 'App Store', icon: 'apps', access: 'user', Component: AppStorePage },
  { id: 'features', path: 'features', label: 'Features', icon: 'sliders', access: 'admin', Component: FeaturesPage },
  { id: 'archives', path: 'admin/archives', label: 'Archives', icon: 'archive', access: 'admin', Component: ArchivesAdminPage },
  { id: 'reader-admin', path: 'admin/reader', label: 'Household links', icon: 'bookmark', access: 'admin', Component: ReaderAdminPage, inNav: false, toolId: 'reader' },
  { id: 'home-default', path: 'home/default', label: 'Default home screen', icon: 'home', access: 'admin', Component: DefaultLayoutPage, inNav: false },
  { id: 'member-home', path: 'members/:userId/home', label: 'Home screen', icon: 'home', access: 'admin', Component: MemberLayoutPage, inNav: false },
];

export function canOpen(page: Pick<ShellPage, 'access'>, role: Role): boolean {
  return page.access === 'user' || role === 'admin';
}

/** The navigation for a role; `isVisible` (the enabled-tools rule) drops pages of tools that are off. */
export function navItemsFor(role: Role, isVisible: (toolId?: string) => boolean = () => true): ShellPage[] {
  return SHELL_PAGES.filter((p) => p.inNav !== false && canOpen(p, role) && isVisible(p.toolId));
}

export const pageHref = (page: Pick<ShellPage, 'path'>) => `/${page.path.replace(/\/\*$/, '')}`;

/** Small controls shown in the shell header next to the user's name (e.g. a notifications bell). */
export interface HeaderItem {
  id: string;
  access: 'user' | 'admin';
  Component: ComponentType;
}

export const HEADER_ITEMS: readonly HeaderItem[] = [{ id: 'notifications', access: 'user', Component: NotificationBell }];
