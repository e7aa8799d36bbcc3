// Inter taking over from its stand-in (ui/font.ts): before the page changes face, every size and
// weight its words use has been drawn out of sight with the page's letters, so the change itself
// finds every glyph measured (on a phone it was one long task of the whole page's words). Nothing
// of it stays behind or is read out. Needs the built web app (`npm run build:web`).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newItemRecord, ReaderStore } from '../../server/modules/reader/store.js';
import { launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

interface Seen {
  /** each sample drawn out of sight, in order: its style, weight and size, its family, its letters */
  samples: Array<{ style: string; family: string; text: string; hidden: boolean }>;
  /** when <html> got .font-inter: the sizes and weights of the page's words then, and whether the samples were gone */
  swap: { styles: string[]; samplesLeft: number } | null;
}

describe('Inter taking over from its stand-in', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    requireBuiltWebApp();
    server = await startTestServer({ seed: 'household' });
    const now = new Date().toISOString();
    const items = ['Planting garlic in autumn', 'How to fix a dripping tap', 'School holidays for next year'].map((title, i) => ({
      item: newItemRecord({ ownerId: server.users.member.id, type: 'live', url: `https://home.example/${i}`, title, siteName: 'home.example', excerpt: `${title}, saved for later.`, thumbnailState: 'none' }, now),
      tags: ['garden'],
    }));
    await new ReaderStore(server.handle.deps.db).insertMany(items, now);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('draws each size and weight of the page out of sight first, then changes the whole page at once', async () => {
    const ctx = await signedInContext(browser, server.url, server.member.cookie!, PHONE);
    const page = await ctx.newPage();
    await page.addInitScript(() => {
      const seen: Seen = { samples: [], swap: null };
      (window as unknown as { seen: Seen }).seen = seen;
      const stylesOfWords = () => {
        const styles = new Set<string>();
        const walker = document.createTreeWalker(document.getElementById('root')!, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (!n.textContent?.trim() || !n.parentElement) continue;
          const s = getComputedStyle(n.parentElement);
          if (s.display !== 'none') styles.add(`${s.fontStyle} ${s.fontWeight} ${s.fontSize}`);
        }
        return [...styles];
      };
      new MutationObserver((records) => {
        for (const r of records) {
          if (r.type === 'childList') {
            for (const n of r.addedNodes) {
              if (n instanceof HTMLElement && n.parentElement?.classList.contains('font-warm')) {
                const s = getComputedStyle(n);
                const hidden = n.parentElement.getAttribute('aria-hidden') === 'true' && s.visibility === 'hidden';
                seen.samples.push({ style: `${s.fontStyle} ${s.fontWeight} ${s.fontSize}`, family: s.fontFamily, text: n.textContent ?? '', hidden });
              }
            }
          } else if (r.target === document.documentElement && document.documentElement.classList.contains('font-inter') && !seen.swap) {
            seen.swap = { styles: stylesOfWords(), samplesLeft: document.querySelectorAll('.font-warm').length };
          }
        }
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
    });
    try {
      await page.goto(`${server.url}/reader`);
      await shown(page.getByRole('link', { name: 'Planting garlic in autumn' }));
      await page.locator('html.font-inter').waitFor({ state: 'attached', timeout: 15_000 });
      const seen = await page.evaluate(() => (window as unknown as { seen: Seen }).seen);

      expect(seen.swap).not.toBeNull();
      // every size and weight on the page when it changed face had been drawn out of sight in Inter
      expect(seen.swap!.styles.length).toBeGreaterThan(2);
      expect(seen.samples.map((s) => s.style)).toEqual(expect.arrayContaining(seen.swap!.styles));
      // with the page's own letters, out of sight and out of the reading order
      for (const s of seen.samples) {
        expect(s.family).toMatch(/^"Inter Variable"/);
        expect(s.text).toContain('g');
        expect(s.hidden).toBe(true);
      }
      // and gone before the change
      expect(seen.swap!.samplesLeft).toBe(0);
      expect(await page.locator('.font-warm').count()).toBe(0);
      expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"Inter Variable"/);
      expect(await page.getByRole('heading', { name: 'Reader' }).evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/^"Inter Variable"/);
    } finally {
      await ctx.close();
    }
  });
});
