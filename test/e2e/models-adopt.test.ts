// Models Ollama already had before Hearth (pulled with `ollama pull` first), in a real browser:
// the admin's Home says which ones Hearth uses and offers to keep them or choose others; Chat names
// the model it answers with. Needs the built web app (`npm run build:web`).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelRuntime, type FakeModel, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { createPageOpener, DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const model = (name: string, sizeBytes: number, capabilities: FakeModel['capabilities']): FakeModel => ({ name, family: 'llama', parameterSize: '1B', quantization: 'Q4_K_M', sizeBytes, capabilities });

describe('models already in Ollama, in the browser', () => {
  let server: TestServer;
  let runtime: FakeModelRuntime;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    runtime = await startFakeModelRuntime({
      models: [model('qwen2.5:7b', 4_683_087_332, ['completion', 'tools']), model('llama3.2:3b', 2_019_393_189, ['completion', 'tools']), model('llama3.2:1b', 1_321_098_329, ['completion', 'tools']), model('nomic-embed-text:latest', 274_302_450, ['embedding'])],
    });
    server = await startTestServer({ seed: 'household', config: { modelRuntimeUrl: runtime.url } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await runtime?.close();
    expect(pages.pageErrors).toEqual([]);
  });

  it('Chat names the adopted model it answers with, on a phone and a laptop', async () => {
    for (const device of [PHONE, DESKTOP]) {
      const page = await pages.open('member', device);
      await page.goto(`${server.url}/chat`);
      await shown(page.getByTestId('chat-model-name'));
      expect(await page.getByTestId('chat-model-name').textContent()).toBe('qwen2.5:7b');
      expect(await page.getByText('No chat model is installed yet').count()).toBe(0);
    }
  });

  it('the admin’s Home says which models Hearth uses, and Keep these makes them the household’s choices', async () => {
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBe(200);
    const page = await pages.open('admin', PHONE);
    await page.goto(server.url);
    const card = page.getByTestId('adopted-models');
    await shown(card);
    const text = await card.textContent();
    expect(text).toContain('qwen2.5:7b for chat');
    expect(text).toContain('nomic-embed-text:latest for search');
    expect(text).toContain('llama3.2:1b as the quick helper');
    expect(await page.getByText('No AI models are installed yet').count()).toBe(0);
    expect(await card.getByRole('link', { name: 'Choose others' }).getAttribute('href')).toBe('/admin/models');
    await page.screenshot({ path: '/tmp/hearth-phone-adopted-models.png' });
    await card.getByRole('button', { name: 'Keep these' }).tap();
    await gone(card);
    const r = await server.admin.get('/api/models');
    expect(r.body.adopted).toEqual([]);
    expect(r.body.chosen).toEqual({ chat: 'qwen2.5:7b', embeddings: 'nomic-embed-text:latest', router: 'llama3.2:1b', vision: null });
  });
});
