// Controls that looked unstyled on a fresh load, in a real browser at 390 and 1280 px against the
// real server: the Pictures page's "A picture | A short clip" and "Auto Tall Wide Square" groups
// are the shared SegmentedControl (styled by its own CSS, not by whichever Reader or Inventory page
// loaded first), Chat's "Add a picture" shows no file-input text beside it, and the App Store's
// tool icons are the bundled line icons (SVG), never emoji that draw as empty boxes where no emoji
// font exists; a settled page animates nothing endlessly but its spinners. Axe finds no serious or critical violation. Needs `npm run build:web`.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MODEL, startFakeModelRuntime, VISION_MODEL, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const DEVICES = [['phone', PHONE], ['laptop', DESKTOP]] as const;

describe('shared controls look like the app on a fresh load', () => {
  let runtime: FakeModelRuntime;
  let server: TestServer;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    runtime = await startFakeModelRuntime();
    server = await startTestServer({ seed: 'household', config: { modelRuntimeUrl: runtime.url } });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    await server.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await runtime?.close();
    expect(pages.pageErrors).toEqual([]);
  });

  for (const [name, device] of DEVICES) {
    it(`the Pictures page's segmented groups are styled on a fresh load (${name})`, async () => {
      const page = await pages.open('member', device);
      await page.goto(`${server.url}/images`);
      for (const group of ['Make', 'Shape']) {
        const g = page.locator(`div.segmented[role="group"][aria-label="${group}"]`);
        await shown(g);
        const look = await g.evaluate((el) => {
          const box = getComputedStyle(el);
          const btn = getComputedStyle(el.querySelector('button')!);
          return { groupBorder: box.borderTopStyle, groupRadius: box.borderTopLeftRadius, btnBorder: btn.borderTopWidth, btnRadius: btn.borderTopLeftRadius, btnWeight: btn.fontWeight, btnHeight: parseFloat(btn.minHeight) };
        });
        // a browser's own button has a 2px outset border, no radius and normal weight; the app's has none, rounded, semibold
        expect(look, group).toEqual({ groupBorder: 'solid', groupRadius: expect.not.stringMatching(/^0px$/), btnBorder: '0px', btnRadius: '11px', btnWeight: '600', btnHeight: 40 });
      }
      const picture = page.locator('div.segmented[aria-label="Make"]').getByRole('button', { name: 'A picture' });
      expect(await picture.getAttribute('aria-pressed')).toBe('true');
      const square = page.locator('div.segmented[aria-label="Shape"]').getByRole('button', { name: 'Square' });
      await square.click();
      expect(await square.getAttribute('aria-pressed')).toBe('true');
      await expectNoSeriousA11yViolations(page, `/images (${name})`);
    });

    it(`Chat's "Add a picture" shows no file-input text (${name})`, async () => {
      const page = await pages.open('member', device);
      const view = (model: string, capabilities: string[]) => ({ name: model, sizeBytes: 1, family: 'llama', parameterSize: '3B', capabilities, fit: null, fitNote: null, roles: [] });
      await page.route('**/api/models', (route) =>
        route.fulfill({
          json: { runtime: { available: true, unavailableReason: null, fix: null }, models: [view(VISION_MODEL.name, ['chat', 'vision'])], chosen: { chat: VISION_MODEL.name, embeddings: null, router: null, vision: null } },
        }),
      );
      await page.goto(`${server.url}/chat`);
      const add = page.locator('label', { hasText: 'Add a picture' });
      await shown(add);
      const form = page.locator('form').filter({ has: add });
      const text = (await form.innerText()).replace(/\s+/g, ' ');
      expect(text).not.toMatch(/No file chosen|Choose File|No file selected/i);
      const input = page.getByTestId('chat-picture-file');
      const box = await input.boundingBox();
      expect(box === null || (box.width <= 1 && box.height <= 1)).toBe(true);
      await expectNoSeriousA11yViolations(page, `/chat (${name})`);
    });

    it(`the App Store's tool icons are the bundled SVG icons, not emoji (${name})`, async () => {
      const page = await pages.open('admin', device);
      await page.goto(`${server.url}/apps`);
      const icons = page.locator('.store-item__icon');
      await shown(icons.first());
      const all = await icons.evaluateAll((els) => els.map((el) => ({ item: el.closest('li')?.getAttribute('data-testid') ?? '?', svg: el.querySelector('svg') !== null, text: (el.textContent ?? '').trim() })));
      expect(all.length).toBeGreaterThan(3);
      for (const i of all) expect(i, i.item).toEqual({ item: i.item, svg: true, text: '' });
      await expectNoSeriousA11yViolations(page, `/apps (${name})`);
    });
  }

  // Icons share their base rule with the spinner; once the turning moved into that shared rule every
  // icon on every page turned forever, and each open page kept Chromium drawing every frame (an idle
  // Chat page took about half of both cores). A settled page runs no endless animation but a spinner's.
  it('a settled page turns nothing but its spinners', async () => {
    const page = await pages.open('member', PHONE);
    for (const path of ['/', '/chat', '/apps']) {
      await page.goto(`${server.url}${path}`);
      await shown(page.locator('main h1').first());
      await shown(page.locator('main svg.icon').first());
      const endless = await page.evaluate(() =>
        document
          .getAnimations()
          .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations === Infinity)
          .map((a) => (a.effect as KeyframeEffect).target as Element | null)
          .filter((el) => !el?.classList.contains('spinner'))
          .map((el) => `${el?.tagName.toLowerCase()}.${el?.getAttribute('class') ?? ''}`),
      );
      expect(endless, path).toEqual([]);
    }
  });
});
