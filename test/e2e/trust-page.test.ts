// The Trust page on a device that does not trust the household certificate yet (issue 31): opened
// at Hearth's plain LAN address (hearth-test.local mapped to 127.0.0.1, so not a secure context), it
// picks the device's system, shows its steps with the download and the fingerprint to compare, and
// Check says the device does not trust Hearth yet. The signed-in app there installs no service
// worker and says how to get to the secure address instead. The admin's Secure connections page
// shows the certificate in use. At 390 px and 1280 px, axe clean.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const NAME = 'hearth-test.local';

describe('the Trust page without the household CA', () => {
  const home = makeTempDir('hearth-nss-empty-');
  let server: TestServer;
  let browser: Browser;
  let plain: string;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    requireBuiltWebApp();
    server = await startTestServer({ seed: 'household', config: { hostName: 'hearth-test' } });
    await server.handle.secure();
    // the admin finished the welcome wizard (else every page of theirs resumes it)
    await server.admin.post('/api/setup/welcome-complete', {});
    plain = `http://${NAME}:${new URL(server.url).port}`;
    // an empty certificate store of its own: this browser trusts nothing of Hearth's
    mkdirSync(path.join(home.dir, '.pki', 'nssdb'), { recursive: true });
    browser = await launchChromium([`--host-resolver-rules=MAP ${NAME} 127.0.0.1`], { env: { HOME: home.dir } });
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
    home.remove();
    expect(pageErrors).toEqual([]);
  });

  async function open(device: BrowserContextOptions, url: string, cookie?: string): Promise<Page> {
    const context = await browser.newContext(device);
    contexts.push(context);
    if (cookie) await context.addCookies([{ name: 'session', value: cookie.slice('session='.length), url: new URL(url).origin, httpOnly: true, sameSite: 'Lax' }]);
    const page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(url);
    return page;
  }

  it.each([
    ['390 px', PHONE],
    ['1280 px', DESKTOP],
  ] as const)('walks the steps for this device, with the fingerprint, and Check says it does not trust Hearth yet (%s)', async (width, device) => {
    const page = await open(device, `${plain}/trust`);
    await shown(page.getByRole('heading', { level: 1, name: 'Trust Hearth on this device' }));
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    // Chromium on Linux: the Linux steps, with the certificate (DER) to download
    expect(await page.getByLabel('This device', { exact: true }).inputValue()).toBe('linux');
    const steps = page.getByTestId('trust-steps');
    expect(await steps.textContent()).toContain('Manage certificates');
    expect(await page.getByTestId('trust-download').getAttribute('href')).toBe('/api/tls/ca.crt');
    const status = (await server.anon.get('/api/system/tls')).body as { fingerprintSha256: string };
    expect(await page.getByTestId('trust-fingerprint').textContent()).toBe(status.fingerprintSha256);
    // another device: an iPhone gets the profile and the Certificate Trust Settings step
    await page.getByLabel('This device', { exact: true }).selectOption('ios');
    expect(await page.getByTestId('trust-download').getAttribute('href')).toBe('/api/tls/ca.mobileconfig');
    expect(await steps.textContent()).toContain('Certificate Trust Settings');
    await page.getByLabel('This device', { exact: true }).selectOption('android');
    expect(await steps.textContent()).toContain('Install a certificate › CA certificate');

    await page.getByTestId('trust-check').click();
    const result = page.getByTestId('trust-result');
    await shown(result);
    expect(await result.textContent()).toContain('does not trust Hearth’s certificate yet');
    await expectNoSeriousA11yViolations(page, `/trust at ${width}`);
    await page.screenshot({ path: `/tmp/hearth-trust-${width.replace(' ', '')}.png`, fullPage: true });
  });

  it('the signed-in app on the plain address registers no service worker and says how to install it', async () => {
    const page = await open(PHONE, plain, server.member.cookie!);
    await shown(page.getByTestId('home-name'));
    expect(await page.evaluate(() => 'serviceWorker' in navigator)).toBe(false);
    const offer = page.getByTestId('secure-offer');
    await shown(offer);
    expect(await offer.textContent()).toContain('Open Hearth’s secure address to install it');
    await expectNoSeriousA11yViolations(page, '/ with the secure-address note');
    await offer.getByRole('link', { name: 'How' }).click();
    await page.waitForURL(`${plain}/trust`);
    await shown(page.getByRole('heading', { level: 1, name: 'Trust Hearth on this device' }));
    // the profile menu leads there too
    await page.goto(plain);
    await page.getByTestId('current-user').click();
    expect(await page.getByRole('menuitem', { name: 'Secure connection on this device' }).getAttribute('href')).toBe('/trust');
  });

  it.each([
    ['390 px', PHONE],
    ['1280 px', DESKTOP],
  ] as const)('the admin’s Secure connections page shows the certificate in use (%s)', async (width, device) => {
    const page = await open(device, `${server.url}/admin/tls`, server.admin.cookie!);
    await shown(page.getByRole('heading', { level: 1, name: 'Secure connections' }));
    const status = (await server.anon.get('/api/system/tls')).body as { names: string[]; fingerprintSha256: string };
    expect(await page.getByTestId('tls-names').textContent()).toBe(status.names.join(', '));
    expect(await page.getByTestId('tls-fingerprint').textContent()).toBe(status.fingerprintSha256);
    expect(await page.getByRole('link', { name: 'Each device’s steps' }).getAttribute('href')).toBe('/trust');
    await expectNoSeriousA11yViolations(page, `/admin/tls at ${width}`);
  });
});
