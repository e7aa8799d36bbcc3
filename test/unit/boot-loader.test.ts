// The start-up loader inlined in index.html (renderer/src/app/boot-loader.ts), against a fake window:
// it asks for the app's stylesheet at once and for nothing else before the first paint; then, in one
// wave, for the start-up GETs, the opened page's chunks and stylesheets and the app's own modules;
// for the page's first data and the shell's only once the session names someone who will see the
// shell; and it runs the app's script only once its stylesheet has loaded.
import { describe, expect, it } from 'vitest';
import { boot, type BootConfig, type BootWindow, type EarlyAnswers } from '../../renderer/src/app/boot-loader.js';

const CONFIG: BootConfig = {
  entry: '/assets/index.js',
  preload: ['/assets/runtime.js'],
  css: ['/assets/index.css'],
  pages: {
    'features/reader/ReaderListPage': { js: ['/assets/ReaderListPage.js', '/assets/reader-kit.js'], css: ['/assets/reader-kit.css'] },
    'features/members/MembersPage': { js: ['/assets/MembersPage.js'], css: [] },
  },
};

type El = { tag: string; rel?: string; as?: string; href?: string; src?: string; type?: string; crossOrigin?: string | null; onload?: (() => void) | null; onerror?: (() => void) | null };

function fakeWindow(at: string, answers: Record<string, unknown>, visibilityState = 'visible') {
  const added: El[] = [];
  const asked: string[] = [];
  const timers: Array<() => void> = [];
  const onLoad: Array<() => void> = [];
  const registered: string[] = [];
  let paint: (() => void) | undefined;
  const url = new URL(at, 'http://hearth.test');
  const w: BootWindow & { __hearthEarly?: EarlyAnswers } = {
    document: {
      visibilityState,
      head: { appendChild: (node) => added.push(node as El) },
      createElement: ((tag: string) => ({ tag })) as unknown as BootWindow['document']['createElement'],
      addEventListener: () => undefined,
    },
    location: { pathname: url.pathname, search: url.search },
    fetch: (path) => {
      asked.push(path);
      const body = answers[path];
      return Promise.resolve(body === undefined ? new Response('{}', { status: 401 }) : Response.json(body));
    },
    setTimeout: (fn) => timers.push(fn),
    requestAnimationFrame: () => undefined,
    addEventListener: (_type, listener) => onLoad.push(listener),
    navigator: {
      serviceWorker: {
        register: (worker) => {
          registered.push(worker);
          return Promise.resolve();
        },
      },
    },
    PerformanceObserver: Object.assign(
      function (this: unknown, callback: () => void) {
        paint = callback;
        return { observe: () => undefined, disconnect: () => undefined };
      } as unknown as NonNullable<BootWindow['PerformanceObserver']>,
      { supportedEntryTypes: ['paint'] },
    ),
  };
  return {
    w,
    added,
    registered,
    loaded: () => onLoad.forEach((l) => l()),
    asked,
    /** The splash has painted: the observer reports it, and its timeout runs. */
    paint: () => {
      paint!();
      timers.shift()!();
    },
    hrefs: (rel: string, as?: string) => added.filter((e) => e.rel === rel && (as === undefined || e.as === as)).map((e) => e.href),
    scripts: () => added.filter((e) => e.tag === 'script'),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const SIGNED_IN = { '/api/system/ready': { ready: true }, '/api/setup/status': { needsAdmin: false, welcomeComplete: true }, '/api/auth/session': { user: { id: 'u1', role: 'member' } } };

describe('the start-up loader', () => {
  it('asks for the stylesheet at once and for nothing else before the first paint', async () => {
    const page = fakeWindow('/reader', SIGNED_IN);
    boot(CONFIG, page.w);
    await settle();
    expect(page.hrefs('stylesheet')).toEqual(['/assets/index.css']);
    expect(page.added).toHaveLength(1);
    expect(page.asked).toEqual([]);
  });

  it("asks, after the paint, for the start-up GETs, the page's code and the app's modules in one wave, then the first data once the session names someone", async () => {
    const page = fakeWindow('/reader', SIGNED_IN);
    boot(CONFIG, page.w);
    page.paint();
    expect(page.asked).toEqual(['/api/system/ready', '/api/setup/status', '/api/auth/session']);
    expect(page.hrefs('modulepreload')).toEqual(['/assets/ReaderListPage.js', '/assets/reader-kit.js', '/assets/index.js', '/assets/runtime.js']);
    expect(page.hrefs('preload', 'style')).toEqual(['/assets/reader-kit.css']);
    expect(page.added.every((e) => e.crossOrigin === '')).toBe(true);
    await settle();
    expect(page.asked.slice(3)).toEqual(['/api/reader?limit=60', '/api/reader/collections', '/api/reader/tags', '/api/tools', '/api/notifications/unread-count']);
    // the answers wait for the app, which reads their bodies itself
    const early = page.w.__hearthEarly!;
    expect(Object.keys(early)).toEqual(page.asked);
    expect(await (await early['/api/auth/session']!).json()).toEqual(SIGNED_IN['/api/auth/session']);
  });

  it('runs the app only once its stylesheet has loaded', async () => {
    const page = fakeWindow('/reader', SIGNED_IN);
    boot(CONFIG, page.w);
    page.paint();
    await settle();
    expect(page.scripts()).toEqual([]);
    page.added.find((e) => e.rel === 'stylesheet')!.onload!();
    await settle();
    expect(page.scripts()).toEqual([{ tag: 'script', type: 'module', crossOrigin: '', src: '/assets/index.js' }]);
  });

  it('asks a signed-out visitor for no page or shell data', async () => {
    const page = fakeWindow('/reader', { ...SIGNED_IN, '/api/auth/session': { user: null } });
    boot(CONFIG, page.w);
    page.paint();
    await settle();
    expect(page.asked).toEqual(['/api/system/ready', '/api/setup/status', '/api/auth/session']);
    // the page's code all the same: after signing in it opens
    expect(page.hrefs('modulepreload')).toContain('/assets/ReaderListPage.js');
  });

  it("asks a member on an admin page for the shell's data only, and an admin still in the welcome for none", async () => {
    const member = fakeWindow('/members', SIGNED_IN);
    boot(CONFIG, member.w);
    member.paint();
    await settle();
    expect(member.asked.slice(3)).toEqual(['/api/tools', '/api/notifications/unread-count']);

    const admin = fakeWindow('/members', { ...SIGNED_IN, '/api/setup/status': { needsAdmin: false, welcomeComplete: false }, '/api/auth/session': { user: { id: 'a', role: 'admin' } } });
    boot(CONFIG, admin.w);
    admin.paint();
    await settle();
    expect(admin.asked).toHaveLength(3);
  });

  it('leaves to the app what it asks for itself, and starts at once in a page that is not shown', async () => {
    const page = fakeWindow('/reader', SIGNED_IN, 'hidden');
    page.w.__hearthEarly = { '/api/tools': null };
    boot(CONFIG, page.w);
    expect(page.asked).toHaveLength(3);
    await settle();
    expect(page.asked).not.toContain('/api/tools');
    expect(page.asked).toContain('/api/notifications/unread-count');
  });

  it('registers the service worker once the page has loaded', () => {
    const page = fakeWindow('/', SIGNED_IN);
    boot({ ...CONFIG, serviceWorker: '/sw.js' }, page.w);
    expect(page.registered).toEqual([]);
    page.loaded();
    expect(page.registered).toEqual(['/sw.js']);
  });

  it('opens a location that is no page with the start-up GETs and the app only', async () => {
    const page = fakeWindow('/profiles', { ...SIGNED_IN, '/api/auth/session': { user: null } });
    boot(CONFIG, page.w);
    page.paint();
    await settle();
    expect(page.hrefs('modulepreload')).toEqual(['/assets/index.js', '/assets/runtime.js']);
    expect(page.hrefs('preload')).toEqual([]);
  });
});
