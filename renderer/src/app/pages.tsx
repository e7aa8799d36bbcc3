// The signed-in pages, as one typed list: the router builds its routes from it and the shell builds
// its navigation from it. A new feature adds one entry here (and, for a header control such as a
// notifications bell, one entry in HEADER_ITEMS); nothing else in app/ changes.
import type { ComponentType } from 'react';
import type { Role } from '../api/types';
import { DownloadsPage } from '../features/downloads/DownloadsPage';
import { FeaturesPage } from '../features/features-admin/FeaturesPage';
import { HomePage } from '../features/home/HomePage';
import { ArchivesAdminPage } from '../features/library/ArchivesAdminPage';
import { LibraryPage } from '../features/library/LibraryPage';
import { ReaderPage } from '../features/library/ReaderPage';
import { MembersPage } from '../features/members/MembersPage';
import type { IconName } from '../ui/icons';

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
}

export const SHELL_PAGES: readonly ShellPage[] = [
  { id: 'home', path: '', label: 'Home', icon: 'home', access: 'user', Component: HomePage },
  { id: 'members', path: 'members', label: 'Members', icon: 'members', access: 'admin', Component: MembersPage },
  { id: 'library', path: 'library', label: 'Library', icon: 'book', access: 'user', Component: LibraryPage },
  { id: 'reader', path: 'read/:sourceId', label: 'Reader', icon: 'book', access: 'user', Component: ReaderPage, inNav: false },
  { id: 'downloads', path: 'downloads', label: 'Downloads', icon: 'download', access: 'user', Component: DownloadsPage },
  { id: 'features', path: 'features', label: 'Features', icon: 'sliders', access: 'admin', Component: FeaturesPage },
  { id: 'archives', path: 'admin/archives', label: 'Archives', icon: 'archive', access: 'admin', Component: ArchivesAdminPage },
];

export function canOpen(page: Pick<ShellPage, 'access'>, role: Role): boolean {
  return page.access === 'user' || role === 'admin';
}

export function navItemsFor(role: Role): ShellPage[] {
  return SHELL_PAGES.filter((p) => p.inNav !== false && canOpen(p, role));
}

export const pageHref = (page: Pick<ShellPage, 'path'>) => `/${page.path.replace(/\/\*$/, '')}`;

/** Small controls shown in the shell header next to the user's name (e.g. a notifications bell). */
export interface HeaderItem {
  id: string;
  access: 'user' | 'admin';
  Component: ComponentType;
}

export const HEADER_ITEMS: readonly HeaderItem[] = [];
