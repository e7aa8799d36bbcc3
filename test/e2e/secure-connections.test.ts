// Secure connections in a real browser (issue 31): Chromium that trusts the household CA (a fresh
// NSS database in a test HOME, as a person's "install the certificate" does) opens Hearth by a LAN
// name (hearth-test.local, mapped to 127.0.0.1, so the page is a real non-localhost origin) over
// HTTPS with no warning: a secure context, the service worker registered, the offline shell shown
// with the server stopped, the camera and microphone API there (fake devices). A certificate the
// same CA signs for a public name (example.com) is refused: the root's name constraints hold.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueServerCertificate } from '../../server/platform/tls/authority.js';
import { DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const NAME = 'hearth-test.local';

describe('Hearth over HTTPS with the household CA trusted', () => {
  const home = makeTempDir('hearth-nss-');
  let server: TestServer | undefined;
  let httpsPort: number;
  let browser: Browser;
  let rogue: https.Server;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    requireBuiltWebApp();
    server = await startTestServer({ seed: 'household', config: { hostName: 'hearth-test' } });
    const secure = await server.handle.secure();
    if (!secure) throw new Error('HTTPS did not open');
    httpsPort = secure.port;
    const tlsDir = path.join(server.dataDir, 'tls');
    // the device trusts the household CA: a fresh NSS database holding it as a CA for websites
    const nssdb = path.join(home.dir, '.pki', 'nssdb');
    mkdirSync(nssdb, { recursive: true });
    execFileSync('certutil', ['-d', `sql:${nssdb}`, '-N', '--empty-password']);
    execFileSync('certutil', ['-d', `sql:${nssdb}`, '-A', '-n', 'hearth', '-t', 'C,,', '-i', path.join(tlsDir, 'ca.crt')]);

    // what a stolen household key could do: a certificate for a public name, signed by the same CA
    const ca = { certPem: readFileSync(path.join(tlsDir, 'ca.crt'), 'utf8'), keyPem: readFileSync(path.join(tlsDir, 'ca.key'), 'utf8') };
    // (and, to show the refusal is the constraints' doing, one for a name they permit, served beside it by SNI)
    const forged = await issueServerCertificate(ca, { dns: ['example.com'], ips: [] }, new Date());
    const permitted = await issueServerCertificate(ca, { dns: ['printer.local'], ips: [] }, new Date());
    const permittedContext = tls.createSecureContext({ cert: permitted.certPem, key: permitted.keyPem });
    rogue = https.createServer(
      { cert: forged.certPem, key: forged.keyPem, SNICallback: (name, done) => done(null, name === 'printer.local' ? permittedContext : undefined) },
      (_req, res) => res.end('<!doctype html><title>signed by the household CA</title>'),
    );
    await new Promise<void>((resolve) => rogue.listen(0, '127.0.0.1', resolve));

    browser = await launchChromium(
      [`--host-resolver-rules=MAP ${NAME} 127.0.0.1, MAP example.com 127.0.0.1, MAP printer.local 127.0.0.1`, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
      { env: { HOME: home.dir } },
    );
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await new Promise((resolve) => rogue?.close(resolve));
    home.remove();
    expect(pageErrors).toEqual([]);
  });

  async function memberPage(device: BrowserContextOptions = PHONE) {
    const base = `https://${NAME}:${httpsPort}`;
    const context = await browser.newContext(device);
    contexts.push(context);
    await context.addCookies([{ name: 'session', value: server!.member.cookie!.slice('session='.length), url: base, httpOnly: true, secure: true, sameSite: 'Lax' }]);
    const page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    return { page, base };
  }

  it('opens https://hearth-test.local with no warning: a secure context, with the service worker and the camera and microphone API', async () => {
    const { page, base } = await memberPage(PHONE);
    const response = await page.goto(base);
    expect(response?.status()).toBe(200);
    await shown(page.getByTestId('home-name'));
    const facts = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: true });
      const kinds = stream.getTracks().map((t) => t.kind).sort();
      stream.getTracks().forEach((t) => t.stop());
      return { secure: window.isSecureContext, origin: location.origin, scope: registration.scope, kinds };
    });
    expect(facts).toEqual({ secure: true, origin: base, scope: `${base}/`, kinds: ['audio', 'video'] });
  });

  it('refuses a certificate the household CA signed for a public name (example.com): the name constraints hold', async () => {
    const context = await browser.newContext(DESKTOP);
    contexts.push(context);
    const page = await context.newPage();
    const port = (rogue.address() as AddressInfo).port;
    const open = (host: string) =>
      page.goto(`https://${host}:${port}/`).then(
        (r) => `${r?.status()}`,
        (err: Error) => /net::ERR_[A-Z_]+/.exec(err.message)?.[0] ?? err.message,
      );
    expect(await open('printer.local')).toBe('200');
    expect(await open('example.com')).toMatch(/^net::ERR_CERT_(INVALID|AUTHORITY_INVALID)$/);
  });

  it('the plain address offers the secure one once the device trusts it, and remembers “always”', async () => {
    const plain = `http://${NAME}:${new URL(server!.url).port}`;
    const context = await browser.newContext(PHONE);
    contexts.push(context);
    // the session cookie is not tied to a port or, without Secure, to a scheme: one sign-in serves both
    await context.addCookies([{ name: 'session', value: server!.member.cookie!.slice('session='.length), url: plain, httpOnly: true, sameSite: 'Lax' }]);
    const page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(plain);
    await shown(page.getByTestId('home-name'));
    expect(await page.evaluate(() => ({ secure: window.isSecureContext, worker: 'serviceWorker' in navigator }))).toEqual({ secure: false, worker: false });
    const offer = page.getByTestId('secure-offer');
    await shown(offer);
    expect(await offer.textContent()).toContain('This device trusts Hearth’s secure address');
    await page.getByTestId('secure-offer-always').tap();
    await page.waitForURL(`https://${NAME}:${httpsPort}/`);
    await shown(page.getByTestId('home-name'));
    expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
    // remembered on this device: the plain address goes straight to the secure one
    await page.goto(`${plain}/inventory`);
    await page.waitForURL(`https://${NAME}:${httpsPort}/inventory`);

    // the Trust page there says this device trusts it already
    await page.goto(`${plain}/trust`);
    await page.waitForURL(`https://${NAME}:${httpsPort}/trust`);
    await shown(page.getByTestId('trust-already'));
  });

  it('the Trust page’s Check on the plain address says the device trusts Hearth and opens the secure address', async () => {
    const plain = `http://${NAME}:${new URL(server!.url).port}`;
    const context = await browser.newContext(DESKTOP);
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${plain}/trust`);
    await page.getByTestId('trust-check').click();
    const result = page.getByTestId('trust-result');
    await shown(result);
    expect(await result.textContent()).toContain('This device trusts Hearth.');
    await result.getByRole('link', { name: 'Open the secure address' }).click();
    await page.waitForURL(`https://${NAME}:${httpsPort}/`);
  });

  it('with the server stopped, the installed app opens on its offline screen at the secure address', async () => {
    const { page, base } = await memberPage(DESKTOP);
    await page.goto(base);
    await shown(page.getByTestId('home-name'));
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await server!.close();
    server = undefined;
    await page.reload();
    await shown(page.getByTestId('not-reachable'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Hearth is not reachable');
    expect(page.url()).toBe(`${base}/`);
  });
});
