// The end of setup and after it, in a real browser: the last wizard step shows the address to type
// on every phone with a QR code of it; an admin's Home keeps "Finish setting up" until the model
// runtime runs with the chosen models and someone else has a profile. Needs the built web app
// (`npm run build:web`).
import type os from 'node:os';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MODEL, EMBEDDING_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

type Interfaces = ReturnType<typeof os.networkInterfaces>;
const iface = (address: string, internal = false) =>
  ({ address, family: 'IPv4', internal, netmask: '255.255.255.0', mac: '00:00:00:00:00:00', cidr: null }) as unknown as os.NetworkInterfaceInfo;
/** This computer as the test sees it: on the home Wi-Fi and on a container bridge. */
const INTERFACES: Interfaces = { lo: [iface('127.0.0.1', true)], docker0: [iface('172.17.0.1')], wlan0: [iface('192.168.1.20')] };

describe('the end of setup in the browser', () => {
  let server: TestServer;
  let runtime: FakeModelRuntime;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  async function open(as: 'admin' | 'member', device: typeof PHONE | typeof DESKTOP): Promise<Page> {
    const ctx = await signedInContext(browser, server.url, (as === 'admin' ? server.admin : server.member).cookie!, device);
    contexts.push(ctx);
    const page = await ctx.newPage();
    page.on('pageerror', (err) => pageErrors.push(`${as}: ${err.message}`));
    return page;
  }

  beforeAll(async () => {
    requireBuiltWebApp();
    // the model runtime is installed but not running yet
    runtime = await startFakeModelRuntime({ models: [CHAT_MODEL, EMBEDDING_MODEL] });
    await runtime.setMode('down');
    server = await startTestServer({ seed: 'household', config: { host: '0.0.0.0', modelRuntimeUrl: runtime.url }, overrides: { networkInterfaces: () => INTERFACES } });
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await runtime?.close();
    expect(pageErrors).toEqual([]);
  });

  it('the last setup step shows the address to open on every phone, a QR code of its Trust page and a copy button', async () => {
    // the admin stopped at the last step (the wizard resumes there)
    expect((await server.admin.put('/api/setup/state', { step: 'finish' })).status).toBe(200);
    const page = await open('admin', PHONE);
    await page.goto(server.url);
    await shown(page.getByRole('heading', { name: 'You’re all set, Alex' }));

    const port = new URL(server.url).port;
    const preferred = `http://192.168.1.20:${port}`;
    const box = page.getByTestId('house-address');
    await shown(box);
    expect(await page.getByTestId('house-address-url').textContent()).toBe(preferred);
    // the other address is offered as a fallback; the loopback one never
    expect(await box.textContent()).toContain(`http://172.17.0.1:${port}`);
    expect(await box.textContent()).not.toContain('127.0.0.1');

    // the QR image says what it encodes, is drawn, and is the code of the preferred address's Trust page (issue 31)
    const qr = page.getByRole('img', { name: `QR code that opens ${preferred}/trust` });
    await shown(qr);
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const src = await qr.getAttribute('src');
    const expected = await QRCode.toString(`${preferred}/trust`, { type: 'svg', margin: 2, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } });
    expect(decodeURIComponent(src!.slice(src!.indexOf(',') + 1))).toBe(expected);

    // the copy button copies (localhost is a secure context, so the Clipboard API is there)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.getByRole('button', { name: 'Copy address' }).tap();
    await shown(page.getByRole('button', { name: 'Copied' }));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(preferred);
    await page.screenshot({ path: '/tmp/hearth-phone-setup-end.png' });
  });

  it('an admin’s Home keeps “Finish setting up” with what is missing and where to fix it, until everything is there', async () => {
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBe(200);
    const page = await open('admin', DESKTOP);
    await page.goto(server.url);
    await shown(page.getByTestId('home-name'));
    const card = page.getByRole('region', { name: 'Finish setting up' });
    await shown(card);
    expect(await card.textContent()).toContain('2 things are left');
    const runtimeItem = card.getByTestId('finish-setup-runtime');
    expect(await runtimeItem.textContent()).toContain('not running on this computer');
    expect(await runtimeItem.getByRole('link', { name: 'Open Features' }).getAttribute('href')).toBe('/features');
    expect(await card.getByTestId('finish-setup-models').textContent()).toContain('No AI models are installed yet');
    expect(await card.getByTestId('finish-setup-members').textContent()).toContain('Add the household (done)');
    await page.screenshot({ path: '/tmp/hearth-desktop-finish-setup.png' });

    // a member's Home never shows it
    const member = await open('member', PHONE);
    await member.goto(server.url);
    await shown(member.getByTestId('home-name'));
    expect(await member.getByTestId('finish-setup').count()).toBe(0);

    // the runtime starts with the models setup chose: the card goes when the tab is looked at again
    await runtime.setMode('ok');
    const features = server.handle.deps.features;
    await features.setChosenModel('chat', CHAT_MODEL.name);
    await features.setChosenModel('embeddings', EMBEDDING_MODEL.name);
    await features.setChosenModel('router', CHAT_MODEL.name);
    const checked = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/setup/checklist');
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await checked;
    await gone(card);
    const again = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/setup/checklist');
    await page.reload();
    await again;
    await shown(page.getByTestId('home-name'));
    expect(await page.getByTestId('finish-setup').count()).toBe(0);
  });
});
