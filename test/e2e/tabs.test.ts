// Two tabs of one browser share the session cookie: signing out in one returns every other tab to
// the profile picker at once (saying why), and signing in as someone else in one switches the others
// to that person (they would otherwise show one member while acting with another's cookie).
// Needs the built web app (`npm run build:web`).
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchChromium, requireBuiltWebApp, shown, signedInContext, openTab } from '../harness/browser.js';
import { ADMIN, MEMBER, startTestServer, type TestServer } from '../harness/start-server.js';

describe('several tabs, one session', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  const pageErrors: string[] = [];

  const tab = (pathname: string) => openTab(context, server.url, pathname, pageErrors);

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

  it('a sign-out in one tab takes the other to the profile picker, and a sign-in there follows', async () => {
    const first = await tab('/');
    const second = await tab('/members');
    await shown(first.getByTestId('home-name'));
    await shown(second.getByRole('heading', { name: 'Household members' }));

    await first.getByRole('button', { name: 'Sign out' }).click();
    await shown(first.getByRole('heading', { name: 'Who’s using Hearth?' }));
    // the other tab did not reload and made no request: it heard the first one
    await shown(second.getByRole('heading', { name: 'Who’s using Hearth?' }));
    await shown(second.getByRole('status').getByText('You signed out in another tab or window.'));
    expect(await second.getByRole('heading', { name: 'Household members' }).count()).toBe(0);

    // the member signs in on the first tab; the second switches to the member too
    await first.getByRole('button', { name: MEMBER.name }).click();
    await shown(first.getByRole('heading', { name: `Hi, ${MEMBER.name}` }));
    await first.keyboard.type(MEMBER.pin);
    await first.keyboard.press('Enter');
    await shown(first.getByTestId('home-name'));
    // the second tab shows the member now (on the page it was on, which is for admins: it says so)
    await shown(second.getByTestId('current-user').getByText(MEMBER.name));
    await shown(second.getByRole('heading', { name: /for the household.s admins/i }));
  });

  it('what a member was typing survives the session ending: after signing in again the form has it', async () => {
    const ctx = await signedInContext(browser, server.url, server.member.cookie!, DESKTOP);
    try {
      const page = await ctx.newPage();
      page.on('pageerror', (err) => pageErrors.push(err.message));
      await page.goto(`${server.url}/reader`);
      await page.getByRole('button', { name: 'Add link' }).click();
      const dialog = page.getByTestId('add-link-dialog');
      await dialog.getByLabel('Address').fill('https://example.org/recipes/plum-jam');
      await dialog.getByLabel(/^Title/).fill('Grandma’s plum jam');

      // the session ends on the server; the next request (the address check) finds out
      expect((await server.member.post('/api/auth/logout', {})).status).toBeLessThan(300);
      await dialog.getByLabel('Address').fill('https://example.org/recipes/plum-jam-2');
      await shown(page.getByRole('heading', { name: 'Who’s using Hearth?' }));

      await page.getByRole('button', { name: MEMBER.name }).click();
      await shown(page.getByRole('heading', { name: `Hi, ${MEMBER.name}` }));
      await page.keyboard.type(MEMBER.pin);
      await page.keyboard.press('Enter');
      // back on the page the session ended on
      await shown(page.getByRole('button', { name: 'Add link' }));
      await page.getByRole('button', { name: 'Add link' }).click();
      const again = page.getByTestId('add-link-dialog');
      await shown(again);
      expect(await again.getByLabel('Address').inputValue()).toBe('https://example.org/recipes/plum-jam-2');
      expect(await again.getByLabel(/^Title/).inputValue()).toBe('Grandma’s plum jam');
      // Cancel is a choice: the draft goes
      await again.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Add link' }).click();
      expect(await page.getByTestId('add-link-dialog').getByLabel('Address').inputValue()).toBe('');
    } finally {
      await ctx.close();
    }
  });

  it('a member form’s name and role survive a sign-out and sign-in in the same tab, never its PIN, and another admin never sees them', async () => {
    const ctx = await browser.newContext(DESKTOP);
    try {
      // Alex gets a session of their own (the first test signed the seeded one out); a second admin
      // shares the tab later
      const alex = await server.signIn(server.users.admin.id, ADMIN.pin);
      expect((await alex.post('/api/admin/users', { name: 'Kim', pin: '2468', role: 'admin' })).status).toBe(201);
      await ctx.addCookies([{ name: 'session', value: alex.cookie!.slice('session='.length), url: server.url }]);
      const page = await ctx.newPage();
      page.on('pageerror', (err) => pageErrors.push(err.message));
      await page.goto(`${server.url}/members`);
      await page.getByRole('button', { name: 'Add member' }).click();
      const dialog = page.getByTestId('member-dialog');
      await dialog.getByLabel('Name').fill('Juniper');
      await dialog.getByLabel('PIN', { exact: true }).fill('1357');
      await dialog.getByLabel('Confirm PIN').fill('1357');
      await dialog.getByRole('radio', { name: /Admin/ }).check();

      // signed out from another tab of the same browser: this one goes to the profile picker
      const other = await ctx.newPage();
      await other.goto(`${server.url}/`);
      await other.getByRole('button', { name: 'Sign out' }).click();
      await shown(page.getByRole('heading', { name: 'Who’s using Hearth?' }));
      await other.close();

      const signInAs = async (name: string, pin: string) => {
        await page.getByRole('list', { name: 'Profiles' }).getByRole('button', { name }).click();
        await shown(page.getByRole('heading', { name: `Hi, ${name}` }));
        await page.keyboard.type(pin);
        await page.keyboard.press('Enter');
        await shown(page.getByRole('button', { name: 'Add member' }));
      };

      // another admin on the same tab finds an empty form
      await signInAs('Kim', '2468');
      await page.getByRole('button', { name: 'Add member' }).click();
      const kims = page.getByTestId('member-dialog');
      expect(await kims.getByLabel('Name').inputValue()).toBe('');
      expect(await kims.getByRole('radio', { name: /Member/ }).isChecked()).toBe(true);
      await kims.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await shown(page.getByRole('heading', { name: 'Who’s using Hearth?' }));

      // Alex again: the name and role are back, the PIN is not
      await signInAs(ADMIN.name, ADMIN.pin);
      await page.getByRole('button', { name: 'Add member' }).click();
      const again = page.getByTestId('member-dialog');
      expect(await again.getByLabel('Name').inputValue()).toBe('Juniper');
      expect(await again.getByRole('radio', { name: /Admin/ }).isChecked()).toBe(true);
      expect(await again.getByLabel('PIN', { exact: true }).inputValue()).toBe('');
      expect(await page.evaluate(() => JSON.stringify(Object.values(sessionStorage)))).not.toContain('1357');
      // Cancel is a choice: the draft goes
      await again.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Add member' }).click();
      expect(await page.getByTestId('member-dialog').getByLabel('Name').inputValue()).toBe('');
    } finally {
      await ctx.close();
    }
  });
});
