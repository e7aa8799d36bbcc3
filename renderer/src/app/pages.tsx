// The signed-in pages, as one typed list: the router builds its routes from it and the shell builds
// its navigation from it. Each feature declares its pages in its own folder: `routes.ts` (address,
// access, module and first GETs, which the start-up loader reads too) and `pages.ts` (label, icon,
// lazily loaded component, navigation section and order); page-table.ts and this file list each
// feature once (and, for a header control such as a notifications bell, one entry in HEADER_ITEMS);
// nothing else in app/ changes. A page that belongs to
// a tool names it in `toolId`: it is in the navigation, and opens, only while that tool is enabled.
// `section` says where the navigation lists a page: 'main' (the sidebar, the phone's tab bar),
// 'more' (under More: useful, not daily) or 'admin' (on the Admin page, the one entry admins get for
// looking after the household; Downloads and the App Store are listed there too).
import { lazy, useState, type ComponentType, type ReactElement } from 'react';
import { matchPath } from 'react-router';
import { prefetch } from '../api/client';
import { firstDataFor, PAGE_TABLE, pageAt, SHELL_PREFETCH, type PageRoute } from './page-table';
import type { PageView } from './page-view';
import { canOpen, pageHref, type ShellPage } from './shell-pages';
import { views as home } from '../features/home/pages';
import { views as reader } from '../features/reader/pages';
import { views as chat } from '../features/chat/pages';
import { views as inventory } from '../features/inventory/pages';
import { views as library } from '../features/library/pages';
import { views as image } from '../features/image/pages';
import { views as media } from '../features/media/pages';
import { views as apps } from '../features/apps/pages';
import { views as downloads } from '../features/downloads/pages';
import { views as members } from '../features/members/pages';
import { views as featuresAdmin } from '../features/features-admin/pages';
import { views as models } from '../features/models/pages';
import { views as imageAdmin } from '../features/image-admin/pages';
import { views as profile } from '../features/profile/pages';
import { views as mediaAdmin } from '../features/media-admin/pages';
import { views as trust } from '../features/trust/pages';
import { views as voice } from '../features/voice/pages';
import { views as today } from '../features/today/pages';
import { views as admin } from '../features/admin/pages';
import { views as companions } from '../features/companions/pages';
import { views as maps } from '../features/maps/pages';
import { views as smartHome } from '../features/smart-home/pages';
import { views as tools } from '../features/tools/pages';
import { views as shopping } from '../features/shopping/pages';
import { views as notify } from '../features/notify/pages';
import { views as skills } from '../features/skills/pages';
import { views as storage } from '../features/storage/pages';
import { views as listen } from '../features/listen/pages';
import { views as shows } from '../features/shows/pages';
import { views as music } from '../features/music/pages';
import { views as videos } from '../features/videos/pages';
import { views as locale } from '../features/locale/pages';
import { views as connectivity } from '../features/connectivity/pages';
import { views as benchmarks } from '../features/benchmarks/pages';

import type { Role } from '../api/types';
import { NotificationBell } from '../features/notifications/NotificationBell';

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

/** Every feature's views (its pages.ts), beside its routes in page-table.ts. */
const VIEWS: { readonly [id: string]: PageView } = {
  ...home,
  ...reader,
  ...chat,
  ...inventory,
  ...library,
  ...image,
  ...media,
  ...apps,
  ...downloads,
  ...members,
  ...featuresAdmin,
  ...models,
  ...imageAdmin,
  ...profile,
  ...mediaAdmin,
  ...trust,
  ...voice,
  ...today,
  ...admin,
  ...companions,
  ...maps,
  ...smartHome,
  ...shopping,
  ...tools,
  ...notify,
  ...skills,
  ...storage,
  ...listen,
  ...shows,
  ...music,
  ...videos,
  ...locale,
  ...connectivity,
  ...benchmarks,
};

/**
 * Every signed-in page, in navigation order (its view's `order`; pages no list shows last, in the
 * table's order): the router's routes, the navigation's entries, the Admin page's and the App Store's.
 */
export const SHELL_PAGES: readonly ShellPage[] = (PAGE_TABLE as readonly PageRoute[])
  .map((route, i) => {
    const { load, ...view } = VIEWS[route.id]!;
    return { page: { ...route, ...view, Component: lazyPage(load) }, rank: view.order ?? 10_000 + i };
  })
  .sort((a, b) => a.rank - b.rank)
  .map(({ page }) => page);

/** The admin entry's page id: the shell shows it as the last main entry for admins. */
export const ADMIN_PAGE_ID = 'admin';

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

/** Is this location one of the admin pages (so the Admin entry shows as current)? */
export function isAdminLocation(pathname: string): boolean {
  return SHELL_PAGES.some((p) => p.access === 'admin' && matchPath({ path: pageHref(p), end: true }, pathname) !== null);
}

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

export { canOpen, pageHref, SHELL_PREFETCH, type ShellPage };

/** Small controls shown in the shell header next to the user's name (e.g. a notifications bell). */
export interface HeaderItem {
  id: string;
  access: 'user' | 'admin';
  Component: ComponentType;
}

export const HEADER_ITEMS: readonly HeaderItem[] = [{ id: 'notifications', access: 'user', Component: NotificationBell }];
