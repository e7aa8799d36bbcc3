// The Image engine page says truthfully, once, what Hearth installs and what the admin does, and
// never sends the admin to the page they are on. In a real browser at 390 and 1280 px against the
// real server: with no engine folder and the Image engine feature's downloads on disk (ComfyUI's
// and a node pack's source archives, which Hearth keeps but does not unpack), the page names them
// and says to unpack them and enter the folder; with an engine running (the fake ComfyUI at
// IMAGE_ENGINE_URL, without the IPAdapter pack), what face matching needs is listed with one
// sentence on how to add it. Axe finds no serious or critical violation. Needs `npm run build:web`.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeImageEngine, type FakeImageEngine } from '../fakes/image-engine.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { until } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

/** Every sentence that sends the admin to the Image engine page, while on it. */
const SELF_REFERENCE = /Image engine page/i;

describe('the Image engine page says what Hearth installs and what the admin does', () => {
  let browser: Browser;
  let notSetUp: TestServer;
  let running: TestServer;
  let engine: FakeImageEngine;
  let server: TestServer;
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    notSetUp = await startTestServer({ seed: 'household' });
    expect((await notSetUp.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    // what the Image engine feature downloads (resources/catalog/features.json), as the queue leaves it
    const components = path.join(notSetUp.dataDir, 'components', 'image-engine');
    mkdirSync(components, { recursive: true });
    writeFileSync(path.join(components, 'ComfyUI-0.3.64.tar.gz'), 'archive');
    writeFileSync(path.join(components, 'ipadapter-plus.tar.gz'), 'archive');
    engine = await startFakeImageEngine({ packs: ['ComfyUI_essentials', 'ComfyUI-Impact-Pack', 'ComfyUI-Impact-Subpack', 'facerestore_cf'], stepMs: 2 });
    running = await startTestServer({ seed: 'household', config: { imageEngineUrl: engine.url } });
    expect((await running.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    await until(async () => (await running.admin.get('/api/image/status')).body.state === 'ready', 'the engine to be ready');
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await notSetUp?.close();
    await running?.close();
    await engine?.close();
    expect(pages.pageErrors).toEqual([]);
  });

  async function open(on: TestServer, device: typeof PHONE | typeof DESKTOP): Promise<Page> {
    server = on;
    const page = await pages.open('admin', device);
    await page.goto(`${on.url}/admin/images`);
    await shown(page.getByTestId('engine-pipelines'));
    return page;
  }

  for (const [name, device] of [['phone', PHONE], ['laptop', DESKTOP]] as const) {
    it(`before the engine is set up, names what the feature downloaded and says what to do with it, once (${name})`, async () => {
      const page = await open(notSetUp, device);
      const says = page.getByTestId('engine-what-hearth-installs');
      await shown(says);
      await shown(says.getByText('Image engine (ComfyUI):'));
      await shown(says.getByText(path.join(notSetUp.dataDir, 'components', 'image-engine', 'ComfyUI-0.3.64.tar.gz')));
      await shown(says.getByText('Image engine custom nodes:'));
      await shown(says.getByText(/does not unpack or install them/));
      await shown(says.getByText(/Unpack ComfyUI into a folder of your choice .* enter the ComfyUI folder under Set up below/));
      const main = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
      // one account of what Hearth does and what the admin does, never "install it yourself" beside "Hearth installs"
      expect(main.match(/Hearth then installs the Python packages ComfyUI needs/g)).toHaveLength(1);
      expect(main).not.toMatch(/Install ComfyUI on this computer/);
      expect(main).not.toMatch(SELF_REFERENCE);
      await expectNoSeriousA11yViolations(page, `/admin/images (not set up, ${name})`);
    });

    it(`with the engine running, lists what a capability needs with one sentence on adding it, never sending the admin to this page (${name})`, async () => {
      const page = await open(running, device);
      const list = page.getByTestId('engine-pipelines');
      await shown(list.getByText(/Needs: .*ComfyUI_IPAdapter_plus/));
      await shown(list.getByTestId('engine-how-to-add').getByText(/Hearth does not add node packs or model files\. Put what a row needs in that engine’s custom_nodes or models folder and restart it/));
      const main = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
      expect(main).not.toMatch(SELF_REFERENCE);
      expect(main.match(/Put what a row needs/g)).toHaveLength(1);
      await expectNoSeriousA11yViolations(page, `/admin/images (running, ${name})`);
    });
  }
});
