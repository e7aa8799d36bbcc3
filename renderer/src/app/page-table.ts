// Where each signed-in page lives: its address, who may open it, the module its code is in, and the
// GETs it makes first, gathered from the features: each declares its pages in its own
// `features/<x>/routes.ts` (and, in `features/<x>/pages.ts`, read by pages.tsx, its label, icon,
// component and navigation). React-free, so that both the app and the start-up loader inlined in index.html
// (boot-loader.ts, built by renderer/first-paint.ts) read the one
// list: the loader asks for the opened page's code and first data beside the app's own script, before
// that script has arrived. The build fails when a `module` is not a lazily loaded chunk of its own,
// and test/unit/page-table.test.ts checks each page's view loads the module its route names.
// Order matters: the first entry whose path matches a location is the page it opens.
import { routes as home } from '../features/home/routes.js';
import { routes as reader } from '../features/reader/routes.js';
import { routes as chat } from '../features/chat/routes.js';
import { routes as inventory } from '../features/inventory/routes.js';
import { routes as library } from '../features/library/routes.js';
import { routes as image } from '../features/image/routes.js';
import { routes as media } from '../features/media/routes.js';
import { routes as apps } from '../features/apps/routes.js';
import { routes as downloads } from '../features/downloads/routes.js';
import { routes as members } from '../features/members/routes.js';
import { routes as featuresAdmin } from '../features/features-admin/routes.js';
import { routes as models } from '../features/models/routes.js';
import { routes as imageAdmin } from '../features/image-admin/routes.js';
import { routes as profile } from '../features/profile/routes.js';
import { routes as mediaAdmin } from '../features/media-admin/routes.js';
import { routes as trust } from '../features/trust/routes.js';
import { routes as voice } from '../features/voice/routes.js';
import { routes as today } from '../features/today/routes.js';
import { routes as admin } from '../features/admin/routes.js';
import { routes as companions } from '../features/companions/routes.js';
import { routes as maps } from '../features/maps/routes.js';
import { routes as smartHome } from '../features/smart-home/routes.js';
import { routes as tools } from '../features/tools/routes.js';
import { routes as shopping } from '../features/shopping/routes.js';
import { routes as notify } from '../features/notify/routes.js';
import { routes as skills } from '../features/skills/routes.js';
import { routes as storage } from '../features/storage/routes.js';
import { routes as listen } from '../features/listen/routes.js';
import { routes as shows } from '../features/shows/routes.js';
import { routes as music } from '../features/music/routes.js';
import { routes as videos } from '../features/videos/routes.js';
import { routes as locale } from '../features/locale/routes.js';
import { routes as connectivity } from '../features/connectivity/routes.js';
import { routes as benchmarks } from '../features/benchmarks/routes.js';
import type { PageRoute } from './page-types.js';

export type { PageRoute, PrefetchParams } from './page-types.js';

/** Every feature's pages, feature by feature (a new feature adds its `routes` here and its `views` in pages.tsx). */
export const PAGE_TABLE = [
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
