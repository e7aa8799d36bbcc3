// The image engine page while Hearth sets up the engine's Python packages, in a real browser on a
// phone against the real server and a stand-in "python" (test/fixtures/python-standin.cjs): it
// says "Setting up the image engine (this can take a while)…" with what it is doing and the log's
// newest lines while pip runs; a failed pip is a sentence with Try again, which starts the setup
// again. The engine itself never starts here (no install finishes). Axe finds no serious or
// critical violation. Needs `npm run build:web`.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { until } from '../harness/net.js';
import { makePythonStandin } from '../harness/python-standin.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

describe('the image engine page while the engine is set up', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  const tmp = makeTempDir('engine-install-e2e-');
  const dir = path.join(tmp.dir, 'ComfyUI');
  const packReq = path.join(dir, 'custom_nodes', 'ComfyUI-Impact-Pack', 'requirements.txt');
  const pageErrors: string[] = [];

  beforeAll(async () => {
    requireBuiltWebApp();
    mkdirSync(path.dirname(packReq), { recursive: true });
    copyFileSync(path.resolve(import.meta.dirname, '../fixtures/image-engine-standin.cjs'), path.join(dir, 'main.py'));
    writeFileSync(path.join(dir, 'requirements.txt'), 'torch\nhearth-standin-slow=60000\n');
    writeFileSync(packReq, 'segment-anything\n');
    const standin = makePythonStandin(tmp.dir);
    server = await startTestServer({ seed: 'household' });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    expect((await server.admin.put('/api/admin/image-engine', { installDir: dir, python: standin.python })).status).toBe(200);
    browser = await launchChromium();
    context = await signedInContext(browser, server.url, server.admin.cookie!, PHONE);
  }, 60_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
    tmp.remove();
    expect(pageErrors).toEqual([]);
  });

  it('shows the setup under way with the log, then a failure in a sentence with Try again, which sets it up again', async () => {
    const page: Page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${server.url}/admin/images`);
    const state = page.getByTestId('engine-state');
    const installing = state.getByTestId('engine-installing');
    await shown(installing.getByText('Setting up the image engine (this can take a while)…'));
    await shown(installing.getByText(/Installing what ComfyUI needs \(1 of 2\)…/));
    await shown(installing.getByText(/Hearth installs requirements\.txt/), 20_000);
    await shown(state.getByText('Setting up', { exact: true }));
    expect(await state.getByRole('alert').count()).toBe(0);
    await expectNoSeriousA11yViolations(page, '/admin/images (setting up)');

    // ComfyUI's own packages install quickly now, and the node pack's fail
    writeFileSync(path.join(dir, 'requirements.txt'), 'torch\n');
    writeFileSync(packReq, 'hearth-standin-fail\n');
    expect((await server.admin.post('/api/admin/image-engine/retry', {})).status).toBe(200);
    const alert = state.getByRole('alert');
    await shown(alert.getByText(/Installing what the image engine needs failed \(custom_nodes\/ComfyUI-Impact-Pack\/requirements\.txt\)\./), 20_000);
    expect(await alert.getByText(/exit code|Traceback|ENOENT/).count()).toBe(0);
    await shown(page.getByTestId('engine-log').getByText(/No matching distribution found for hearth-standin-fail/), 20_000);
    await expectNoSeriousA11yViolations(page, '/admin/images (setup failed)');

    // fixed (slowly installing again): Try again starts the setup over
    writeFileSync(packReq, 'segment-anything\nhearth-standin-slow=60000\n');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await shown(installing.getByText(/Installing what the node pack ComfyUI-Impact-Pack needs \(2 of 2\)…/), 20_000);
    expect(await state.getByRole('alert').count()).toBe(0);
    await until(async () => (await server.admin.get('/api/admin/image-engine')).body.status.state === 'installing', 'installing over HTTP too', 5_000);
  });
});
