// The admin add-ons page's model hub in a real browser, through the real routes, against the fake
// hub (test/fakes/model-hub.ts), which asks for an API key. On a phone: a wrong key saved, a search
// answers with a sentence about the key (never a code); the right key, a search lists what it found,
// Add shows the download's progress bar while the hub holds the file back, then "Added", and the
// LoRA is in the page's add-ons list. On a laptop: the same page after a second search and import.
// Axe finds no serious or critical violation and nothing is wider than the phone. Needs
// `npm run build:web`.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelHub, type FakeModelHub } from '../fakes/model-hub.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const KEY = 'hub-key-for-the-browser-4d2e';

/** A small but real .safetensors file: the 8-byte header length, the JSON header, one tensor's bytes. */
function safetensors(bytes: number): Buffer {
  const header = Buffer.from(JSON.stringify({ __metadata__: {}, 'lora_unet_down.weight': { dtype: 'F16', shape: [bytes / 2], data_offsets: [0, bytes] } }));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([len, header, Buffer.alloc(bytes, 3)]);
}

async function fitsWidth(page: Page, where: string): Promise<void> {
  const over = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width + 1) out.push(`page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
    for (const el of Array.from(document.querySelectorAll('main *'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const style = getComputedStyle(el);
      if (style.position === 'fixed' || style.opacity === '0' || el.closest('[aria-hidden="true"]')) continue;
      if (r.right > width + 1 || r.left < -1) out.push(`${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return out.slice(0, 5);
  });
  expect(over, `nothing wider than the phone on ${where}`).toEqual([]);
}

describe('the model hub on the add-ons page', () => {
  let hub: FakeModelHub;
  let server: TestServer;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));
  const { pageErrors } = pages;

  async function open(device: typeof PHONE | typeof DESKTOP): Promise<Page> {
    const page = await pages.open('admin', device);
    await page.goto(`${server.url}/admin/image-loras`);
    await shown(page.getByTestId('hub-section'));
    return page;
  }

  beforeAll(async () => {
    requireBuiltWebApp();
    hub = await startFakeModelHub([
      { id: 201, name: 'Paper Cut Fox', description: '<p>Foxes made of <b>paper</b>.</p>', versions: [{ id: 7001, baseModel: 'SDXL 1.0', trainedWords: ['papercut'], file: { name: 'paper_cut_fox.safetensors', data: safetensors(256 * 1024) } }] },
      { id: 202, name: 'Crayon Fox', versions: [{ id: 7002, baseModel: 'SD 1.5', trainedWords: ['crayon'], file: { name: 'crayon_fox.safetensors', data: safetensors(64 * 1024) } }] },
    ]);
    hub.requireKey = KEY;
    server = await startTestServer({ seed: 'household', config: { modelHubUrl: hub.url, fetchAllowOrigins: [hub.url] }, overrides: { tuning: { downloadBackoffBaseMs: 20 } } });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await hub?.close();
    expect(pageErrors).toEqual([]);
  });

  it('on a phone: a wrong key is a sentence; with the right one a search finds a LoRA, Add shows its progress, and it joins the list', async () => {
    const page = await open(PHONE);
    const section = page.getByTestId('hub-section');
    await section.getByLabel('Model hub key').fill('not-the-right-key');
    await section.getByRole('button', { name: 'Save key' }).click();
    await shown(section.getByText('The model hub key is saved on this computer.'));
    await section.getByLabel('Search the model hub').fill('fox');
    await section.getByRole('button', { name: 'Search' }).click();
    const sentence = section.getByText(/did not accept the saved API key/);
    await shown(sentence);
    expect(await section.getByText(/model_hub|401|unauthori[sz]ed/i).count()).toBe(0);
    await expectNoSeriousA11yViolations(page, '/admin/image-loras (wrong hub key)');
    await fitsWidth(page, '/admin/image-loras (wrong hub key)');

    await section.getByRole('button', { name: 'Change it' }).click();
    await section.getByLabel('Model hub key').fill(KEY);
    await section.getByRole('button', { name: 'Save key' }).click();
    await shown(section.getByText('The model hub key is saved on this computer.'));
    await section.getByRole('button', { name: 'Search' }).click();
    const results = section.getByTestId('hub-results');
    await shown(results.getByText('Paper Cut Fox'));
    await shown(results.getByText('Crayon Fox'));
    expect(await sentence.count()).toBe(0);

    // the hub holds the file back: the row shows its download under way
    const release = hub.holdFiles();
    await results.getByRole('button', { name: 'Add Paper Cut Fox' }).click();
    await shown(results.getByRole('progressbar', { name: 'Downloading Paper Cut Fox' }));
    await shown(results.getByRole('button', { name: 'Add Paper Cut Fox' }).getByText('Adding…'));
    await expectNoSeriousA11yViolations(page, '/admin/image-loras (hub import under way)');
    await fitsWidth(page, '/admin/image-loras (hub import under way)');
    release();
    await shown(results.getByText('Added'), 30_000);
    await shown(page.getByTestId('admin-loras').getByText('Paper Cut Fox'), 30_000);
    const auth = hub.requests.filter((r) => r.path.startsWith('/api/v1/models')).map((r) => r.authorization);
    expect(auth.at(-1)).toBe(`Bearer ${KEY}`);
    await expectNoSeriousA11yViolations(page, '/admin/image-loras (hub import done)');
    await fitsWidth(page, '/admin/image-loras (hub import done)');
  });

  it('on a laptop: a search shows what is already added, and a second import joins the list', async () => {
    const page = await open(DESKTOP);
    const section = page.getByTestId('hub-section');
    await shown(section.getByText('The model hub key is saved on this computer.'));
    await section.getByLabel('Search the model hub').fill('fox');
    await section.getByRole('button', { name: 'Search' }).click();
    const results = section.getByTestId('hub-results');
    await shown(results.getByText('Crayon Fox'));
    // the first one is known as imported
    const paper = results.getByRole('listitem').filter({ hasText: 'Paper Cut Fox' });
    await shown(paper.getByText('Added'));
    expect(await paper.getByRole('button').count()).toBe(0);
    await results.getByRole('button', { name: 'Add Crayon Fox' }).click();
    await shown(results.getByRole('listitem').filter({ hasText: 'Crayon Fox' }).getByText('Added'), 30_000);
    await shown(page.getByTestId('admin-loras').getByText('Crayon Fox'), 30_000);
    await expectNoSeriousA11yViolations(page, '/admin/image-loras (laptop, hub)');
  });
});
