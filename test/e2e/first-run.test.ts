// The first run in a real browser: the boot screen follows the boot stream, the wizard creates the
// admin and resumes after a reload, sign-out and PIN sign-in by touch (phone) and by keyboard
// (desktop), wrong-PIN and lockout messages, the admin adds a member who then appears on the
// picker, and a session that ends on the server sends the browser back to the picker.
// Needs the built web app (`npm run build:web`).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shown, toastSays } from '../harness/browser.js';
import { createOllamaClient, type ModelRuntimeClient } from '../../server/adapters/model-runtime/ollama.js';
import { CLOSED_URL, startTestServer, type TestServer } from '../harness/start-server.js';

// the desktop runs in dark mode, so both colour schemes get looked at

const ADMIN = { name: 'Alex', pin: '2468' };
const MEMBER = { name: 'Sam', pin: '5678' };

/**
 * The real model-runtime adapter pointed at a closed port (nothing installed, as on a fresh
 * machine), except that its first answer waits until the test opens the gate, so boot is visibly
 * in progress when the page loads.
 */
function gatedRuntime(): { client: ModelRuntimeClient; open: () => void } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const real = createOllamaClient({ baseUrl: CLOSED_URL, timeoutMs: 2000 });
  const client: ModelRuntimeClient = {
    ...real,
    async version() {
      await gate;
      return real.version();
    },
  };
  return { client, open };
}


async function tapPin(page: Page, pin: string): Promise<void> {
  const pad = page.getByTestId('pin-pad');
  for (const d of pin) await pad.getByRole('button', { name: d, exact: true }).tap();
  await pad.getByRole('button', { name: 'OK', exact: true }).tap();
}

describe('first run in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let phone: BrowserContext;
  let page: Page;
  let runtime: ReturnType<typeof gatedRuntime>;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    requireBuiltWebApp();
    runtime = gatedRuntime();
    server = await startTestServer({ seed: 'empty', waitForBoot: false, overrides: { modelRuntime: runtime.client } });
    browser = await launchChromium();
    phone = await browser.newContext(PHONE);
    page = await phone.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
  });

  afterAll(async () => {
    runtime?.open();
    await browser?.close();
    await server?.close();
  });

  it('shows the boot screen, then walks the setup wizard on a phone and signs in again by touch', async () => {
    await page.goto(server.url);

    // boot: the steps so far, the model-runtime check still running
    const boot = page.getByTestId('boot-screen');
    await shown(boot);
    await shown(boot.getByText('Database'));
    await shown(boot.getByText('Model runtime'));
    expect(await boot.getByRole('heading').textContent()).toContain('Hearth is starting');
    await page.screenshot({ path: '/tmp/hearth-phone-boot.png' });
    runtime.open();

    // wizard: welcome -> admin
    await shown(page.getByRole('heading', { name: 'Welcome to Hearth' }));
    await page.getByRole('button', { name: 'Get started' }).tap();
    await shown(page.getByRole('heading', { name: 'Create the admin profile' }));
    await page.getByLabel('Your name').fill(ADMIN.name);
    await page.getByLabel('PIN', { exact: true }).fill(ADMIN.pin);
    await page.getByLabel('Confirm PIN').fill('1357');
    await page.getByRole('button', { name: 'Create admin' }).tap();
    await shown(page.getByText('The two PINs do not match.'));
    await page.getByLabel('Confirm PIN').fill(ADMIN.pin);
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/setup/state') && r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Create admin' }).tap();
    expect((await saved).status()).toBe(200);

    // model runtime check (nothing installed in the test environment), resumed after a reload
    const runtimeHeading = page.getByRole('heading', { name: 'Check the model runtime' });
    await shown(runtimeHeading);
    await shown(page.getByTestId('runtime-status').getByText('Ollama was not found'));
    await page.reload();
    await shown(runtimeHeading);
    await shown(page.getByTestId('runtime-status').getByText('Ollama was not found'));
    const rechecked = page.waitForResponse((r) => r.url().endsWith('/api/setup/ollama-status'));
    await page.getByRole('button', { name: 'Check again' }).tap();
    expect((await rechecked).status()).toBe(200);
    await page.getByRole('button', { name: 'Continue' }).tap();

    // this computer and the plan; with no model runtime the plan says so, and the install step
    // installs no model and lets the admin go on (nothing picked here: the real catalog's extras
    // would download from the internet; test/e2e/setup-no-runtime.test.ts covers that)
    await shown(page.getByRole('heading', { name: 'Your computer' }));
    await page.getByRole('button', { name: 'Continue' }).tap();
    await shown(page.getByRole('heading', { name: 'Your plan' }));
    await shown(page.getByTestId('plan-no-runtime'));
    for (let box = page.getByRole('checkbox', { checked: true, disabled: false }).first(); await box.count(); ) await box.tap();
    await page.getByRole('button', { name: 'Install' }).tap();
    await shown(page.getByRole('heading', { name: 'Models need Ollama' }));
    await shown(page.getByTestId('install-not-installed'));
    await page.getByRole('button', { name: 'Continue without the models' }).tap();

    // finish
    await shown(page.getByRole('heading', { name: `You’re all set, ${ADMIN.name}` }));
    // the test server answers on 127.0.0.1 only: no address for phones, and it says what to change
    const problem = page.getByTestId('house-address-problem');
    await shown(problem);
    expect(await problem.textContent()).toContain('Phones and laptops cannot reach Hearth yet');
    expect(await problem.textContent()).toContain('HOST=127.0.0.1');
    expect(await page.getByTestId('house-address-qr').count()).toBe(0);
    await page.screenshot({ path: '/tmp/hearth-phone-wizard-finish.png' });
    await page.getByRole('button', { name: 'Open Hearth' }).tap();
    await shown(page.getByTestId('home-name'));
    expect(await page.getByTestId('home-name').textContent()).toBe(ADMIN.name);
    expect((await server.anon.get('/api/setup/status')).body).toMatchObject({ needsAdmin: false, welcomeComplete: true });
    await page.screenshot({ path: '/tmp/hearth-phone-home.png' });

    // sign out -> picker -> PIN pad: wrong PIN, then the right one, by touch
    await page.getByRole('button', { name: 'Sign out' }).tap();
    await shown(page.getByRole('heading', { name: 'Who’s using Hearth?' }));
    await page.getByRole('button', { name: ADMIN.name }).tap();
    await shown(page.getByRole('heading', { name: `Hi, ${ADMIN.name}` }));
    await tapPin(page, '1111');
    const alert = page.getByTestId('pin-pad').getByRole('alert');
    await shown(alert.getByText('That PIN is not right'));
    expect(await alert.textContent()).toMatch(/4 tries left/);
    await page.screenshot({ path: '/tmp/hearth-phone-pin.png' });
    await tapPin(page, ADMIN.pin);
    await shown(page.getByTestId('home-name'));
    expect(await page.getByTestId('home-name').textContent()).toBe(ADMIN.name);
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('lets the admin add a member, shows server refusals inline, and the member appears on the picker', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true }).tap();
    await page.getByRole('list', { name: 'Admin pages' }).getByRole('link', { name: /^Members/ }).tap();
    await shown(page.getByRole('heading', { name: 'Household members' }));
    const list = page.getByTestId('member-list');
    await shown(list.getByText(ADMIN.name));

    await page.getByRole('button', { name: 'Add member' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Add a household member' });
    await shown(dialog);
    await dialog.getByLabel('Name').fill(MEMBER.name);
    await dialog.getByLabel('PIN', { exact: true }).fill(MEMBER.pin);
    await dialog.getByLabel('Confirm PIN').fill(MEMBER.pin);
    // the filled form before it is sent: both PINs masked and kept, a new member is a Member by
    // default, and nothing is marked wrong yet
    for (const label of ['PIN', 'Confirm PIN']) {
      const field = dialog.getByLabel(label, { exact: true });
      expect(await field.getAttribute('type')).toBe('password');
      expect(await field.inputValue()).toBe(MEMBER.pin);
    }
    expect(await dialog.getByRole('radio', { name: /^Member/ }).isChecked()).toBe(true);
    expect(await dialog.locator('.field__error').count()).toBe(0);
    await page.screenshot({ path: '/tmp/hearth-phone-add-member.png' });
    await dialog.getByRole('button', { name: 'Add member' }).tap();
    await gone(dialog);
    const row = list.getByRole('listitem').filter({ hasText: MEMBER.name });
    await shown(row);
    expect(await row.locator('.badge').textContent()).toBe('Member');
    await toastSays(page, `Added ${MEMBER.name}.`);

    // the last admin cannot be removed: the server's message shows in the dialog
    await page.getByRole('button', { name: `Remove ${ADMIN.name}` }).tap();
    const confirm = page.getByRole('alertdialog', { name: `Remove ${ADMIN.name}?` });
    await shown(confirm);
    await confirm.getByRole('button', { name: 'Remove', exact: true }).tap();
    await shown(confirm.getByRole('alert').getByText('at least one admin'));
    await confirm.getByRole('button', { name: 'Cancel' }).tap();
    await gone(confirm);
    await page.screenshot({ path: '/tmp/hearth-phone-members.png' });

    await page.getByRole('button', { name: 'Sign out' }).tap();
    await shown(page.getByRole('heading', { name: 'Who’s using Hearth?' }));
    await shown(page.getByRole('button', { name: MEMBER.name }));
    await shown(page.getByRole('button', { name: ADMIN.name }));
    await page.screenshot({ path: '/tmp/hearth-phone-picker.png' });
  });

  it('signs in with the keyboard on a desktop, returns to the picker when the session ends, and counts down a lockout', async () => {
    const desktop = await browser.newContext(DESKTOP);
    const web = await desktop.newPage();
    web.on('pageerror', (err) => pageErrors.push(err.message));
    try {
      await web.goto(server.url);
      await shown(web.getByRole('heading', { name: 'Who’s using Hearth?' }));

      // the member, by keyboard: wrong PIN, then the right one with a Backspace in the middle
      await web.getByRole('button', { name: MEMBER.name }).click();
      await shown(web.getByRole('heading', { name: `Hi, ${MEMBER.name}` }));
      await web.keyboard.type('0000');
      await web.keyboard.press('Enter');
      await shown(web.getByTestId('pin-pad').getByRole('alert').getByText('That PIN is not right'));
      await web.keyboard.type(`${MEMBER.pin}9`);
      await web.keyboard.press('Backspace');
      await web.keyboard.press('Enter');
      await shown(web.getByTestId('home-name'));
      expect(await web.getByTestId('home-name').textContent()).toBe(MEMBER.name);
      const nav = web.getByRole('navigation', { name: 'Main' });
      await shown(nav.getByRole('link', { name: 'Home', exact: true }));
      expect(await nav.getByRole('link', { name: 'Members' }).count()).toBe(0);
      expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0);
      await web.screenshot({ path: '/tmp/hearth-desktop-home.png' });
      await web.getByRole('button', { name: 'Sign out' }).click();
      await shown(web.getByRole('heading', { name: 'Who’s using Hearth?' }));
      await web.screenshot({ path: '/tmp/hearth-desktop-picker.png' });

      // the admin signs in; their session is ended elsewhere (new PIN from another device)
      await web.getByRole('button', { name: ADMIN.name }).click();
      await shown(web.getByRole('heading', { name: `Hi, ${ADMIN.name}` }));
      await web.keyboard.type(ADMIN.pin);
      await web.keyboard.press('Enter');
      await nav.getByRole('link', { name: 'Admin', exact: true }).click();
      await web.getByRole('list', { name: 'Admin pages' }).getByRole('link', { name: /^Members/ }).click();
      await shown(web.getByTestId('member-list'));
      await web.screenshot({ path: '/tmp/hearth-desktop-members.png' });
      const profiles: Array<{ id: string; name: string }> = (await server.anon.get('/api/auth/profiles')).body.profiles;
      const adminId = profiles.find((p) => p.name === ADMIN.name)!.id;
      const otherDevice = await server.signIn(adminId, ADMIN.pin);
      // a new PIN signs the admin out everywhere except on the device that set it
      expect((await otherDevice.patch(`/api/admin/users/${adminId}`, { pin: ADMIN.pin })).status).toBe(200);
      // the next page that reads from the server (Home reads the layout) finds the session gone
      await nav.getByRole('link', { name: 'Home', exact: true }).click();
      await shown(web.getByRole('heading', { name: 'Who’s using Hearth?' }));
      await shown(web.getByText('You were signed out'));

      // five wrong PINs lock the profile; the pad shows a countdown and stops taking digits
      await web.getByRole('button', { name: MEMBER.name }).click();
      await shown(web.getByRole('heading', { name: `Hi, ${MEMBER.name}` }));
      for (let i = 0; i < 5; i++) {
        // the pad takes digits again once the last answer is in (OK instead of its spinner)
        await shown(web.getByTestId('pin-pad').getByRole('button', { name: 'OK', exact: true }));
        const answered = web.waitForResponse((r) => r.url().endsWith('/api/auth/verify-pin'));
        await web.keyboard.type('1111');
        await web.keyboard.press('Enter');
        await answered;
      }
      const lockout = web.getByTestId('lockout');
      await shown(lockout);
      expect(await lockout.textContent()).toMatch(/Try again in [45]:\d\d/);
      expect(await web.getByTestId('pin-pad').getByRole('button', { name: '1', exact: true }).isDisabled()).toBe(true);
      await web.screenshot({ path: '/tmp/hearth-desktop-lockout.png' });
    } finally {
      await desktop.close();
    }
    expect(pageErrors).toEqual([]);
  });
});
