// The shape of a feature's `pages.ts`: per route of its `routes.ts` (page-types.ts), how the app
// shows the page (label, icon, lazily loaded component) and where the navigation lists it.
import type { ComponentType } from 'react';
import type { IconName } from '../ui/icons';
import type { PageRoute } from './page-types';

/** What the app adds to each route: how the navigation shows it, and its code. */
export interface PageView {
  /** Navigation label, also the page's document title. */
  label: string;
  icon: IconName;
  /**
   * The page's component, imported with `import()` from the route's `module` (each page is a chunk
   * of its own; the build fails otherwise). pages.tsx wraps it in `lazyPage`.
   */
  load: () => Promise<ComponentType>;
  /** Listed in the navigation (default true); false for pages reached from another page. */
  inNav?: boolean;
  /** The tool (GET /api/tools id) this page belongs to; absent for built-in pages. */
  toolId?: string;
  /**
   * Where the navigation lists it (default 'main'): 'main' (the sidebar, the phone's tab bar),
   * 'more' (under More: useful, not daily) or 'admin' (on the Admin page).
   */
  section?: 'main' | 'more' | 'admin';
  /**
   * Its place in the navigation, the Admin page and the App Store's built-ins: one scale shared by
   * every feature (lower first). Required of a page any of them lists.
   */
  order?: number;
  /** One line for the Admin page's list. */
  summary?: string;
  /**
   * Listed only while this holds for the caller (navFor's `holds`, features/media/nav.ts): 'media' =
   * the household's Plex is connected, or the caller is an admin; 'home-videos' = the caller's own
   * home videos library is set up or being set up.
   */
  shownWhen?: 'media' | 'home-videos';
}

/** A feature's views: one per route id it declares. */
export type PageViews<R extends readonly PageRoute[]> = { readonly [Id in R[number]['id']]: PageView };
