// A member locked out by wrong PINs, in a real browser on phones: the PIN screen says for how long
// (also when the page is opened again later), the admin sees the lock in Members and lifts it, and
// the member signs in. The Members row is checked on a laptop as well.
// Needs the built web app (`npm run build:web`).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext, toastSays } from '../harness/browser.js';
import { MEMBER, startTestServer, type TestServer } from '../harness/start-server.js';

async function tapPin(page: Page, pin: string): Promise<void> {
  const pad = page.getByTestId('pin-pad');
  await shown(pad.getByRole('button', { name: 'OK', exact: true }));
  for (const d of pin) await pad.getByRole('button', { name: d, exact: true }).tap();
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/auth/verify-pin'));
  await pad.getByRole('button', { name: 'OK', exact: true }).tap();
  await answered;
}

describe('unlocking a member in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  async function open(device: typeof PHONE | typeof DESKTOP, as?: 'admin'): Promise<Page> {
    const ctx = await signedInContext(browser, server.url, as && server.admin.cookie, device);
    contexts.push(ctx);
    const page = await ctx.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    return page;
  }

  beforeAll(async () => {
    requireBuiltWebApp();
    server = await startTestServer({ seed: 'household' });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  it('the member’s phone shows the lock and its countdown, also when the PIN screen is opened again', async () => {
    const phone = await open(PHONE);
    await phone.goto(server.url);
    await phone.getByRole('button', { name: MEMBER.name }).tap();
    await shown(phone.getByRole('heading', { name: `Hi, ${MEMBER.name}` }));
    for (let i = 0; i < 4; i++) await tapPin(phone, '1111');
    await shown(phone.getByTestId('pin-pad').getByRole('alert').getByText('1 try left on this device before a 5-minute lock'));
    await tapPin(phone, '1111');
    const lockout = phone.getByTestId('lockout');
    await shown(lockout);
    expect(await lockout.textContent()).toMatch(/Try again in [45]:\d\d/);
    await shown(phone.getByText(/Too many wrong PINs for this profile on this device\. Try again in 5 minutes, or ask an admin/));

    // later, the PIN screen opened afresh says so before anyone types
    await phone.reload();
    await shown(phone.getByRole('heading', { name: `Hi, ${MEMBER.name}` }));
    await shown(lockout);
    expect(await lockout.textContent()).toMatch(/Try again in [45]:\d\d/);
    await shown(phone.getByText('An admin can unlock it in Members', { exact: false }));
    expect(await phone.getByTestId('pin-pad').getByRole('button', { name: '1', exact: true }).isDisabled()).toBe(true);
    await phone.screenshot({ path: '/tmp/hearth-phone-locked-pin.png' });
  });

  it('on a laptop the admin sees the lock in Members', async () => {
    const laptop = await open(DESKTOP, 'admin');
    await laptop.goto(`${server.url}/members`);
    const row = laptop.getByTestId('member-list').getByRole('listitem').filter({ hasText: MEMBER.name });
    await shown(row.getByTestId('member-locked'));
    expect(await row.getByTestId('member-locked').textContent()).toMatch(/Locked until \d{1,2}:\d\d/);
    await shown(row.getByRole('button', { name: `Unlock ${MEMBER.name}` }));
    await laptop.screenshot({ path: '/tmp/hearth-desktop-members-locked.png' });
  });

  it('the admin unlocks the member from a phone, and the member signs in', async () => {
    const admin = await open(PHONE, 'admin');
    await admin.goto(`${server.url}/members`);
    const list = admin.getByTestId('member-list');
    const row = list.getByRole('listitem').filter({ hasText: MEMBER.name });
    const unlock = row.getByRole('button', { name: `Unlock ${MEMBER.name}` });
    await shown(unlock);
    // the row fits the phone: nothing sticks out sideways
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = await unlock.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await admin.screenshot({ path: '/tmp/hearth-phone-members-locked.png' });

    const answered = admin.waitForResponse((r) => r.url().endsWith('/unlock'));
    await unlock.tap();
    expect((await answered).status()).toBe(200);
    await toastSays(admin, `Unlocked ${MEMBER.name}. They can sign in again on every device.`);
    await gone(row.getByTestId('member-locked'));

    const phone = await open(PHONE);
    await phone.goto(server.url);
    await phone.getByRole('button', { name: MEMBER.name }).tap();
    await shown(phone.getByRole('heading', { name: `Hi, ${MEMBER.name}` }));
    expect(await phone.getByTestId('lockout').count()).toBe(0);
    await tapPin(phone, MEMBER.pin);
    await shown(phone.getByTestId('home-name'));
    expect(pageErrors).toEqual([]);
  });
});
