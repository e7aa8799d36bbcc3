// Nothing shown as working that is not: with no archive and the model runtime down, the App Store
// and Features say what cannot work yet, why, and what to do; with the runtime up and a chat model
// chosen, chat is ready. Members are not offered an extension that cannot work. Home shows no
// placeholder, and its widget picker offers only widgets that do something.
// Needs the built web app (`npm run build:web`).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { CHAT_MODEL, EMBEDDING_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shellSettled, shown, signedInContext } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('honest states in the browser', () => {
  let server: TestServer;
  let fake: FakeModelRuntime;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  async function open(as: 'admin' | 'member', device: typeof PHONE | typeof DESKTOP, pathname: string): Promise<Page> {
    const ctx = await signedInContext(browser, server.url, (as === 'admin' ? server.admin : server.member).cookie!, device);
    contexts.push(ctx);
    const page = await ctx.newPage();
    page.on('pageerror', (err) => pageErrors.push(`${as}: ${err.message}`));
    await page.goto(`${server.url}${pathname}`);
    await shellSettled(page);
    return page;
  }

  beforeAll(async () => {
    requireBuiltWebApp();
    // the runtime has no chat model yet (one it had would be adopted: chat would work)
    fake = await startFakeModelRuntime({ models: [EMBEDDING_MODEL] });
    server = await startTestServer({ seed: 'household', overrides: { modelRuntime: createOllamaClient({ baseUrl: fake.url, timeoutMs: 2000 }) } });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  beforeEach(async () => {
    await fake.setMode('ok');
    await server.handle.deps.settings.delete('chat_model');
  });

  it('App Store, admin on a phone: archive search with no archive is not ready, with the reason and the fix', async () => {
    const page = await open('admin', PHONE, '/apps');
    await shown(page.getByRole('heading', { name: 'App Store' }));
    // the page offers Get and Remove, not switches, and says so
    await shown(page.getByText('Get apps for the whole household, or remove the ones you do not use.'));
    expect(await page.getByText('Switch apps on or off').count()).toBe(0);

    const search = page.getByTestId('store-item-archive_search');
    await shown(search.getByTestId('not-ready-pill'));
    expect(await search.getByTestId('installed-pill').count()).toBe(0);
    expect(await search.textContent()).not.toContain('Installed');
    await shown(search.getByText('No archive is installed yet.'));
    await shown(search.getByText('Install an archive from Admin › Archives.'));
    // the Library opens (its page explains the empty shelves) and says it has nothing to read yet
    const library = page.getByTestId('store-item-library');
    await shown(library.getByRole('link', { name: 'Open Library' }));
    await shown(library.getByText('No archive is installed yet.'));
    // Reader needs nothing more: no note
    expect(await page.getByTestId('store-item-reader').getByTestId('not-ready').count()).toBe(0);
    await page.screenshot({ path: '/tmp/hearth-phone-app-store-not-ready.png', fullPage: true });
  });

  it('App Store, member: an extension that cannot work yet is not listed; an app says it is waiting for an admin', async () => {
    const page = await open('member', PHONE, '/apps');
    await shown(page.getByTestId('store-item-reader').getByRole('link', { name: 'Open Reader' }));
    expect(await page.getByTestId('store-item-archive_search').count()).toBe(0);
    expect(await page.getByTestId('installed-pill').count()).toBe(0);
    // the fix is an admin's: a member is told an admin can set it up, not where the admin pages are
    const library = page.getByTestId('store-item-library');
    await shown(library.getByText('No archive is installed yet.'));
    await shown(library.getByText('An admin can set it up.'));
    expect(await library.textContent()).not.toContain('Admin ›');
  });

  it('Features with the model runtime down: chat says Ollama is not running and how to start it, with no switch', async () => {
    await server.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    await fake.setMode('down');
    const page = await open('admin', DESKTOP, '/features');
    const chat = page.getByTestId('feature-chat-base');
    await shown(chat.getByText('Not ready'));
    await shown(chat.getByText('The model runtime (Ollama) is not running on the Hearth computer.'));
    await shown(chat.getByText('Start Ollama on the Hearth computer.'));
    expect(await chat.getByRole('switch').count()).toBe(0);
    expect(await chat.textContent()).not.toContain('Installed');
    // a model cannot be installed without the runtime: the button is off and says why
    const install = page.getByTestId('feature-chat-small').getByRole('button', { name: 'Install Small chat model (3B)' });
    expect(await install.isDisabled()).toBe(true);
    await shown(page.getByTestId('feature-chat-small').getByText('Start Ollama on the Hearth computer.'));
    // what does not need the runtime is unaffected
    expect(await page.getByTestId('feature-library-base').getByRole('button', { name: 'Install Offline library' }).isDisabled()).toBe(false);
    await page.screenshot({ path: '/tmp/hearth-desktop-features-runtime-down.png', fullPage: true });
  });

  it('Features with the runtime up but no chat model: says to install one; with one chosen, chat is ready and switchable', async () => {
    const page = await open('admin', PHONE, '/features');
    const chat = page.getByTestId('feature-chat-base');
    await shown(chat.getByText('No chat model is installed yet.'));
    await shown(chat.getByText('Install a chat model in Admin › Features.'));
    expect(await chat.getByRole('switch').count()).toBe(0);

    fake.models = [CHAT_MODEL, EMBEDDING_MODEL];
    await server.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    await page.reload();
    await shown(chat.getByText('Ready', { exact: true }));
    await shown(chat.getByText('Summarize and Ask in the Reader use it.'));
    await shown(chat.getByRole('switch', { name: 'Use Chat with a local model' }));
    expect(await chat.getByTestId('not-ready').count()).toBe(0);
  });

  it('Home: a saved layout with the old placeholders shows none of them, and the picker offers only widgets that work', async () => {
    // a layout saved before: every header placeholder on, and an archive search card
    const old = {
      header: { weather: true, jokes: true, sports: true, locked: false },
      canvas: [
        { id: 'row-search', cols: [{ toolId: 'archive_search', colSpan: 1 }, { toolId: 'library', colSpan: 1 }] },
        { id: 'row-reader', cols: [{ toolId: 'reader', colSpan: 2 }] },
      ],
    };
    expect((await server.member.put('/api/home-layout', old)).status).toBe(200);
    const page = await open('member', PHONE, '/');
    await shown(page.getByTestId('widget-reader'));
    await shown(page.getByTestId('widget-library'));
    expect(await page.getByTestId('widget-archive_search').count()).toBe(0);
    expect(await page.getByTestId('home-header').count()).toBe(0);
    for (const text of ['Arrives in a later update', 'No weather source', 'Joke of the day', 'Scores']) expect(await page.getByText(text).count()).toBe(0);
    // the Library's card says it has nothing to read yet, rather than inviting a visit to empty shelves
    await shown(page.getByTestId('widget-library').getByText('No archive is installed yet.'));
    await page.screenshot({ path: '/tmp/hearth-phone-home-honest.png', fullPage: true });

    await page.getByRole('button', { name: 'Edit home' }).tap();
    const editor = page.getByTestId('layout-editor');
    await shown(editor);
    expect(await editor.getByRole('switch').count()).toBe(0);
    expect(await editor.getByText('Top of the screen').count()).toBe(0);
    // the retired card is not in the editor either, and saving drops it for good
    expect(await editor.getByTestId('editor-widget-archive_search').count()).toBe(0);
    await editor.getByRole('button', { name: 'Add a row' }).tap();
    const picker = page.getByRole('dialog', { name: 'Add a widget' });
    await shown(picker);
    const offered = await picker.locator('.widget-choice').allTextContents();
    // the areas that exist, each a widget that does something; Downloads is an admin's, never a member's
    const names = offered.map((t) => t.trim());
    expect(names).toEqual(expect.arrayContaining(['Library', 'Reader', 'Chat', 'Continue watching', 'Recent pictures']));
    expect(names).not.toContain('Downloads');
    await picker.getByRole('button', { name: 'Reader' }).tap();
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/home-layout' && r.request().method() === 'PUT');
    await editor.getByRole('button', { name: 'Save' }).tap();
    expect((await saved).status()).toBe(200);
    const stored = (await server.member.get('/api/home-layout')).body.layout;
    expect(stored.canvas.flatMap((r: any) => r.cols.map((c: any) => c.toolId))).toEqual(['library', 'reader', 'reader']);
    expect(pageErrors).toEqual([]);
  });
});
