// Home's widgets for the areas beside Reader and Library, in a real browser on a phone (390 px) and
// a laptop (1280 px): Chat (recent conversations, start one), Media (continue watching, or why not),
// Inventory (warranties due), Pictures (the newest, or how to make one) and, for admins only,
// Downloads. Each shows its content or says why it has none. Needs the built web app.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { seriousA11yViolations } from '../harness/a11y.js';
import { ask } from '../harness/chat.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const WIDGETS = ['chat', 'media', 'inventory', 'images', 'downloads'];
const layout = { header: { weather: false, jokes: false, sports: false, locked: false }, canvas: WIDGETS.map((id) => ({ id: `row-${id}`, cols: [{ toolId: id, colSpan: 2 }] })) };
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

describe('Home widgets of every area', () => {
  let server: TestServer;
  let runtime: FakeModelRuntime;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    runtime = await startFakeModelRuntime();
    server = await startTestServer({ seed: 'household', config: { modelRuntimeUrl: runtime.url } });
    await server.handle.deps.features.setChosenModel('chat', 'llama3.2:3b');
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBe(200);
    expect((await server.admin.put('/api/tools/inventory/enabled', { enabled: true })).status).toBe(200);
    for (const who of [server.admin, server.member]) expect((await who.put('/api/home-layout', layout)).status).toBe(200);
    // something in each area that has data without an outside program
    expect((await ask(server.member, { message: 'What is a good name for a cat?' })).status).toBe(200);
    expect((await server.member.post('/api/home/devices', { name: 'Dishwasher', category: 'appliance', warrantyExpires: inDays(20) })).status).toBe(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await runtime?.close();
    expect(pages.pageErrors).toEqual([]);
  });

  for (const [label, device] of [['phone', PHONE], ['laptop', DESKTOP]] as const) {
    it(`a member's Home on a ${label}: each area's widget shows its content or says why not; Downloads is an admin's`, async () => {
      const page = await pages.open('member', device);
      await page.goto(server.url);
      const chat = page.getByTestId('widget-chat');
      await shown(chat.getByRole('link', { name: 'What is a good name for a cat?' }).or(chat.locator('.widget__items a')).first());
      expect(await chat.getByRole('link', { name: 'Start a chat' }).getAttribute('href')).toBe('/chat');

      const media = page.getByTestId('widget-media');
      await shown(media.getByTestId('widget-unavailable'));
      expect(await media.textContent()).toContain('No media server is connected yet');

      const inventory = page.getByTestId('widget-inventory');
      await shown(inventory.getByRole('link', { name: 'Dishwasher' }));
      expect(await inventory.textContent()).toMatch(/(19|20) days left/);

      const pictures = page.getByTestId('widget-images');
      await shown(pictures.getByText('No pictures yet.'));

      expect(await page.getByTestId('widget-downloads').count()).toBe(0);
      // nothing wider than the screen
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/hearth-${label}-home-widgets.png`, fullPage: true });
    });
  }

  it('an admin’s Home has the Downloads widget, saying what the queue does', async () => {
    const page = await pages.open('admin', PHONE);
    await page.goto(server.url);
    const downloads = page.getByTestId('widget-downloads');
    await shown(downloads.getByText('Nothing is downloading.'));
    expect(await downloads.getByRole('link', { name: 'Open Downloads' }).getAttribute('href')).toBe('/downloads');
  });
});
