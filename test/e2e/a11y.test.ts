// axe-core on every page of the web app: the pages before signing in, the setup wizard's steps,
// every page an admin opens on a laptop and every page a member opens on a phone. No page may have
// a serious or critical violation (test/harness/a11y.ts lists them when one does). The signed-out
// pages also log nothing to the console (Lighthouse's best-practices audit counts each error).
// Needs the built web app (`npm run build:web`). One browser; one context per person.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newItemRecord } from '../../server/modules/reader/item-rows.js';
import { ReaderStore } from '../../server/modules/reader/store.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('accessibility of every page (axe: no serious or critical violation)', () => {
  let server: TestServer;
  let fresh: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];
  let articleId: string;

  async function open(as: 'admin' | 'member' | null, device: typeof PHONE | typeof DESKTOP, on = () => server): Promise<Page> {
    const ctx = await signedInContext(browser, on().url, as && (as === 'admin' ? server.admin : server.member).cookie, device);
    contexts.push(ctx);
    const page = await ctx.newPage();
    page.on('pageerror', (err) => pageErrors.push(`${as ?? 'nobody'}: ${err.message}`));
    return page;
  }

  /** Opens a page and waits until it has its heading and nothing is still loading. */
  async function visit(page: Page, url: string): Promise<void> {
    await page.goto(url);
    await settled(page);
  }

  async function settled(page: Page): Promise<void> {
    await shown(page.locator('h1').first());
    await page.waitForFunction(() => !document.querySelector('.state--loading, .splash'));
  }

  beforeAll(async () => {
    requireBuiltWebApp();
    server = await startTestServer({ seed: 'household' });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    const now = new Date().toISOString();
    const text = 'Mix the flour, water, salt and a little yeast the evening before, fold it twice and let it rise overnight. '.repeat(20);
    const article = newItemRecord(
      {
        ownerId: server.users.member.id,
        type: 'offline',
        url: 'https://bread.example/overnight-loaf',
        title: 'An overnight loaf',
        siteName: 'bread.example',
        excerpt: text.slice(0, 120),
        contentHtml: `<p>${text}</p><p>${text}</p>`,
        contentText: `${text}\n${text}`,
        archiveState: 'ready',
        thumbnailState: 'none',
      },
      now,
    );
    const link = newItemRecord(
      { ownerId: server.users.member.id, type: 'live', url: 'https://garden.example/garlic', title: 'Planting garlic in autumn', siteName: 'garden.example', thumbnailState: 'none' },
      now,
    );
    await new ReaderStore(server.handle.deps.db).insertMany(
      [
        { item: article, tags: ['kitchen'] },
        { item: link, tags: [] },
      ],
      now,
    );
    articleId = article.id;
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await fresh?.close();
  });

  it('the profile picker and the PIN screen, with nothing in the console', async () => {
    const page = await open(null, PHONE);
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location().url})`);
    });
    await visit(page, `${server.url}/profiles`);
    await shown(page.getByRole('button', { name: /Sam/ }));
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: /Sam/ }).tap();
    await shown(page.getByTestId('pin-pad'));
    await expectNoSeriousA11yViolations(page);
    expect(consoleErrors).toEqual([]);
  });

  it('every page an admin opens on a laptop', async () => {
    const page = await open('admin', DESKTOP);
    const paths = [
      '/',
      '/reader',
      '/library',
      '/downloads',
      '/apps',
      '/features',
      '/admin/archives',
      '/admin/models',
      '/members',
      '/admin/reader',
      '/home/default',
      `/members/${server.users.member.id}/home`,
    ];
    const failures: string[] = [];
    for (const p of paths) {
      await visit(page, `${server.url}${p}`);
      expect(new URL(page.url()).pathname, p).toBe(p);
      await expectNoSeriousA11yViolations(page).catch((e: Error) => failures.push(e.message));
    }
    expect(failures.join('\n\n')).toBe('');
  });

  it('every page a member opens on a phone', async () => {
    const page = await open('member', PHONE);
    const failures: string[] = [];
    for (const p of ['/', '/reader', `/reader/${articleId}`, '/library', '/downloads', '/apps']) {
      await visit(page, `${server.url}${p}`);
      expect(new URL(page.url()).pathname, p).toBe(p);
      await expectNoSeriousA11yViolations(page).catch((e: Error) => failures.push(e.message));
    }
    expect(failures.join('\n\n')).toBe('');
  });

  it('the setup wizard’s steps, on a new household', async () => {
    fresh = await startTestServer({ seed: 'empty' });
    const page = await open(null, DESKTOP, () => fresh);
    const failures: string[] = [];
    const check = async (heading: string) => {
      await shown(page.getByRole('heading', { name: heading }));
      await expectNoSeriousA11yViolations(page, `setup: ${heading}`).catch((e: Error) => failures.push(e.message));
    };
    await page.goto(fresh.url);
    await check('Welcome to Hearth');
    await page.getByRole('button', { name: 'Get started' }).click();
    await check('Create the admin profile');
    await page.getByLabel('Your name').fill('Alex');
    await page.getByLabel('PIN', { exact: true }).fill('2468');
    await page.getByLabel('Confirm PIN').fill('2468');
    await page.getByRole('button', { name: 'Create admin' }).click();
    await check('Check the model runtime');
    await shown(page.getByTestId('runtime-status').getByText('Ollama was not found'));
    await page.getByRole('button', { name: 'Continue' }).click();
    await check('Your computer');
    await page.getByRole('button', { name: 'Continue' }).click();
    await check('Your plan');
    expect(failures.join('\n\n')).toBe('');
  });

  afterAll(() => {
    expect(pageErrors).toEqual([]);
  });
});
