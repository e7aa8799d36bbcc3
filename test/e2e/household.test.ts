// Apps, notifications and the home screen in a real browser, with an admin (desktop) and a member
// (phone) side by side: the member requests a switched-off app, the admin's bell count rises on its
// 30 s poll, the admin approves and the member's navigation gains the app; the member arranges their
// home canvas and it survives a reload; the admin locks it and the member's Edit button goes; an app
// the admin removes leaves the member's navigation and canvas, and Get shows where an app reaches.
// Needs the built web app (`npm run build:web`).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shellSettled, shown, signedInContext, toastSays } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';



describe('apps, notifications and the home screen in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];
  let admin: Page;
  let member: Page;

  async function open(as: 'admin' | 'member', device: typeof PHONE | typeof DESKTOP): Promise<Page> {
    const ctx = await signedInContext(browser, server.url, (as === 'admin' ? server.admin : server.member).cookie!, device);
    contexts.push(ctx);
    const page = await ctx.newPage();
    page.on('pageerror', (err) => pageErrors.push(`${as}: ${err.message}`));
    return page;
  }

  /** Loads a page and waits for the enabled set (until then the navigation is optimistic). */
  async function visit(page: Page, pathname: string): Promise<void> {
    await page.goto(`${server.url}${pathname}`);
    await shellSettled(page);
  }

  /** The tab comes back into view: the app reads the enabled set and layout again. */
  async function refocus(page: Page, what: '/api/tools' | '/api/home-layout' = '/api/tools'): Promise<void> {
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === what);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await answered;
  }

  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  beforeAll(async () => {
    requireBuiltWebApp();
    server = await startTestServer({ seed: 'household' });
    // the admin has been through the welcome wizard; Reader starts switched off
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    expect((await server.admin.put('/api/tools/reader/enabled', { enabled: false })).status).toBe(200);
    browser = await launchChromium();
    admin = await open('admin', DESKTOP);
    member = await open('member', PHONE);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  it('a member requests an app, the admin sees the bell count rise, approves it, and the member’s navigation shows it', async () => {
    // the admin's tab is open, with a fake clock so the 30 s poll can be run forward
    await admin.clock.install();
    await visit(admin, '/');
    await shown(admin.getByTestId('home-name'));
    const bell = admin.getByTestId('bell');
    await shown(bell);
    expect(await bell.getAttribute('aria-label')).toBe('Notifications');
    expect(await admin.getByTestId('bell-count').count()).toBe(0);

    // the member: Reader is switched off, so it is not in the navigation and its widget is not on Home
    await visit(member, '/');
    await shown(member.getByTestId('widget-library'));
    expect(await member.getByTestId('widget-reader').count()).toBe(0);
    await shown(nav(member).getByRole('link', { name: 'Library' }));
    expect(await nav(member).getByRole('link', { name: 'Reader' }).count()).toBe(0);
    await member.screenshot({ path: '/tmp/hearth-phone-household-home.png' });

    // the App Store is not a main tab for a member: it is under More
    await nav(member).getByRole('button', { name: 'More' }).tap();
    await nav(member).getByRole('link', { name: 'App Store' }).tap();
    await shown(member.getByRole('heading', { name: 'App Store' }));
    const reader = member.getByTestId('store-item-reader');
    await shown(reader.getByRole('button', { name: 'Request Reader' }));
    // installed App -> Open, built-ins listed with Open; with no archive installed archive search
    // cannot work, so a member is not offered it (honest-states.test.ts)
    await shown(member.getByTestId('store-item-library').getByRole('link', { name: 'Open Library' }));
    expect(await member.getByTestId('store-item-archive_search').count()).toBe(0);
    await shown(member.getByTestId('store-item-home').getByText('Built in'));
    expect(await member.getByTestId('store-item-members').count()).toBe(0);
    expect(await member.getByRole('button', { name: /^(Get|Remove) / }).count()).toBe(0);
    await member.screenshot({ path: '/tmp/hearth-phone-app-store.png', fullPage: true });

    await reader.getByRole('button', { name: 'Request Reader' }).tap();
    const dialog = member.getByRole('dialog', { name: 'Ask for Reader' });
    await shown(dialog);
    await dialog.getByLabel('Message (optional)').fill('For the recipes I keep losing');
    await member.screenshot({ path: '/tmp/hearth-phone-request.png' });
    const sent = member.waitForResponse((r) => r.url().endsWith('/api/app-store/request'));
    await dialog.getByRole('button', { name: 'Send request' }).tap();
    expect((await sent).status()).toBe(201);
    await gone(dialog);
    await toastSays(member, 'Your request for Reader was sent to the admins.');
    expect(await reader.getByRole('button', { name: 'Reader requested' }).isDisabled()).toBe(true);

    // the admin's bell rises on its next poll, 30 s on
    const polled = admin.waitForResponse((r) => r.url().endsWith('/api/notifications/unread-count'));
    await admin.clock.fastForward(30_500);
    await polled;
    await shown(admin.getByTestId('bell-count'));
    expect(await admin.getByTestId('bell-count').textContent()).toBe('1');
    expect(await bell.getAttribute('aria-label')).toBe('Notifications, 1 unread');

    await bell.click();
    const panel = admin.getByRole('dialog', { name: 'Notifications' });
    await shown(panel);
    const request = panel.getByTestId('notification').filter({ hasText: 'Sam asks for Reader' });
    await shown(request);
    await shown(request.getByText('“For the recipes I keep losing”'));
    await admin.screenshot({ path: '/tmp/hearth-desktop-notifications.png' });
    await request.getByRole('button', { name: 'Approve' }).click();
    await shown(panel.getByText('Reader is installed for everyone.'));
    await gone(request.getByRole('button', { name: 'Approve' }));
    await gone(admin.getByTestId('bell-count'));
    expect((await server.admin.get('/api/tools')).body.tools.find((t: any) => t.id === 'reader').enabled).toBe(true);
    expect((await server.admin.get('/api/notifications')).body.unreadCount).toBe(0);
    await panel.getByRole('button', { name: 'Close' }).click();
    await shown(nav(admin).getByRole('link', { name: 'Reader' }));

    // back on the member's phone: the app is in the navigation and opens its page
    await refocus(member);
    await shown(nav(member).getByRole('link', { name: 'Reader' }));
    await shown(reader.getByRole('link', { name: 'Open Reader' }));
    await nav(member).getByRole('link', { name: 'Reader' }).tap();
    await shown(member.getByRole('heading', { name: 'Reader', exact: true }));
    await member.screenshot({ path: '/tmp/hearth-phone-reader.png' });
  });

  it('a member arranges their home canvas: adds a widget, makes it half width, saves, and a reload shows it', async () => {
    await visit(member, '/');
    await shown(member.getByTestId('widget-reader'));
    await member.getByRole('button', { name: 'Edit home' }).tap();
    const editor = member.getByTestId('layout-editor');
    await shown(editor);

    // a new row with Reader, made half width, then Library beside it, and the row moved up
    await editor.getByRole('button', { name: 'Add a row' }).tap();
    const picker = member.getByRole('dialog', { name: 'Add a widget' });
    await picker.getByRole('button', { name: 'Reader' }).tap();
    await gone(picker);
    await editor.getByLabel('Width of Reader in row 3').selectOption({ label: 'Half' });
    await editor.getByRole('button', { name: 'Add a widget to row 3' }).tap();
    await picker.getByRole('button', { name: 'Library' }).tap();
    await gone(picker);
    // two widgets in a row: neither can be full width
    expect(await editor.getByLabel('Width of Library in row 3').locator('option', { hasText: 'Full' }).isDisabled()).toBe(true);
    await editor.getByRole('button', { name: 'Move row 3 up' }).tap();
    await shown(editor.getByLabel('Width of Reader in row 2'));
    await member.screenshot({ path: '/tmp/hearth-phone-home-editor.png', fullPage: true });

    const saved = member.waitForResponse((r) => new URL(r.url()).pathname === '/api/home-layout' && r.request().method() === 'PUT');
    await editor.getByRole('button', { name: 'Save' }).tap();
    expect((await saved).status()).toBe(200);
    await gone(editor);
    await toastSays(member, 'Saved your home screen.');

    const stored = (await server.member.get('/api/home-layout')).body;
    expect(stored.custom).toBe(true);
    expect(stored.layout.canvas.map((r: any) => r.cols)).toEqual([
      [{ toolId: 'library', colSpan: 2 }],
      [
        { toolId: 'reader', colSpan: 1 },
        { toolId: 'library', colSpan: 1 },
      ],
      [{ toolId: 'reader', colSpan: 2 }],
    ]);

    await member.reload();
    const search = member.getByTestId('canvas-row').nth(1).getByTestId('widget-reader');
    await shown(search);
    expect(await search.getAttribute('data-span')).toBe('1');
    expect(await member.getByTestId('canvas-row').count()).toBe(3);
    // the two half-width widgets sit side by side on the phone
    const [a, b] = [await search.boundingBox(), await member.getByTestId('canvas-row').nth(1).getByTestId('widget-library').boundingBox()];
    expect(Math.abs(a!.y - b!.y)).toBeLessThan(2);
    expect(a!.x + a!.width).toBeLessThanOrEqual(b!.x);
    await member.screenshot({ path: '/tmp/hearth-phone-home-arranged.png', fullPage: true });
  });

  it('an admin locks a member’s home screen and the member’s Edit button disappears', async () => {
    await visit(member, '/');
    await shown(member.getByRole('button', { name: 'Edit home' }));

    await visit(admin, '/');
    await nav(admin).getByRole('link', { name: 'Admin', exact: true }).click();
    await admin.getByRole('list', { name: 'Admin pages' }).getByRole('link', { name: /^Members/ }).click();
    await admin.getByRole('link', { name: 'Home screen of Sam' }).click();
    await shown(admin.getByRole('heading', { name: 'Sam’s home screen' }));
    await shown(admin.getByTestId('member-layout-source').getByText('Arranged for Sam.'));
    await shown(admin.getByTestId('layout-preview').getByTestId('canvas-row').nth(1).getByTestId('widget-reader'));
    const lock = admin.getByRole('switch', { name: 'Lock this home screen' });
    expect(await lock.isChecked()).toBe(false);
    const locked = admin.waitForResponse((r) => r.url().endsWith(`/api/home-layout/users/${server.users.member.id}`) && r.request().method() === 'PUT');
    await lock.click();
    expect((await locked).status()).toBe(200);
    await toastSays(admin, 'Locked. Only admins can change this home screen now.');
    expect(await lock.isChecked()).toBe(true);
    await admin.screenshot({ path: '/tmp/hearth-desktop-member-home.png', fullPage: true });

    // the member's Home, read again when they come back to it: no Edit button
    await refocus(member, '/api/home-layout');
    await shown(member.getByTestId('home-locked'));
    expect(await member.getByRole('button', { name: 'Edit home' }).count()).toBe(0);
    await member.reload();
    await shown(member.getByTestId('home-locked'));
    await shown(member.getByTestId('canvas-row').nth(1).getByTestId('widget-reader'));
    expect(await member.getByRole('button', { name: 'Edit home' }).count()).toBe(0);
    expect((await server.member.put('/api/home-layout', (await server.member.get('/api/home-layout')).body.layout)).status).toBe(403);
    await member.screenshot({ path: '/tmp/hearth-phone-home-locked.png' });

    // the admin arranges it for them instead, then edits the household default
    await admin.getByRole('button', { name: 'Edit for Sam' }).click();
    const editor = admin.getByTestId('layout-editor');
    await editor.getByRole('button', { name: 'Remove row 3' }).click();
    await editor.getByRole('button', { name: 'Save for Sam' }).click();
    await toastSays(admin, 'Saved Sam’s home screen.');
    expect((await server.admin.get(`/api/home-layout/users/${server.users.member.id}`)).body).toMatchObject({ locked: true, custom: true });
    expect((await server.member.get('/api/home-layout')).body.layout.canvas).toHaveLength(2);
    // ...and can put it back: the household default replaces it, the lock stays
    await admin.getByRole('button', { name: 'Back to the default' }).click();
    const reset = admin.getByRole('alertdialog', { name: 'Back to the default?' });
    await shown(reset.getByText('The lock stays as it is.'));
    await reset.getByRole('button', { name: 'Use the default' }).click();
    await gone(reset);
    await toastSays(admin, 'Sam’s home screen is back to the household default.');
    expect((await server.admin.get(`/api/home-layout/users/${server.users.member.id}`)).body).toMatchObject({ locked: true, custom: false });
    expect((await server.member.get('/api/home-layout')).body.layout.canvas).toEqual((await server.admin.get('/api/home-layout/default')).body.layout.canvas);

    await admin.getByRole('link', { name: 'Members' }).first().click();
    await admin.getByRole('link', { name: 'Default home screen' }).click();
    await shown(admin.getByRole('heading', { name: 'Default home screen' }));
    await admin.getByRole('button', { name: 'Edit default' }).click();
    await editor.getByRole('button', { name: 'Move row 2 up' }).click();
    await editor.getByRole('button', { name: 'Save default' }).click();
    await toastSays(admin, 'Saved the default home screen.');
    const reader = [{ toolId: 'reader', colSpan: 2 }];
    expect((await server.admin.get('/api/home-layout/default')).body.layout.canvas.map((r: any) => r.cols)[0]).toEqual(reader);
    // the admin (no layout of their own) now starts from it
    expect((await server.admin.get('/api/home-layout')).body.layout.canvas.map((r: any) => r.cols)[0]).toEqual(reader);
  });

  it('an app the admin removes leaves the member’s navigation and home canvas; Get shows where it reaches', async () => {
    // back to an unlocked member on the default layout (library + reader rows)
    await server.admin.put(`/api/home-layout/users/${server.users.member.id}`, { layout: null, locked: false });
    await visit(member, '/');
    await shown(member.getByTestId('widget-library'));

    await visit(admin, '/apps');
    const library = admin.getByTestId('store-item-library');
    await library.getByRole('button', { name: 'Remove Library' }).click();
    const confirm = admin.getByRole('alertdialog', { name: 'Remove Library?' });
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await gone(confirm);
    await shown(library.getByRole('button', { name: 'Get Library' }));
    await gone(nav(admin).getByRole('link', { name: 'Library' }));

    await refocus(member);
    await gone(nav(member).getByRole('link', { name: 'Library' }));
    await gone(member.getByTestId('widget-library'));
    await shown(member.getByTestId('widget-reader'));
    await visit(member, '/library');
    await shown(member.getByText('Library is not installed'));

    // Get: the disclosure of where Library reaches, then confirm
    await library.getByRole('button', { name: 'Get Library' }).click();
    const get = admin.getByRole('dialog', { name: 'Get Library' });
    await shown(get.getByTestId('data-sources').getByText('download.kiwix.org'));
    await admin.screenshot({ path: '/tmp/hearth-desktop-get.png' });
    await get.getByRole('button', { name: 'Install for everyone' }).click();
    await gone(get);
    await shown(library.getByRole('link', { name: 'Open Library' }));

    // a fully local extension says so
    await admin.getByTestId('store-item-archive_search').getByRole('button', { name: 'Remove Archive search' }).click();
    await admin.getByRole('alertdialog', { name: 'Remove Archive search?' }).getByRole('button', { name: 'Remove', exact: true }).click();
    await admin.getByTestId('store-item-archive_search').getByRole('button', { name: 'Get Archive search' }).click();
    const local = admin.getByRole('dialog', { name: 'Get Archive search' });
    await shown(local.getByTestId('fully-local'));
    await local.getByRole('button', { name: 'Install for everyone' }).click();
    // on again, but with no archive it is not ready: no "Installed"
    await shown(admin.getByTestId('store-item-archive_search').getByTestId('not-ready-pill'));

    await refocus(member);
    await shown(nav(member).getByRole('link', { name: 'Library' }));
    // the same tab now shows the real Library page
    await shown(member.getByText('The shelves are empty'));
    expect(pageErrors).toEqual([]);
  });

  it('on a phone an admin gets Home, Reader, Chat, Library, Admin and More, whose menu opens the other pages', async () => {
    const phone = await open('admin', { ...PHONE, viewport: { width: 360, height: 740 } });
    await visit(phone, '/');
    const bar = nav(phone);
    const more = bar.getByRole('button', { name: 'More' });
    await shown(more);
    // the bar fits the screen: no sideways scrolling, five tabs plus More
    const fits = await bar.locator('.nav-list--main').evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
    expect(fits).toBe(true);
    const tabs = await bar.locator('.nav-list--main > li:visible').allInnerTexts();
    expect(tabs.map((t) => t.trim())).toEqual(['Home', 'Reader', 'Chat', 'Library', 'Admin', 'More']);
    expect(await more.getAttribute('aria-expanded')).toBe('false');

    // open: the pages that are not tabs; Escape closes it again
    await more.click();
    const menuLink = bar.getByRole('link', { name: 'Downloads' });
    await shown(menuLink);
    await phone.screenshot({ path: '/tmp/hearth-phone-more.png' });
    await phone.keyboard.press('Escape');
    await gone(menuLink);

    // choose one: the page opens, the menu closes, and More shows as the current tab
    await more.click();
    await bar.getByRole('link', { name: 'App Store' }).click();
    await phone.waitForURL(`${server.url}/apps`);
    await gone(bar.getByRole('link', { name: 'App Store' }));
    await expect.poll(() => more.getAttribute('class')).toContain('nav-more__button--current');
    // a tap outside closes an open menu
    await more.click();
    await shown(menuLink);
    await phone.mouse.click(180, 200);
    await gone(menuLink);

    // the admin pages are one tab: Admin lists them, and stays current on each
    await bar.getByRole('link', { name: 'Admin', exact: true }).click();
    await phone.getByRole('list', { name: 'Admin pages' }).getByRole('link', { name: /^Archives/ }).click();
    await phone.waitForURL(`${server.url}/admin/archives`);
    expect(await bar.getByRole('link', { name: 'Admin', exact: true }).getAttribute('aria-current')).toBe('page');
    expect(pageErrors).toEqual([]);
  });
});
