// Navigation at every width, for an admin and a member: at 320, 390, 768, 1024, 1280 and 1920 px
// every destination of the role opens from the navigation (More at every width, the Admin page for
// the admin pages), every navigation control and the bell, the name and Sign out lie inside the
// viewport without overlapping one another and no visible label is cut; the sidebar's collapsed
// choice survives a reload; a member opening an admin page is told it is for the admins.
// One browser, one page per role, resized between widths. Needs the built web app.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPageOpener, launchChromium, requireBuiltWebApp, shellSettled, shown } from '../harness/browser.js';
import { ADMIN, startTestServer, type TestServer } from '../harness/start-server.js';

const WIDTHS = [320, 390, 768, 1024, 1280, 1920] as const;
const HEIGHT = 800;

/** Destinations and where they lead; `via` is how the navigation reaches them. */
interface Destination {
  label: string;
  path: string;
  via: 'main' | 'more' | 'admin';
}

const MEMBER_DESTINATIONS: readonly Destination[] = [
  { label: 'Home', path: '/', via: 'main' },
  { label: 'Reader', path: '/reader', via: 'main' },
  { label: 'Chat', path: '/chat', via: 'main' },
  { label: 'Library', path: '/library', via: 'main' },
  { label: 'Companions', path: '/companions', via: 'more' },
  { label: 'Map', path: '/maps', via: 'more' },
  { label: 'App Store', path: '/apps', via: 'more' },
  { label: 'Downloads', path: '/downloads', via: 'more' },
];

const ADMIN_DESTINATIONS: readonly Destination[] = [
  ...MEMBER_DESTINATIONS,
  { label: 'Admin', path: '/admin', via: 'main' },
  { label: 'Members', path: '/members', via: 'admin' },
  { label: 'Features', path: '/features', via: 'admin' },
  { label: 'Models', path: '/admin/models', via: 'admin' },
  { label: 'Archives', path: '/admin/archives', via: 'admin' },
  { label: 'Household links', path: '/admin/reader', via: 'admin' },
  { label: 'Default home screen', path: '/home/default', via: 'admin' },
  { label: 'Maps', path: '/admin/maps', via: 'admin' },
];

interface Box {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** a visible label narrower than its text (cut, or an ellipsis) */
  cut: boolean;
}

/** The rendered navigation controls and the header's bell, name and Sign out, with their boxes. */
function controlBoxes(page: Page): Promise<{ nav: Box[]; header: Box[] }> {
  return page.evaluate(() => {
    const box = (el: Element, name: string) => {
      const r = el.getBoundingClientRect();
      const labels = [...el.querySelectorAll<HTMLElement>('.nav-link__label, .shell__signout-label')].filter((l) => l.getBoundingClientRect().width > 1);
      return { name, x: r.x, y: r.y, width: r.width, height: r.height, cut: labels.some((l) => l.scrollWidth > l.clientWidth + 1) };
    };
    const rendered = (el: Element) => el.checkVisibility() && el.getBoundingClientRect().width > 1;
    const nav = [...document.querySelectorAll('nav[aria-label="Main"] a, nav[aria-label="Main"] button')]
      .filter(rendered)
      .map((el) => box(el, (el.textContent ?? '').trim() || (el.getAttribute('aria-label') ?? '?')));
    const header = ['[data-testid="bell"]', '[data-testid="current-user"]', '[data-testid="sign-out"]'].map((sel) => {
      const el = document.querySelector(sel);
      return el ? box(el, sel) : { name: `${sel} missing`, x: -1, y: -1, width: 0, height: 0, cut: true };
    });
    return { nav, header };
  });
}

const inside = (b: Box, width: number) => b.x >= 0 && b.y >= 0 && b.x + b.width <= width + 0.5 && b.y + b.height <= HEIGHT + 0.5 && b.width > 0;
const overlap = (a: Box, b: Box) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;

describe('navigation at every width', () => {
  let server: TestServer;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));
  const { pageErrors } = pages;
  const open = (as: 'admin' | 'member') => pages.open(as, { viewport: { width: 1280, height: HEIGHT } });

  /** Loads a page and waits for the enabled set (until then the navigation is optimistic). */
  async function visit(page: Page, pathname: string): Promise<void> {
    await page.goto(`${server.url}${pathname}`);
    await shellSettled(page);
    // labels are measured in the web app's own font: on a busy machine it can arrive after the page
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
  }

  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  async function arrived(page: Page, path: string): Promise<void> {
    await page.waitForURL((u) => u.pathname === path);
    await shown(page.locator('main h1').first());
    // and settled: the shell's effects for the new address (the More group closing) run after the
    // page is painted, so a tap on More in the same frame would be undone by them
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  }

  /** Opens every destination from the navigation, as a person would at this width. */
  async function clickThrough(page: Page, destinations: readonly Destination[], width: number): Promise<void> {
    const more = nav(page).getByRole('button', { name: 'More' });
    for (const d of destinations) {
      if (d.via === 'admin') {
        await nav(page).getByRole('link', { name: 'Admin', exact: true }).click();
        await arrived(page, '/admin');
        await page.getByRole('list', { name: 'Admin pages' }).getByRole('link', { name: new RegExp(`^${d.label}`) }).click();
        await arrived(page, d.path);
        // the Admin entry shows where one is
        expect(await nav(page).getByRole('link', { name: 'Admin', exact: true }).getAttribute('aria-current')).toBe('page');
        continue;
      }
      const link = nav(page).getByRole('link', { name: d.label, exact: true });
      if (d.via === 'more' && (await more.isVisible())) {
        await more.click();
        await shown(link);
        if (d === destinations.find((x) => x.via === 'more')) await page.screenshot({ path: `/tmp/hearth-nav-more-${width}.png` });
        // the group scrolls within itself when it is taller than the screen: a person scrolls to the entry
        await link.scrollIntoViewIfNeeded();
        // asked until the sheet has settled (a busy machine can catch it mid-render, with no box yet)
        await expect
          .poll(async () => {
            const box = await link.boundingBox();
            return box !== null && inside({ name: d.label, ...box, cut: false }, width);
          }, { message: `${d.label} under More at ${width}px` })
          .toBe(true);
      }
      await link.click();
      await arrived(page, d.path);
      // the router has shown the page, not only changed the address: its entry is the current one
      // (until then the old page stays, and a More panel opened now would close when it goes)
      await page.locator(`nav[aria-label="Main"] a[href="${d.path}"][aria-current="page"]`).waitFor({ state: 'attached', timeout: 15_000 });
    }
  }

  async function checkLayout(page: Page, width: number, destinations: readonly Destination[]): Promise<void> {
    const { nav: navBoxes, header } = await controlBoxes(page);
    const where = `at ${width}px`;
    for (const b of [...navBoxes, ...header]) {
      expect(inside(b, width), `${b.name} inside the viewport ${where}: ${JSON.stringify(b)}`).toBe(true);
      expect(b.cut, `${b.name} label not cut ${where}`).toBe(false);
    }
    const all = [...navBoxes, ...header];
    for (let i = 0; i < all.length; i++) {
      for (let j = i + 1; j < all.length; j++) {
        expect(overlap(all[i]!, all[j]!), `${all[i]!.name} and ${all[j]!.name} overlap ${where}`).toBe(false);
      }
    }
    // the sidebar holds its entries without scrolling: the less-used pages are behind More, so its
    // length does not grow with the number of pages
    if (width >= 720) {
      expect(await nav(page).evaluate((el) => el.scrollHeight <= el.clientHeight + 1), `the sidebar does not scroll ${where}`).toBe(true);
    }
    // every main destination is its own control in the navigation
    for (const d of destinations.filter((x) => x.via === 'main')) {
      await shown(nav(page).getByRole('link', { name: d.label, exact: true }));
    }
  }

  beforeAll(async () => {
    requireBuiltWebApp();
    server = await startTestServer({ seed: 'household' });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
  });

  for (const role of ['member', 'admin'] as const) {
    it(`${role}: every destination opens and nothing is clipped at ${WIDTHS.join(', ')} px`, async () => {
      const page = await open(role);
      const destinations = role === 'admin' ? ADMIN_DESTINATIONS : MEMBER_DESTINATIONS;
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: HEIGHT });
        await visit(page, '/');
        await checkLayout(page, width, destinations);
        await clickThrough(page, destinations, width);
      }
      // a member's navigation has no admin entry and no admin page
      if (role === 'member') {
        for (const label of ['Admin', 'Members', 'Features', 'Archives']) {
          expect(await nav(page).getByRole('link', { name: label, exact: true }).count()).toBe(0);
        }
      }
      expect(pageErrors).toEqual([]);
    }, 120_000);
  }

  it('the sidebar collapses to icons, and the choice survives a reload', async () => {
    const page = await open('admin');
    await page.setViewportSize({ width: 1280, height: HEIGHT });
    await visit(page, '/');
    const reader = nav(page).getByRole('link', { name: 'Reader', exact: true });
    const wide = (await reader.boundingBox())!.width;
    await nav(page).getByRole('button', { name: 'Icons only' }).click();
    await expect.poll(async () => (await reader.boundingBox())!.width).toBeLessThan(wide / 2);
    await visit(page, '/');
    await shown(nav(page).getByRole('button', { name: 'Show labels' }));
    // still named for screen readers and tooltips, still inside the viewport
    expect((await reader.boundingBox())!.width).toBeLessThan(wide / 2);
    expect(await reader.getAttribute('title')).toBe('Reader');
    await checkLayout(page, 1280, ADMIN_DESTINATIONS);
    await nav(page).getByRole('button', { name: 'Show labels' }).click();
    await expect.poll(async () => (await reader.boundingBox())!.width).toBe(wide);
  });

  it('a member opening an admin page is told it is for the admins and whom to ask', async () => {
    const page = await open('member');
    await page.setViewportSize({ width: 390, height: HEIGHT });
    await visit(page, '/members');
    const notice = page.getByTestId('admin-only');
    await shown(notice.getByRole('heading', { name: 'This page is for the household’s admins' }));
    await shown(notice.getByText(`ask ${ADMIN.name}, the household’s admin`));
    expect(new URL(page.url()).pathname).toBe('/members');
    expect(await page.getByTestId('member-list').count()).toBe(0);
    await notice.getByRole('link', { name: 'Go home' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(pageErrors).toEqual([]);
  });
});
