// Setup plan, downloads and features in a real browser: the wizard shows this computer and the
// plan, explains that models need the runtime while it is down, installs the essentials from a fake
// model runtime with live progress (resuming after a reload at the plan and mid-install), then the Downloads page follows a throttled download that the
// admin cancels, waiting jobs the admin reorders while the queue is paused, a failed one (404) that
// the admin retries; the Features page installs an item, and a member sees the queue read-only.
// Needs the built web app (`npm run build:web`).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext, toastSays } from '../harness/browser.js';
import type { HardwareProfile } from '../../server/platform/hardware.js';
import { FakeFileServer, makeContent, sha256 } from '../fakes/file-server.js';
import { pullable, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import type { TestClient } from '../harness/client.js';
import { openFromNav } from '../harness/nav.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';


const GB = 1024 ** 3;
const ADMIN = { name: 'Robin', pin: '2468' };
const MEMBER = { name: 'Kim', pin: '1357' };

const HARDWARE: HardwareProfile = {
  platform: 'linux',
  arch: 'x64',
  cpu: { brand: 'Test CPU', cores: 4 },
  memoryBytes: 16 * GB,
  gpus: [],
  appleSiliconGeneration: null,
  diskFreeBytes: 200 * GB,
};



/** The feature catalog the server loads: three essentials from the fake runtime, extras from the file server. */
function writeCatalog(dir: string, files: FakeFileServer, content: { tools: Buffer; maps: Buffer; engine: Buffer }): string {
  const model = (label: string, target: string, sizeBytes: number) => ({ type: 'model', kind: 'runtime_model', hostClass: 'model_runtime', label, target, sizeBytes });
  const file = (label: string, name: string, data: Buffer, destination: string, hostClass: string, throttleBps?: number) => ({
    type: 'component',
    kind: 'component',
    label,
    target: files.addBuffer(name, data, throttleBps ? { throttleBps } : {}),
    destination,
    sizeBytes: data.length,
    sha256: sha256(data),
    hostClass,
  });
  const item = (id: string, name: string, description: string, diskBytes: number, ramBytes: number, installs: string[], extra: object = {}) => ({
    id,
    name,
    description,
    diskBytes,
    ramBytes,
    sizing: 'fixed',
    installs: installs.map((a) => ({ id: a, type: 'model' })),
    ...extra,
  });
  const catalog = {
    artifacts: {
      'small:3b': model('Small 3B model', 'small:3b', 3_000_000),
      'large:14b': model('Large 14B model', 'large:14b', 9_000_000),
      embed: model('Embedding model', 'embed', 500_000),
      'router:1b': model('Router model', 'router:1b', 800_000),
      'archive-tools': file('Archive tools', 'tools.tgz', content.tools, 'components/tools.tgz', 'code_host'),
      // ~40 KB/s: keeps running for the whole Downloads test
      'maps-toolchain': file('Maps toolchain', 'maps.tgz', content.maps, 'components/maps.tgz', 'maps', 40 * 1024),
      'image-engine': file('Image engine files', 'engine.tgz', content.engine, 'components/engine.tgz', 'image_engine'),
      'voice-model': {
        type: 'model',
        kind: 'model',
        label: 'Voice model',
        target: `${files.url}/missing/voice.bin`,
        destination: 'models/voice.bin',
        sizeBytes: 1_000_000,
        hostClass: 'model_hub',
      },
    },
    essentials: { chat: 'chat-base', embeddings: 'embeddings', router: 'router' },
    groups: [
      {
        id: 'chat',
        name: 'Chat',
        base: item('chat-base', 'Chat with a local model', 'Private chat on this computer.', 0, 0, []),
        items: [
          item('embeddings', 'Search memory', 'Lets chat and search find things by meaning.', 500_000, GB / 2, ['embed']),
          item('router', 'Quick router', 'Decides which tool answers a question.', 800_000, 2 * GB, ['router:1b']),
        ],
        categories: [
          {
            id: 'chat-models',
            name: 'Chat models',
            items: [
              item('chat-small', 'Small chat model', 'Quick answers on almost any computer.', 3_000_000, 4 * GB, ['small:3b']),
              item('chat-large', 'Large chat model', 'Careful answers; needs 24 GB.', 9_000_000, 24 * GB, ['large:14b']),
            ],
          },
        ],
      },
      { id: 'images', name: 'Images', base: item('images-base', 'Image engine', 'Creates pictures on this computer.', content.engine.length, 4 * GB, ['image-engine']) },
      { id: 'voice', name: 'Voice', base: item('voice-base', 'Voice', 'Talk to Hearth and hear it answer.', 1_000_000, GB, ['voice-model']) },
      { id: 'library', name: 'Library', base: item('library-base', 'Offline library', 'Encyclopedias and books without internet.', content.tools.length, GB / 4, ['archive-tools']) },
      { id: 'maps', name: 'Maps', base: item('maps-base', 'Offline maps', 'Maps and directions with no internet.', content.maps.length, GB / 4, ['maps-toolchain']) },
    ],
  };
  const out = path.join(dir, 'features.json');
  writeFileSync(out, JSON.stringify(catalog));
  return out;
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  return v;
}

describe('setup plan, downloads and features in the browser', () => {
  const temp = makeTempDir();
  let files: FakeFileServer;
  let runtime: FakeModelRuntime;
  let server: TestServer;
  let browser: Browser;
  let phone: BrowserContext;
  let page: Page;
  let admin: TestClient;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    requireBuiltWebApp();
    files = await new FakeFileServer().start();
    // ~2 s per model pull, so the install is visibly in progress
    runtime = await startFakeModelRuntime({
      models: [],
      pullable: [pullable('small:3b', 3_000_000), pullable('embed:latest', 500_000), pullable('router:1b', 800_000)],
      chunkDelayMs: 250,
    });
    const catalog = writeCatalog(temp.dir, files, { tools: makeContent(64 * 1024, 1), maps: makeContent(2 * 1024 * 1024, 2), engine: makeContent(128 * 1024, 3) });
    server = await startTestServer({
      seed: 'empty',
      config: { featureCatalogPath: catalog, fetchAllowOrigins: [files.url], modelRuntimeUrl: runtime.url },
      overrides: { hardware: async () => HARDWARE, tuning: { downloadBackoffBaseMs: 20 } },
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
    await runtime?.close();
    temp.remove();
  });

  it('walks the wizard on a phone: computer, plan, install with progress, resuming after reloads', async () => {
    await page.goto(server.url);
    await shown(page.getByRole('heading', { name: 'Welcome to Hearth' }));
    await page.getByRole('button', { name: 'Get started' }).tap();
    await page.getByLabel('Your name').fill(ADMIN.name);
    await page.getByLabel('PIN', { exact: true }).fill(ADMIN.pin);
    await page.getByLabel('Confirm PIN').fill(ADMIN.pin);
    await page.getByRole('button', { name: 'Create admin' }).tap();
    await shown(page.getByTestId('runtime-status').getByText('is running'));
    await page.getByRole('button', { name: 'Continue' }).tap();

    // this computer, in plain words
    await shown(page.getByRole('heading', { name: 'Your computer' }));
    const facts = page.getByTestId('hardware-summary');
    await shown(facts);
    expect(await facts.textContent()).toContain('16 GB');
    expect(await facts.textContent()).toContain('Test CPU, 4 cores');
    expect(await facts.textContent()).toContain('None found');
    await shown(page.getByText('AI models run on the processor'));
    await page.screenshot({ path: '/tmp/hearth-phone-setup-computer.png', fullPage: true });
    await page.getByRole('button', { name: 'Continue' }).tap();

    // the plan: fitted chat model + two essentials, suggested extras checked, a slow one marked
    await shown(page.getByRole('heading', { name: 'Your plan' }));
    const essentials = page.getByTestId('plan-essentials');
    await shown(essentials.getByText('Small chat model'));
    await shown(essentials.getByText('Search memory'));
    await shown(essentials.getByText('Quick router'));
    expect(await essentials.textContent()).toContain('3.00 MB download · needs 4 GB of memory');
    const library = page.getByRole('checkbox', { name: 'Offline library' });
    const voice = page.getByRole('checkbox', { name: 'Voice' });
    expect(await library.isChecked()).toBe(true);
    expect(await voice.isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Offline maps' }).isChecked()).toBe(false);
    const large = page.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: 'Large chat model' }) });
    await shown(large.getByText('May be slow on this computer'));
    const total = page.getByTestId('plan-total');
    const before = await total.textContent();
    expect(before).toContain('free');

    const saved = page.waitForResponse((r) => r.url().endsWith('/api/setup/state') && r.request().method() === 'PUT');
    await voice.tap();
    expect((await saved).status()).toBe(200);
    expect(await voice.isChecked()).toBe(false);
    expect(await total.textContent()).not.toBe(before);
    await page.screenshot({ path: '/tmp/hearth-phone-setup-plan.png', fullPage: true });

    // a reload resumes at the plan with the same choices
    await page.reload();
    await shown(page.getByRole('heading', { name: 'Your plan' }));
    await shown(page.getByRole('checkbox', { name: 'Offline library' }));
    expect(await page.getByRole('checkbox', { name: 'Offline library' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Voice' }).isChecked()).toBe(false);

    // without the model runtime the essentials cannot install: say so, offer to go on without them
    await runtime.setMode('down');
    await page.getByRole('button', { name: 'Install' }).tap();
    await shown(page.getByRole('heading', { name: 'Models need Ollama' }));
    await shown(page.getByTestId('install-not-installed'));
    await shown(page.getByRole('button', { name: 'Continue without the models' }));
    expect(await page.getByTestId('install-no-runtime').textContent()).toContain('install the essentials later from Features');
    await page.screenshot({ path: '/tmp/hearth-phone-setup-no-runtime.png' });
    await runtime.setMode('ok');

    // install: a progress bar per job, live
    await page.getByRole('button', { name: 'Check again' }).tap();
    await shown(page.getByRole('heading', { name: 'Installing' }));
    const jobs = page.getByTestId('install-jobs');
    await shown(jobs);
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid="install-jobs"] [role="progressbar"]')].some((e) => Number(e.getAttribute('aria-valuenow')) > 0),
      undefined,
      { timeout: 20_000 },
    );
    await page.screenshot({ path: '/tmp/hearth-phone-setup-installing.png', fullPage: true });
    expect(await jobs.textContent()).toMatch(/Small 3B model|Embedding model|Router model/);

    // a reload mid-install re-attaches to the same jobs
    const status = await server.anon.get('/api/setup/status');
    expect(status.body.state).toMatchObject({ step: 'install', extras: ['library-base'] });
    await page.reload();
    await shown(page.getByRole('heading', { name: /Installing|Essentials installed/ }));
    await shown(page.getByRole('heading', { name: 'Essentials installed' }), 60_000);
    await shown(page.getByText('One more download continues'));
    await page.screenshot({ path: '/tmp/hearth-phone-setup-installed.png', fullPage: true });
    expect(runtime.models.map((m) => m.name)).toEqual(expect.arrayContaining(['small:3b', 'embed:latest', 'router:1b']));

    await page.getByRole('button', { name: 'Continue' }).tap();
    await shown(page.getByRole('heading', { name: `You’re all set, ${ADMIN.name}` }));
    await page.getByRole('button', { name: 'Open Hearth' }).tap();
    await shown(page.getByTestId('home-name'));

    const profiles: Array<{ id: string; name: string }> = (await server.anon.get('/api/auth/profiles')).body.profiles;
    admin = await server.signIn(profiles.find((p) => p.name === ADMIN.name)!.id, ADMIN.pin);
    // the extra went to the queue after the essentials
    const queue = await until(
      () => admin.get('/api/jobs/status'),
      (r) => r.body.jobs.some((j: any) => j.label === 'Archive tools' && j.state === 'completed'),
    );
    expect(queue.body.jobs.find((j: any) => j.label === 'Archive tools')?.state).toBe('completed');
    expect((await admin.get('/api/app-features')).body.features).toMatchObject({ 'chat-small': true, embeddings: true, router: true, 'library-base': true });
  });

  it('shows a running download with progress on the Downloads page, and the admin pauses the queue and cancels it', async () => {
    expect((await admin.post('/api/admin/install', { items: ['maps-base'] })).status).toBe(202);
    await openFromNav(page, 'Downloads');
    await shown(page.getByRole('heading', { name: 'Downloads', exact: true }));

    const running = page.getByTestId('jobs-running');
    const row = running.getByRole('listitem').filter({ hasText: 'Maps toolchain' });
    await shown(row);
    const bar = row.getByRole('progressbar', { name: 'Maps toolchain progress' });
    await shown(bar);
    // the next polls show bytes moving, with a speed
    await page.waitForFunction(() => {
      const text = document.querySelector('[data-testid="jobs-running"] .job-progress__text')?.textContent ?? '';
      return /of 2\.10 MB/.test(text) && /KB\/s/.test(text);
    });
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    // what already finished sits under Done
    await shown(page.getByTestId('jobs-done').getByText('Archive tools'));
    await page.screenshot({ path: '/tmp/hearth-phone-downloads-running.png', fullPage: true });

    // pause and resume the queue
    await page.getByRole('button', { name: 'Pause queue' }).tap();
    await shown(page.getByTestId('paused-banner'));
    expect((await admin.get('/api/jobs/status')).body.paused).toBe(true);

    // while paused, new jobs wait in line; the admin moves one up
    const raw = (label: string, name: string, seed: number) => ({
      kind: 'component',
      target: files.addBuffer(name, makeContent(8 * 1024, seed)),
      destination: `components/${name}`,
      label,
      hostClass: 'code_host',
      expectedBytes: 8 * 1024,
    });
    expect((await admin.post('/api/admin/queue/jobs', { jobs: [raw('First file', 'first.bin', 4), raw('Second file', 'second.bin', 5)] })).status).toBe(201);
    const waiting = page.getByTestId('jobs-waiting');
    await shown(waiting.getByText('Second file'));
    const order = () => waiting.locator('.job__label').allTextContents();
    expect(await order()).toEqual(['First file', 'Second file']);
    await shown(waiting.getByText('starts when the queue is resumed').first());
    const moved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/api/admin/queue/'));
    await waiting.getByRole('button', { name: 'Move Second file up' }).tap();
    expect((await moved).status()).toBe(200);
    await expect.poll(order).toEqual(['Second file', 'First file']);
    await page.screenshot({ path: '/tmp/hearth-phone-downloads-waiting.png', fullPage: true });

    await page.getByRole('button', { name: 'Resume queue' }).tap();
    await gone(page.getByTestId('paused-banner'));
    await shown(page.getByTestId('jobs-done').getByText('Second file'));

    // cancel, after confirming
    await row.getByRole('button', { name: 'Cancel Maps toolchain' }).tap();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel Maps toolchain?' });
    await shown(confirm);
    await page.screenshot({ path: '/tmp/hearth-phone-downloads-cancel.png' });
    const cancelled = page.waitForResponse((r) => /\/api\/jobs\/[^/]+\/cancel$/.test(r.url()));
    await confirm.getByRole('button', { name: 'Cancel download' }).tap();
    expect((await cancelled).status()).toBe(200);
    await gone(confirm);
    const stopped = page.getByTestId('jobs-failed').getByRole('listitem').filter({ hasText: 'Maps toolchain' });
    await shown(stopped);
    await shown(stopped.getByText('Cancelled', { exact: true }));
    await toastSays(page, 'Maps toolchain was cancelled.');
    const job = (await admin.get('/api/jobs/status')).body.jobs.find((j: any) => j.label === 'Maps toolchain');
    expect(job.state).toBe('cancelled');
  });

  it('shows a failed download with its error, and Retry tries it again', async () => {
    expect((await admin.post('/api/admin/install', { items: ['voice-base'] })).status).toBe(202);
    const failed = page.getByTestId('jobs-failed');
    const row = failed.getByRole('listitem').filter({ hasText: 'Voice model' });
    await shown(row);
    await shown(row.getByText(/no longer where Hearth looked for it/));
    await shown(page.getByRole('button', { name: 'Retry all failed' }));
    await page.screenshot({ path: '/tmp/hearth-phone-downloads-failed.png', fullPage: true });

    const before = files.requests.filter((r) => r.path === 'missing/voice.bin').length;
    const retried = page.waitForResponse((r) => /\/api\/jobs\/[^/]+\/retry$/.test(r.url()));
    await row.getByRole('button', { name: 'Retry Voice model' }).tap();
    expect((await retried).status()).toBe(200);
    await toastSays(page, 'Trying Voice model again.');
    // it really went back to the server, and failed the same way
    await until(
      async () => files.requests.filter((r) => r.path === 'missing/voice.bin').length,
      (n) => n > before,
    );
    await shown(row.getByText(/no longer where Hearth looked for it/));
  });

  it('installs an item from the Features page and links to its download', async () => {
    await openFromNav(page, 'Features');
    await shown(page.getByRole('heading', { name: 'Features', exact: true }));
    const engine = page.getByTestId('feature-images-base');
    await shown(engine.getByText('Not installed'));
    expect(await page.getByTestId('feature-chat-large').textContent()).toContain('May be slow on this computer');
    await shown(page.getByTestId('feature-library-base').getByText('Installed'));
    await page.screenshot({ path: '/tmp/hearth-phone-features.png', fullPage: true });

    await engine.getByRole('button', { name: 'Install Image engine' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Install Image engine?' });
    await shown(dialog);
    expect(await dialog.getByTestId('install-size').textContent()).toContain('131 KB');
    await page.screenshot({ path: '/tmp/hearth-phone-features-install.png' });
    const installed = page.waitForResponse((r) => r.url().endsWith('/api/admin/install'));
    await dialog.getByRole('button', { name: 'Install', exact: true }).tap();
    expect((await installed).status()).toBe(202);
    await gone(dialog);
    const notice = page.getByTestId('features-notice');
    await shown(notice.getByText('Image engine is downloading.'));
    await shown(engine.getByText('Installed'), 30_000);
    const toggle = engine.getByRole('switch', { name: 'Use Image engine' });
    expect(await toggle.isChecked()).toBe(true);

    // switch it off: the flag follows
    const put = page.waitForResponse((r) => r.url().endsWith('/api/app-features/images-base'));
    await engine.locator('.switch').tap();
    expect((await put).status()).toBe(200);
    expect((await admin.get('/api/app-features')).body.features['images-base']).toBe(false);
    // the page applies the answer after Playwright has seen it: wait for the switch to show it
    await shown(engine.getByRole('switch', { name: 'Use Image engine', checked: false }));
    expect(await toggle.isChecked()).toBe(false);

    // the link after an install leads to Downloads, where it is listed as done
    await engine.getByRole('button', { name: 'Uninstall Image engine' }).tap();
    const remove = page.getByRole('alertdialog', { name: 'Uninstall Image engine?' });
    await remove.getByRole('button', { name: 'Uninstall', exact: true }).tap();
    await gone(remove);
    await shown(engine.getByText('Not installed'));
    await engine.getByRole('button', { name: 'Install Image engine' }).tap();
    await dialog.getByRole('button', { name: 'Install', exact: true }).tap();
    await notice.getByRole('link', { name: 'Follow it on Downloads' }).tap();
    await shown(page.getByRole('heading', { name: 'Downloads', exact: true }));
    await shown(page.getByRole('listitem').filter({ hasText: 'Image engine files' }).first());
  });

  it('shows a member the queue read-only', async () => {
    const created = await admin.post('/api/admin/users', { ...MEMBER, role: 'member' });
    expect(created.status).toBe(201);
    const member = await server.signIn(created.body.user.id, MEMBER.pin);
    const desktop = await signedInContext(browser, server.url, member.cookie!, DESKTOP);
    try {
      const web = await desktop.newPage();
      web.on('pageerror', (err) => pageErrors.push(err.message));
      await web.goto(`${server.url}/downloads`);
      await shown(web.getByRole('heading', { name: 'Downloads', exact: true }));
      const failedRow = web.getByTestId('jobs-failed').getByRole('listitem').filter({ hasText: 'Voice model' });
      await shown(failedRow.getByText(/no longer where Hearth looked for it/));
      expect(await web.getByRole('button', { name: /Retry|Cancel|Pause queue|Resume queue/ }).count()).toBe(0);
      expect(await web.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Features' }).count()).toBe(0);
      await web.screenshot({ path: '/tmp/hearth-desktop-downloads-member.png', fullPage: true });
    } finally {
      await desktop.close();
    }
    expect(pageErrors).toEqual([]);
  });
});
