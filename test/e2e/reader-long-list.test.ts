// A long Reader list is drawn in steps (ui/useDrawnInSteps): the first screen commits the first 20
// cards, the rest follow while the browser is idle; a card far below the screen is laid out only
// when it comes near (content-visibility). Every card still shows, can be reached with the
// keyboard, and is found by the search. Needs the built web app (`npm run build:web`).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newItemRecord } from '../../server/modules/reader/item-rows.js';
import { ReaderStore } from '../../server/modules/reader/store.js';
import { launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const COUNT = 45;
const title = (n: number) => `Saved page number ${n}`;

describe('a long Reader list', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    requireBuiltWebApp();
    server = await startTestServer({ seed: 'household' });
    const now = Date.now();
    // number 1 is the newest, so the list reads 1 to 45 from the top
    const items = Array.from({ length: COUNT }, (_, i) => ({
      item: newItemRecord(
        { ownerId: server.users.member.id, type: 'live', url: `https://home.example/page-${i + 1}`, title: title(i + 1), siteName: 'home.example', excerpt: `Page ${i + 1}, saved for later.`, thumbnailState: 'none' },
        new Date(now - i * 60_000).toISOString(),
      ),
      tags: [],
    }));
    await new ReaderStore(server.handle.deps.db).insertMany(items, new Date(now).toISOString());
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('draws the first 20 cards with the first screen, then every card, laid out near the screen, each reachable by keyboard and search', async () => {
    const ctx = await signedInContext(browser, server.url, server.member.cookie!, PHONE);
    const page = await ctx.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    // how many cards the list held when it was first put on the page
    await page.addInitScript(() => {
      const w = window as unknown as { firstCards: number | null };
      w.firstCards = null;
      new MutationObserver((_records, observer) => {
        const list = document.querySelector('[data-testid="reader-list"]');
        if (!list) return;
        w.firstCards = list.querySelectorAll('[data-testid="reader-item"]').length;
        observer.disconnect();
      }).observe(document, { subtree: true, childList: true });
    });
    try {
      await page.goto(`${server.url}/reader`);
      await shown(page.getByRole('link', { name: title(1), exact: true }));
      // the last card arrives, after the first 20, and then every card is there, in order
      await shown(page.getByRole('link', { name: title(COUNT), exact: true }));
      expect(await page.evaluate(() => (window as unknown as { firstCards: number | null }).firstCards)).toBe(20);
      const titles = await page.getByTestId('reader-item').locator('.reader-item__link').allTextContents();
      expect(titles).toEqual(Array.from({ length: COUNT }, (_, i) => title(i + 1)));

      // a card far below the screen is not laid out or painted yet (content-visibility), until it is scrolled to
      const last = page.getByRole('link', { name: title(COUNT), exact: true });
      const drawnNow = () => last.evaluate((el) => el.checkVisibility({ contentVisibilityAuto: true }));
      expect(await drawnNow()).toBe(false);
      await last.scrollIntoViewIfNeeded();
      await page.waitForFunction(() => [...document.querySelectorAll('.reader-item__link')].at(-1)?.checkVisibility({ contentVisibilityAuto: true }) === true);
      await page.evaluate(() => window.scrollTo(0, 0));

      // the keyboard reaches the last card's link (tabbing on from the first card's)
      await page.getByRole('link', { name: title(1), exact: true }).focus();
      let reached = false;
      for (let i = 0; i < COUNT * 4 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await page.evaluate((name) => document.activeElement?.textContent === name, title(COUNT));
      }
      expect(reached).toBe(true);
      await page.keyboard.press('Enter');
      await shown(page.getByRole('heading', { name: title(COUNT) }));

      // and the search finds one from the end of the list
      await page.goBack();
      await page.getByRole('searchbox', { name: 'Search your Reader' }).fill(title(44));
      await page.getByRole('link', { name: title(1), exact: true }).waitFor({ state: 'detached' });
      await shown(page.getByRole('link', { name: title(44), exact: true }));
      expect(await page.getByTestId('reader-item').locator('.reader-item__link').allTextContents()).toEqual([title(44)]);
      expect(pageErrors).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
