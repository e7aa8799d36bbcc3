// Issue 39's admin Storage page in the browser: an admin on a phone (390 px) opens it from the Admin
// page, sees each area's size, asks what can go (a failed download's leftover is listed), confirms,
// and sees the bytes freed; the file is gone and the kept one is not. At 1280 px the page shows the
// areas and the trend's table. axe finds nothing serious. Needs the built web app (`npm run build:web`).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('admin storage in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));

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

  it('an admin on a phone finds what can go, confirms, and sees the space freed', async () => {
    mkdirSync(path.join(server.dataDir, 'maps'), { recursive: true });
    const leftover = path.join(server.dataDir, 'maps', 'alps.map.part');
    const kept = path.join(server.dataDir, 'maps', 'alps-done.map');
    writeFileSync(leftover, Buffer.alloc(250_000, 1));
    writeFileSync(kept, Buffer.alloc(120_000, 1));

    const page = await pages.open('admin', PHONE);
    await page.goto(`${server.url}/admin`);
    await page.getByRole('link', { name: /Storage/ }).first().click();
    await shown(page.getByRole('heading', { name: 'Storage', level: 1 }));
    await shown(page.getByTestId('storage-area-maps').getByText('370 KB'));
    await expectNoSeriousA11yViolations(page, '/admin/storage (phone)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await page.getByRole('button', { name: 'Find what can go' }).click();
    const list = page.getByRole('list', { name: 'What the clean-up removes' });
    await shown(list.getByText('maps/alps.map.part'));
    expect(await list.getByRole('listitem').count()).toBe(1);
    await page.getByRole('button', { name: 'Remove these' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await shown(page.getByText(/Freed 250 KB \(1 item removed\)/));
    await gone(page.getByRole('alertdialog'));
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(kept)).toBe(true);
    await shown(page.getByTestId('storage-area-maps').getByText('120 KB'));
    await expectNoSeriousA11yViolations(page, '/admin/storage after a clean-up (phone)');

    await server.handle.deps.storage.snapshot(); // today's figure for the trend
    const desk = await pages.open('admin', DESKTOP);
    await desk.goto(`${server.url}/admin/storage`);
    await shown(desk.getByRole('heading', { name: 'What takes the room' }));
    await shown(desk.getByRole('heading', { name: 'The last 30 days' }));
    await desk.getByText('Each day’s figure').click();
    await shown(desk.getByRole('table').getByRole('cell', { name: /KB|MB/ }));
    await expectNoSeriousA11yViolations(desk, '/admin/storage (desktop)');
    expect(pages.pageErrors).toEqual([]);
  });
});
