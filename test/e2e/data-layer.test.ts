// The web app's data layer: a change made in one open view shows in every other open view of the
// same person without a reload. A write invalidates the query keys it changes (api/query.ts), here
// and in the other tabs of the browser (BroadcastChannel), so a second tab left open on Members or
// on Home follows an admin's change in the first one, without being focused or reloaded.
// Needs the built web app (`npm run build:web`).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gone, launchChromium, requireBuiltWebApp, shown, signedInContext, openTab, toastSays } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('a write shows in the other open views', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  const pageErrors: string[] = [];

  const tab = (pathname: string) => openTab(context, server.url, pathname, pageErrors);
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  beforeAll(async () => {
    requireBuiltWebApp();
    server = await startTestServer({ seed: 'household' });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    browser = await launchChromium();
    context = await signedInContext(browser, server.url, server.admin.cookie!);
  });

  afterAll(async () => {
    await context?.close().catch(() => {});
    await browser?.close();
    await server?.close();
    expect(pageErrors).toEqual([]);
  });

  it('a member added in one tab appears in the Members list open in another', async () => {
    const first = await tab('/members');
    const second = await tab('/members');
    await shown(second.getByTestId('member-list'));
    expect(await second.getByTestId('member-list').getByText('Robin').count()).toBe(0);

    await first.getByRole('button', { name: 'Add member' }).click();
    const dialog = first.getByTestId('member-dialog');
    await dialog.getByLabel('Name').fill('Robin');
    await dialog.getByLabel('PIN', { exact: true }).fill('2468');
    await dialog.getByLabel('Confirm PIN').fill('2468');
    await dialog.getByRole('button', { name: 'Add member' }).click();
    await gone(dialog);
    await shown(first.getByTestId('member-list').getByText('Robin'));

    // the second tab was neither reloaded nor focused
    await shown(second.getByTestId('member-list').getByText('Robin'));
    await Promise.all([first.close(), second.close()]);
  });

  it('an app removed and got again in the App Store leaves and returns to the navigation open in another tab', async () => {
    const store = await tab('/apps');
    const home = await tab('/');
    await shown(nav(home).getByRole('link', { name: 'Library', exact: true }));

    const library = store.getByTestId('store-item-library');
    await library.getByRole('button', { name: 'Remove Library' }).click();
    const confirm = store.getByRole('alertdialog', { name: 'Remove Library?' });
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await gone(confirm);
    await toastSays(store, 'Library was removed. Turn it back on any time; nothing in it was deleted.');
    await gone(nav(home).getByRole('link', { name: 'Library', exact: true }));

    await library.getByRole('button', { name: 'Get Library' }).click();
    await store.getByRole('dialog', { name: 'Get Library' }).getByRole('button', { name: 'Install for everyone' }).click();
    await shown(library.getByRole('link', { name: 'Open Library' }));
    await toastSays(store, 'Library is on.');
    await shown(nav(home).getByRole('link', { name: 'Library', exact: true }));
    await Promise.all([store.close(), home.close()]);
  });
});
