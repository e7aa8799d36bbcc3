// DNS rebinding against a fresh install, in a real browser: a page on a public name the attacker
// controls, made to resolve to the household computer (here with Chromium's --host-resolver-rules),
// is same-origin with itself, so the Origin check passes. It can load the web app and walk the
// wizard, but the first admin is refused (403 bad_host) with a message saying where to set up, and
// nothing is created. The same install still sets up from its own address afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const REBOUND = 'hearth-setup.attacker.example';

describe('first run through a rebound public name', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    requireBuiltWebApp();
    server = await startTestServer({ seed: 'empty' });
    browser = await launchChromium([`--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const createAdmin = async (base: string) => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto(base);
    await shown(page.getByRole('heading', { name: 'Welcome to Hearth' }));
    await page.getByRole('button', { name: 'Get started' }).tap();
    await shown(page.getByRole('heading', { name: 'Create the admin profile' }));
    await page.getByLabel('Your name').fill('Mallory');
    await page.getByLabel('PIN', { exact: true }).fill('2468');
    await page.getByLabel('Confirm PIN').fill('2468');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/setup/admin'));
    await page.getByRole('button', { name: 'Create admin' }).tap();
    return { page, context, status: (await answer).status() };
  };

  it('refuses the first admin through the rebound name and says where to set up; nothing is created', async () => {
    const port = new URL(server.url).port;
    const { page, context, status } = await createAdmin(`http://${REBOUND}:${port}/`);
    expect(status).toBe(403);
    await shown(page.getByText(/Create the first admin from Hearth’s own address/));
    await page.screenshot({ path: '/tmp/hearth-phone-setup-rebinding.png' });
    expect((await server.anon.get('/api/setup/status')).body.needsAdmin).toBe(true);
    expect(await server.handle.deps.db('users').count({ n: '*' }).first()).toEqual({ n: 0 });
    await context.close();
  });

  it('the same install still sets up from its own address', async () => {
    const { context, status } = await createAdmin(server.url);
    expect(status).toBe(201);
    expect((await server.anon.get('/api/setup/status')).body.needsAdmin).toBe(false);
    await context.close();
  });
});
