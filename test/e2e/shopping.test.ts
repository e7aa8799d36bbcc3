// Issue 38 in the browser: two phones (390 px, two members, two browser contexts) on one shopping
// list. One ticks an item and the other sees it move to the basket at once; an item added on one
// shows on the other; a tick made while a phone is offline waits ("1 change waiting to send") and
// is sent when it is back. The Tools page's Lookup card reads a phone number at 1280 px. axe finds
// nothing serious. Needs the built web app (`npm run build:web`).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('shopping in the browser', () => {
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

  it('two phones on one list: a tick on one shows on the other, and an offline tick is sent when back', async () => {
    const list = (await server.member.post('/api/shopping/lists', { name: 'Groceries' })).body.list as { id: string };
    for (const name of ['Bread', 'Milk']) expect((await server.member.post(`/api/shopping/lists/${list.id}/items`, { name })).status).toBe(201);

    const sam = await pages.open('member', PHONE);
    const alex = await pages.open('admin', PHONE);
    for (const p of [sam, alex]) {
      await p.goto(`${server.url}/shopping`);
      await shown(p.getByRole('heading', { name: 'Bakery' }));
      await shown(p.getByRole('heading', { name: 'Dairy and eggs' }));
    }
    await expectNoSeriousA11yViolations(sam, '/shopping (phone)');
    expect(await sam.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // the whole row is the tick target, at least 48 px high
    const row = await sam.getByRole('listitem').filter({ hasText: 'Bread' }).boundingBox();
    expect(row!.height).toBeGreaterThanOrEqual(48);

    await sam.getByRole('checkbox', { name: /Bread/ }).check();
    const alexBasket = alex.getByRole('region', { name: /In the basket/ });
    await shown(alexBasket.getByRole('checkbox', { name: /Bread/ }));
    expect(await alexBasket.getByRole('checkbox', { name: /Bread/ }).isChecked()).toBe(true);
    await gone(alex.getByRole('heading', { name: 'Bakery' }));

    await alex.getByLabel('Add to the list').fill('Eggs');
    await alex.getByRole('button', { name: 'Add', exact: true }).click();
    await shown(sam.getByRole('checkbox', { name: /Eggs.*added by Alex/ }));

    // Sam loses the connection at the back of the shop and ticks the milk
    await sam.context().setOffline(true);
    await sam.getByRole('checkbox', { name: /Milk/ }).check();
    await shown(sam.getByText('1 change waiting to send'));
    expect((await server.admin.get(`/api/shopping/lists/${list.id}`)).body.items.find((i: { name: string }) => i.name === 'Milk').checked).toBe(false);
    await sam.context().setOffline(false);
    await gone(sam.getByText(/waiting to send/));
    await shown(alexBasket.getByRole('checkbox', { name: /Milk/ }));
    expect((await server.admin.get(`/api/shopping/lists/${list.id}`)).body.items.find((i: { name: string }) => i.name === 'Milk').checked).toBe(true);

    await alexBasket.getByRole('button', { name: 'Clear ticked' }).click();
    await gone(sam.getByRole('checkbox', { name: /Milk/ }));
    expect(pages.pageErrors).toEqual([]);
  });

  it('the Tools page looks up a phone number', async () => {
    const page = await pages.open('member', DESKTOP);
    await page.goto(`${server.url}/tools`);
    await page.getByLabel('Number', { exact: true }).fill('+41 44 668 18 00');
    await page.getByRole('button', { name: 'Look up number' }).click();
    const facts = page.getByTestId('phone-result');
    await shown(facts.getByText('Zurich', { exact: true }));
    await shown(facts.getByText('Landline'));
    await shown(facts.getByText('Switzerland'));
    await expectNoSeriousA11yViolations(page, '/tools (desktop)');
    expect(pages.pageErrors).toEqual([]);
  });
});
