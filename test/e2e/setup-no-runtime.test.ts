// The setup wizard on a computer without the model runtime, in a real browser: the plan says first
// that models need Ollama and how to get it, pre-checks no model, Install queues what needs no
// runtime (shown on Downloads) and the wizard says what it left out and why; the admins also get a
// notification. On a 390 px phone, with the plan looked at on a laptop too.
// Needs the built web app (`npm run build:web`).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeFileServer, makeContent, sha256 } from '../fakes/file-server.js';
import { DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { openFromNav } from '../harness/nav.js';
import { startTestServer, TEST_HARDWARE, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const GB = 1024 ** 3;
const ADMIN = { name: 'Robin', pin: '2468' };

function writeCatalog(dir: string, files: FakeFileServer): string {
  const model = (label: string, target: string, sizeBytes: number) => ({ type: 'model', kind: 'runtime_model', hostClass: 'model_runtime', label, target, sizeBytes });
  // ~20 KB/s: the downloads are still there when the Downloads page is opened
  const file = (label: string, name: string, data: Buffer, destination: string, hostClass: string) => ({
    type: 'component',
    kind: 'component',
    label,
    target: files.addBuffer(name, data, { throttleBps: 20 * 1024 }),
    destination,
    sizeBytes: data.length,
    sha256: sha256(data),
    hostClass,
  });
  const item = (id: string, name: string, description: string, diskBytes: number, installs: string[]) => ({
    id,
    name,
    description,
    diskBytes,
    ramBytes: GB / 4,
    sizing: 'fixed',
    installs: installs.map((a) => ({ id: a, type: 'model' })),
  });
  const tools = makeContent(512 * 1024, 1);
  const voice = makeContent(512 * 1024, 2);
  const catalog = {
    artifacts: {
      'small:3b': model('Small 3B model', 'small:3b', 3_000_000),
      embed: model('Embedding model', 'embed', 500_000),
      'router:1b': model('Router model', 'router:1b', 800_000),
      'vision:2b': model('Vision model', 'vision:2b', 2_000_000),
      'archive-tools': file('Archive tools', 'tools.tgz', tools, 'components/tools.tgz', 'code_host'),
      'voice-model': file('Voice model', 'voice.bin', voice, 'models/voice.bin', 'model_hub'),
    },
    essentials: { chat: 'chat-base', embeddings: 'embeddings', router: 'router' },
    groups: [
      {
        id: 'chat',
        name: 'Chat',
        base: item('chat-base', 'Chat with a local model', 'Private chat on this computer.', 0, []),
        items: [
          item('embeddings', 'Search memory', 'Lets chat and search find things by meaning.', 500_000, ['embed']),
          item('router', 'Quick router', 'Decides which tool answers a question.', 800_000, ['router:1b']),
        ],
        categories: [{ id: 'chat-models', name: 'Chat models', items: [{ ...item('chat-small', 'Small chat model', 'Quick answers on almost any computer.', 3_000_000, ['small:3b']), sizing: 'small' }] }],
      },
      { id: 'voice', name: 'Voice', base: item('voice-base', 'Voice', 'Talk to Hearth and hear it answer.', voice.length, ['voice-model']) },
      { id: 'library', name: 'Library', base: item('library-base', 'Offline library', 'Encyclopedias and books without internet.', tools.length, ['archive-tools']) },
      { id: 'home-inventory', name: 'Home inventory', base: item('home-inventory-base', 'Home inventory', 'Photos of your things, recognized.', 2_000_000, ['vision:2b']) },
    ],
  };
  const out = path.join(dir, 'features.json');
  writeFileSync(out, JSON.stringify(catalog));
  return out;
}

/** True when the page is no wider than its viewport (nothing to scroll sideways). */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('setup without the model runtime, in the browser', () => {
  const temp = makeTempDir();
  let files: FakeFileServer;
  let server: TestServer;
  let browser: Browser;
  let phone: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    requireBuiltWebApp();
    files = await new FakeFileServer().start();
    // the harness points the model runtime at a closed port: Ollama is neither running nor found
    server = await startTestServer({
      seed: 'empty',
      config: { featureCatalogPath: writeCatalog(temp.dir, files), fetchAllowOrigins: [files.url] },
      overrides: { hardware: async () => TEST_HARDWARE },
    });
    browser = await launchChromium();
    phone = await browser.newContext(PHONE);
    page = await phone.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await files?.close();
    temp.remove();
  });

  it('plans without models, installs what needs no runtime and says what it left out and why', async () => {
    await page.goto(server.url);
    await shown(page.getByRole('heading', { name: 'Welcome to Hearth' }));
    await page.getByRole('button', { name: 'Get started' }).tap();
    await page.getByLabel('Your name').fill(ADMIN.name);
    await page.getByLabel('PIN', { exact: true }).fill(ADMIN.pin);
    await page.getByLabel('Confirm PIN').fill(ADMIN.pin);
    await page.getByRole('button', { name: 'Create admin' }).tap();
    await shown(page.getByTestId('runtime-status').getByText('Ollama was not found'));
    await page.getByRole('button', { name: 'Continue' }).tap();
    await shown(page.getByRole('heading', { name: 'Your computer' }));
    await page.getByRole('button', { name: 'Continue' }).tap();

    // the plan says first that the models need Ollama, and how to get it
    await shown(page.getByRole('heading', { name: 'Your plan' }));
    const banner = page.getByTestId('plan-no-runtime');
    await shown(banner);
    expect(await banner.textContent()).toContain('ollama.com');
    const essentials = page.getByTestId('plan-essentials');
    await shown(essentials.getByText('Small chat model'));
    expect(await essentials.getByText('Needs Ollama').count()).toBe(3);
    // no model is pre-checked, nor can be checked; the runtime-free extras suggested are
    const inventory = page.getByRole('checkbox', { name: /Home inventory/ });
    expect(await inventory.isChecked()).toBe(false);
    expect(await inventory.isDisabled()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Offline library' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Voice' }).isChecked()).toBe(true);
    // the total counts only what installs now (the two extras, 1 MiB), not the essentials
    expect(await page.getByTestId('plan-total').textContent()).toMatch(/Needs 1\.05 MB/);
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: '/tmp/hearth-phone-setup-plan-no-runtime.png', fullPage: true });

    // the same plan on a laptop (the wizard resumes at the plan)
    const laptop = await browser.newContext({ ...DESKTOP, storageState: await phone.storageState() });
    try {
      const wide = await laptop.newPage();
      await wide.goto(server.url);
      await shown(wide.getByTestId('plan-no-runtime'));
      expect(await wide.getByRole('checkbox', { name: /Home inventory/ }).isDisabled()).toBe(true);
      expect(await fitsWidth(wide)).toBe(true);
      await wide.screenshot({ path: '/tmp/hearth-desktop-setup-plan-no-runtime.png', fullPage: true });
    } finally {
      await laptop.close();
    }

    // Install: the extras that need no runtime are queued, the rest is named with the reason
    await page.getByRole('button', { name: 'Install' }).tap();
    await shown(page.getByRole('heading', { name: 'Models need Ollama' }));
    const left = page.getByTestId('install-not-installed');
    await shown(left);
    const leftText = (await left.textContent()) ?? '';
    for (const name of ['Small chat model', 'Search memory', 'Quick router']) expect(leftText).toContain(name);
    expect(leftText).toContain('ollama.com');
    expect(await page.getByTestId('install-partial-queued').textContent()).toContain('2 downloads');
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: '/tmp/hearth-phone-setup-install-no-runtime.png', fullPage: true });

    await page.getByRole('button', { name: 'Continue without the models' }).tap();
    await shown(page.getByRole('heading', { name: `You’re all set, ${ADMIN.name}` }));
    await page.getByRole('button', { name: 'Open Hearth' }).tap();
    await shown(page.getByTestId('home-name'));

    // what was queued is on Downloads
    await openFromNav(page, 'Downloads');
    await shown(page.getByRole('heading', { name: 'Downloads', exact: true }));
    await shown(page.getByText('Archive tools'));
    await shown(page.getByText('Voice model'));
    expect(await page.getByText('Small 3B model').count()).toBe(0);

    // and the admins were told
    const bell = await page.request.get(`${server.url}/api/notifications`);
    const notes = ((await bell.json()) as { notifications: Array<{ payload: Record<string, string> }> }).notifications;
    expect(notes.find((n) => n.payload.kind === 'setup_models_missing')?.payload.body).toContain('Small chat model');
    expect(pageErrors).toEqual([]);
  });
});
