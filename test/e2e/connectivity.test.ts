// Issue 39's admin Connectivity and Benchmarks pages in the browser: an admin on a phone (390 px) turns
// offline mode on (with a confirm) and a member's Today and Reader pages say an admin switched it on;
// at 1280 px the admin runs the benchmark, follows its progress, sees the results table (also on a
// phone), and the Features page's chat hint says the measured words a second. axe finds nothing serious. Needs the
// built web app (`npm run build:web`).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const ADMIN_SWITCHED = /An admin switched offline mode on in Admin › Connectivity/;

describe('admin connectivity and benchmarks in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let runtime: FakeModelRuntime;
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    runtime = await startFakeModelRuntime();
    server = await startTestServer({ seed: 'household', config: { modelRuntimeUrl: runtime.url }, overrides: { tuning: { benchmarkDiskBytes: 2 * 1024 * 1024 } } });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await runtime?.close();
  });

  it('an admin on a phone turns offline mode on, and a member’s Today and Reader pages say an admin did', async () => {
    const page = await pages.open('admin', PHONE);
    await page.goto(`${server.url}/admin`);
    await page.getByRole('link', { name: /Connectivity/ }).first().click();
    await shown(page.getByRole('heading', { name: 'Connectivity', level: 1 }));
    await shown(page.getByRole('heading', { name: 'How phones reach Hearth' }));
    await shown(page.getByText(/started to answer on this computer only/));
    await expectNoSeriousA11yViolations(page, '/admin/connectivity (phone)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    const toggle = page.getByRole('switch', { name: 'Offline mode' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    const dialog = page.getByRole('alertdialog');
    await shown(dialog.getByText('Switch offline mode on?'));
    await dialog.getByRole('button', { name: 'Go offline' }).click();
    await gone(dialog);
    await shown(page.getByTestId('offline-state').getByText(ADMIN_SWITCHED));
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await shown(page.getByTestId('internet-state').getByText(/Not checked: offline mode is on/));
    expect(server.handle.deps.offline.reason).toBe('admin');

    const member = await pages.open('member', PHONE);
    await member.goto(`${server.url}/today`);
    await shown(member.getByTestId('offline-notice').getByText(ADMIN_SWITCHED));
    await expectNoSeriousA11yViolations(member, '/today offline (phone)');
    await member.goto(`${server.url}/reader`);
    await shown(member.getByTestId('offline-notice').getByText(ADMIN_SWITCHED));
    expect(pages.pageErrors).toEqual([]);
  });

  it('at 1280 px the admin runs the benchmark, and Features says the measured speed', async () => {
    const page = await pages.open('admin', DESKTOP);
    await page.goto(`${server.url}/admin/benchmarks`);
    await shown(page.getByText('Not measured yet'));
    await page.getByTestId('benchmark-run').click();
    await shown(page.getByTestId('benchmark-progress').getByText(/llama3\.2:3b: about \d+ words a second/));
    const results = page.getByTestId('benchmark-results');
    await shown(results.getByRole('rowheader', { name: 'llama3.2:3b' }));
    await shown(results.getByText(/image engine is not set up/));
    await shown(results.getByText(/Writes \d+ MB a second/));
    await shown(page.getByRole('button', { name: 'Run the benchmark' }));
    await expectNoSeriousA11yViolations(page, '/admin/benchmarks (desktop)');

    // the results and the switch's state on the other size of screen
    const phone = await pages.open('admin', PHONE);
    await phone.goto(`${server.url}/admin/benchmarks`);
    await shown(phone.getByTestId('benchmark-results').getByRole('rowheader', { name: 'llama3.2:3b' }));
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectNoSeriousA11yViolations(phone, '/admin/benchmarks (phone)');
    await page.goto(`${server.url}/admin/connectivity`);
    await shown(page.getByTestId('offline-state').getByText(ADMIN_SWITCHED));
    await expectNoSeriousA11yViolations(page, '/admin/connectivity (desktop)');

    await page.goto(`${server.url}/features`);
    await shown(page.getByTestId('speed-chat-small').getByText(/About \d+ words a second on this computer/));
    expect(pages.pageErrors).toEqual([]);
  });
});
