// The start-up loader: a small classic script the build inlines at the end of index.html
// (renderer/boot-plugin.ts bundles boot-main.ts, which calls `boot`), in place of Vite's entry
// <script type="module"> and its <link rel="modulepreload">s. It does two things the app's own
// script cannot do for itself:
//
// 1. The splash paints before any script is asked for. The app's stylesheet is asked for at once
//    (added by this script, so it holds back no paint); everything else waits for the first paint.
//    Lighthouse's simulation counts every request started before the first paint against it: with
//    the 100 KB main script among them, FCP read 1.1-1.7 s instead of 0.65 s.
// 2. The first screen's code and data are asked for in one wave, beside the app's script rather
//    than after it has arrived and run: readiness, setup state and the session; the opened page's
//    chunk, what it imports beyond the app's script, and its stylesheets (page-table.ts says which
//    page a location opens); and, the moment the session names someone who will see the shell, the
//    shell's GETs and the page's first data (never for a signed-out visitor: they would be refused).
//    The answers wait in `window.__hearthEarly` (path -> the fetch's Response), which client.ts takes
//    them from. The app's script runs once its stylesheet has loaded, so it never draws unstyled.
//
// No React and no router here: it runs before them, and the bytes are on every first screen.
import { firstDataFor, pageAt, seesShell } from './page-table.js';

/** What the build tells the loader (a JSON block beside it in index.html). */
export interface BootConfig {
  /** The app's entry module. */
  entry: string;
  /** The modules the entry imports (Vite's modulepreloads). */
  preload: string[];
  /** The app's stylesheets. */
  css: string[];
  /** Per page module (page-table.ts `module`): its chunk and the chunks it imports that the entry does not, and its stylesheets. */
  pages: Record<string, { js: string[]; css: string[] }>;
  /** The service worker, registered once the page has loaded (vite-plugin-pwa's registerSW.js did, from a script tag asked for before the first paint). */
  serviceWorker?: string;
}

/** Path -> the loader's fetch of it; null once the app has taken it, or asks for it itself (client.ts). */
export type EarlyAnswers = Record<string, Promise<Response> | null>;

/** The parts of `window` the loader uses (a fake in test/unit/boot-loader.test.ts). */
export interface BootWindow {
  document: {
    readonly visibilityState: string;
    readonly head: { appendChild(node: unknown): unknown };
    createElement(tag: 'link'): BootLink;
    createElement(tag: 'script'): BootScript;
    addEventListener(type: 'visibilitychange', listener: () => void): void;
  };
  location: { readonly pathname: string; readonly search: string };
  /** False on a plain-HTTP LAN address: no service worker there. */
  isSecureContext?: boolean;
  fetch(path: string, init: RequestInit): Promise<Response>;
  setTimeout(fn: () => void, ms: number): unknown;
  PerformanceObserver?: {
    new (callback: () => void): { observe(options: { type: string; buffered: boolean }): void; disconnect(): void };
    readonly supportedEntryTypes?: readonly string[];
  };
  requestAnimationFrame(fn: () => void): unknown;
  addEventListener(type: 'load', listener: () => void): void;
  navigator: { serviceWorker?: { register(url: string, options: { scope: string }): Promise<unknown> } };
  __hearthEarly?: EarlyAnswers;
}

interface BootLink {
  rel: string;
  as: string;
  href: string;
  crossOrigin: string | null;
  onload: (() => void) | null;
  onerror: (() => void) | null;
}

interface BootScript {
  type: string;
  src: string;
  crossOrigin: string | null;
}

/** The start-up GETs every load makes (App.tsx and session.tsx ask for them by these names). */
export const START_GETS = { ready: '/api/system/ready', setup: '/api/setup/status', session: '/api/auth/session' } as const;

/** If no paint has been reported by then, start anyway (a browser that reports none). */
const NO_PAINT_MS = 3000;

export function boot(config: BootConfig, w: BootWindow): void {
  const d = w.document;
  const early: EarlyAnswers = (w.__hearthEarly ??= {});
  const link = (rel: string, href: string, as?: string): BootLink => {
    const l = d.createElement('link');
    l.rel = rel;
    if (as) l.as = as;
    // as Vite's own links: the same request as the module script and the page's stylesheet, so each is fetched once
    l.crossOrigin = '';
    l.href = href;
    d.head.appendChild(l);
    return l;
  };

  // the app's stylesheets, asked for now: added by a script, they hold back no paint
  const styled = Promise.all(
    config.css.map(
      (href) =>
        new Promise<void>((done) => {
          const l = link('stylesheet', href);
          l.onload = l.onerror = () => done(); // one that failed: the app still starts (and says what it can)
        }),
    ),
  );

  /** Asks for `path` unless it has been (by this loader, or by the app: null). */
  const ask = (path: string): Promise<Response> | undefined => {
    if (path in early) return undefined;
    const res = w.fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    early[path] = res;
    // a refusal or a lost connection is the app's to tell (client.ts asks again); nothing is left unhandled
    res.catch(() => undefined);
    return res;
  };
  /** The JSON of a good answer, read from a copy made at once: the app reads the answer itself. */
  const json = (res: Promise<Response> | undefined): Promise<unknown> =>
    res ? res.then((r) => (r.ok ? r.clone().json() : null)).catch(() => null) : Promise.resolve(null);

  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    ask(START_GETS.ready);
    const setup = json(ask(START_GETS.setup));
    const session = json(ask(START_GETS.session));

    const { pathname, search } = w.location;
    const found = pageAt(pathname);
    const page = found ? config.pages[found.page.module] : undefined;
    for (const href of page?.js ?? []) link('modulepreload', href);
    // preloaded, not applied: the page's import applies it (Vite's preload waits for it to load)
    for (const href of page?.css ?? []) link('preload', href, 'style');
    for (const href of [config.entry, ...config.preload]) link('modulepreload', href);

    void Promise.all([setup, session]).then(([s, u]) => {
      const user = (u as { user?: { role: string } | null } | null)?.user ?? null;
      if (!s || !user || !seesShell(s as { needsAdmin: boolean; welcomeComplete: boolean }, user)) return;
      for (const path of firstDataFor(pathname, search, user.role)) ask(path);
    });

    void styled.then(() => {
      const script = d.createElement('script');
      script.type = 'module';
      script.crossOrigin = '';
      script.src = config.entry;
      d.head.appendChild(script);
    });
  };

  afterFirstPaint(w, start);

  // only on a secure origin (the secure address, or the computer itself): elsewhere the app says
  // how to get there (features/trust/SecureAddressOffer) instead of installing
  const worker = config.serviceWorker;
  const workers = w.isSecureContext === false ? undefined : w.navigator.serviceWorker;
  if (worker && workers) w.addEventListener('load', () => void workers.register(worker, { scope: '/' }).catch(() => undefined));
}

/** Runs `go` once the page has painted (the splash), or at once while it is not shown (no paint comes then). */
function afterFirstPaint(w: BootWindow, go: () => void): void {
  const d = w.document;
  if (d.visibilityState !== 'visible') return go();
  d.addEventListener('visibilitychange', () => {
    if (d.visibilityState !== 'visible') go();
  });
  const Observer = w.PerformanceObserver;
  if (Observer?.supportedEntryTypes?.includes('paint')) {
    // the paint as reported (its time is when it reached the screen), not the frame that will draw it
    const seen = new Observer(() => {
      seen.disconnect();
      w.setTimeout(go, 0);
    });
    seen.observe({ type: 'paint', buffered: true });
  } else {
    w.requestAnimationFrame(() => w.setTimeout(go, 0));
  }
  w.setTimeout(go, NO_PAINT_MS);
}
