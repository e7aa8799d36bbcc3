// Issue 32 in the browser: an adult turns on adult content with their PIN from their profile on a
// 390 px phone (a wrong PIN is said with the tries left; the state is on until a time shown, then
// turned off again), and a member below adult is told why it is not offered, at 1280 px. axe finds
// nothing serious. Needs the built web app (`npm run build:web`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { ADMIN, startTestServer, type TestServer } from '../harness/start-server.js';
import type { Browser } from 'playwright-core';

describe('content and safety', () => {
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

  it('on a phone an adult turns adult content on with their PIN, and off again', async () => {
    const page = await pages.open('admin', PHONE);
    await page.goto(`${server.url}/profile`);
    const card = page.getByRole('region', { name: 'Adult content' });
    await shown(card.getByRole('button', { name: 'Turn on adult content' }));
    await card.getByRole('button', { name: 'Turn on adult content' }).click();
    const pin = card.getByLabel('Your PIN');
    await pin.fill('0000');
    await card.getByRole('button', { name: 'Turn on', exact: true }).click();
    await shown(card.getByText(/tries left on this device/));
    expect((await server.admin.get('/api/privacy')).body.adultState).toBe(false);
    await pin.fill(ADMIN.pin);
    await card.getByRole('button', { name: 'Turn on', exact: true }).click();
    await shown(card.getByText(/Adult content is on in this browser until/));
    expect((await server.admin.get('/api/privacy')).body.adultState).toBe(true);
    await expectNoSeriousA11yViolations(page, '/profile (adult content on, phone)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await card.getByRole('button', { name: 'Turn off adult content' }).click();
    await shown(card.getByRole('button', { name: 'Turn on adult content' }));
    expect((await server.admin.get('/api/privacy')).body.adultState).toBe(false);
    expect(pages.pageErrors).toEqual([]);
  });

  it('on a laptop a member below adult is told why adult content is not offered', async () => {
    const page = await pages.open('member', DESKTOP);
    await page.goto(`${server.url}/profile`);
    const card = page.getByRole('region', { name: 'Adult content' });
    await shown(card.getByText('Adult content is only for members at the adult content level. An admin sets levels in Members.'));
    expect(await card.getByRole('button').count()).toBe(0);
    await expectNoSeriousA11yViolations(page, '/profile (member, laptop)');
  });
});
