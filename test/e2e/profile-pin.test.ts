// A member changes their own PIN on a 390 px phone (issue 29 item 25): the header's profile menu
// opens their profile and Help (the served docs, in a new tab); the profile's "Change your PIN"
// says a wrong current PIN with the tries left, warns before saving that a weak new PIN is easy
// to guess (and still takes it), and a new PIN then signs in while the old one does not. On a
// laptop the admin's member edit warns about a weak PIN the same way. axe finds nothing serious.
// Needs the built web app (`npm run build:web`).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { MEMBER, startTestServer, type TestServer } from '../harness/start-server.js';

const WEAK_SENTENCE = 'This PIN is easy to guess';

describe('changing one’s own PIN', () => {
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

  async function openProfileFromMenu(page: Page): Promise<void> {
    await page.goto(`${server.url}/`);
    await page.getByTestId('current-user').click();
    await page.getByRole('menuitem', { name: 'Your profile and PIN' }).click();
    await shown(page.getByRole('heading', { name: 'Your profile', level: 1 }));
  }

  it('on a phone the profile menu offers Help, which opens the served docs in a new tab', async () => {
    const page = await pages.open('member', PHONE);
    await page.goto(`${server.url}/`);
    await page.getByTestId('current-user').click();
    const help = page.getByRole('menuitem', { name: 'Help' });
    await shown(help);
    await expectNoSeriousA11yViolations(page, 'profile menu (phone)');
    const [docs] = await Promise.all([page.context().waitForEvent('page'), help.click()]);
    await docs.waitForLoadState();
    expect(new URL(docs.url()).pathname).toBe('/docs/');
    await shown(docs.getByRole('link', { name: 'Profiles and PINs' }));
    await docs.close();
  });

  it('on a phone a member changes their PIN: a wrong current PIN is said, a weak one is warned about before saving', async () => {
    const page = await pages.open('member', PHONE);
    await openProfileFromMenu(page);
    const form = page.getByRole('region', { name: 'Change your PIN' });
    const current = form.getByLabel('Current PIN');
    const next = form.getByLabel('New PIN', { exact: true });
    const confirm = form.getByLabel('Confirm new PIN');

    // a wrong current PIN: the server's sentence, at the field
    await current.fill('0000');
    await next.fill('8031');
    await confirm.fill('8031');
    await form.getByRole('button', { name: 'Change PIN' }).click();
    await shown(form.getByText('That is not your current PIN. 4 tries left on this device', { exact: false }));

    // a weak new PIN is said before anything is saved
    await current.fill(MEMBER.pin);
    await next.fill('1111');
    await shown(form.getByText(WEAK_SENTENCE, { exact: false }));
    await expect(next.getAttribute('aria-describedby')).resolves.toMatch(/warning/);
    await expectNoSeriousA11yViolations(page, 'change PIN (weak warning, phone)');
    // a less obvious one: the warning goes, and it is saved
    await next.fill('8031');
    expect(await form.getByText(WEAK_SENTENCE, { exact: false }).count()).toBe(0);
    await form.getByRole('button', { name: 'Change PIN' }).click();
    await shown(form.getByRole('status').getByText('Your PIN is changed.', { exact: false }));
    expect(await current.inputValue()).toBe('');
    await expectNoSeriousA11yViolations(page, 'change PIN (done, phone)');

    // the new PIN signs in, the old one does not; this browser stays signed in
    expect((await server.anon.post('/api/auth/verify-pin', { userId: server.users.member.id, pin: MEMBER.pin })).status).toBe(401);
    expect((await server.anon.post('/api/auth/verify-pin', { userId: server.users.member.id, pin: '8031' })).status).toBe(200);
    await page.reload();
    await shown(page.getByRole('heading', { name: 'Your profile', level: 1 }));
    expect(pages.pageErrors).toEqual([]);
  });

  it('on a laptop the admin’s member edit warns that a weak PIN is easy to guess', async () => {
    const page = await pages.open('admin', DESKTOP);
    await page.goto(`${server.url}/members`);
    await page.getByRole('button', { name: 'Add member' }).click();
    const pin = page.getByLabel('PIN', { exact: true });
    await pin.fill('1234');
    await shown(page.getByText(WEAK_SENTENCE, { exact: false }));
    await pin.fill('8031');
    expect(await page.getByText(WEAK_SENTENCE, { exact: false }).count()).toBe(0);
    await expectNoSeriousA11yViolations(page, 'members (weak PIN warning, laptop)');
    expect(pages.pageErrors).toEqual([]);
  });
});
