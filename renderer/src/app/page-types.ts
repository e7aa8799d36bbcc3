// The shape of a feature's `routes.ts`: each signed-in page's address, who may open it, the module its
// code is in and the GETs it makes first (page-view.ts is the shape of its `pages.ts`). It imports
// nothing, so the start-up loader, the app, the features and the tests all read it.

export type PrefetchParams = Readonly<Record<string, string | undefined>>;

export interface PageRoute {
  /** Stable id; also used for keys. */
  id: string;
  /** Route path under the shell without the leading slash ('' is the home page; may contain params or a trailing '/*'). */
  path: string;
  /** Who may open it: 'admin' pages are hidden from members, and show them AdminOnlyPage instead. */
  access: 'user' | 'admin';
  /** The page's module under renderer/src (without extension): the chunk its view's `load` imports. */
  module: string;
  /**
   * The GETs the page makes first, asked for at start-up beside the page's code when a load opens on
   * this page (the loader, or client.ts `prefetch`); exactly the paths the page asks for, or they are
   * not used.
   */
  prefetch?: (params: PrefetchParams, search: string) => string[];
}
