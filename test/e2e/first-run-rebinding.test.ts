// DNS rebinding against a fresh install, in a real browser: a page on a public name the attacker
// controls, made to resolve to the household computer (here with Chromium's --host-resolver-rules),
// is same-origin with itself, so the Origin check passes. Hearth answers nothing under that name:
// the web app and the docs are a page saying which address to open, and every /api route (the
// anonymous ones a script there would use: profiles, select, verify-pin, setup) is 403 bad_host,
// so nothing is created. The same install still sets up from its own address afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
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

  it.each([
    ['a phone', PHONE, 'phone'],
    ['a laptop', DESKTOP, 'desktop'],
  ] as const)('refuses the whole app through the rebound name on %s and says which address to open; nothing is created', async (_label, device, shot) => {
    const port = new URL(server.url).port;
    const context = await browser.newContext(device);
    const page = await context.newPage();
    for (const p of ['/', '/setup', '/docs/']) {
      const answer = await page.goto(`http://${REBOUND}:${port}${p}`);
      expect(answer?.status(), p).toBe(403);
      await shown(page.getByRole('heading', { name: 'Open Hearth at its own address' }));
      await shown(page.getByRole('link', { name: new RegExp(`^http://.+:${port}$`) }).first());
      expect(await page.getByText('Welcome to Hearth').count(), p).toBe(0);
    }
    await page.screenshot({ path: `/tmp/hearth-${shot}-wrong-host.png` });
    // what the attacker's script on a page under that name would call (the page here is Hearth's
    // own refusal, its CSP set aside to stand in for the attacker's): all refused before anything happens
    const attacker = await browser.newContext({ ...device, bypassCSP: true });
    const evil = await attacker.newPage();
    await evil.goto(`http://${REBOUND}:${port}/`);
    const answers = await evil.evaluate(async () => {
      const call = async (path: string, body?: unknown) => {
        const r = await fetch(path, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return `${r.status} ${((await r.json()) as { error?: { code?: string } }).error?.code}`;
      };
      return [
        await call('/api/auth/profiles'),
        await call('/api/setup/status'),
        await call('/api/setup/admin', { name: 'Mallory', pin: '2468' }),
        await call('/api/auth/verify-pin', { userId: 'x', pin: '1234' }),
      ];
    });
    expect(answers).toEqual(['403 bad_host', '403 bad_host', '403 bad_host', '403 bad_host']);
    await attacker.close();
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
