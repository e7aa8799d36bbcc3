// Pictures in a real browser against a real Hearth. With no image engine set up: a member on a phone
// is told the picture maker is not set up and to ask an admin, an admin is sent to the engine page,
// which says what to do and lists what each kind of picture work needs; My pictures is empty with
// the way to start. Edits that run in Hearth itself (auto colour, adjust) work anyway: a member
// uploads a photo, sees Before and After, finds it in My pictures, opens it large and deletes it.
// An admin adds a LoRA file through the add-ons page, allows it for the member on "who may use
// what", and the member's Create page offers it; an adult LoRA for a member whose adult add-ons are
// blocked is refused in a sentence. Axe finds no serious or critical violation on any screen, and
// nothing is wider than the 390 px phone. Needs `npm run build:web`.
// With the fake ComfyUI slowed down (stepMs) a member on the phone types a prompt, taps Create and
// follows the picture: the step bar and live preview frames that change while it draws, then the
// finished picture; a second one (held still by the fake at its second step, so the screen is
// looked at while drawing) is cancelled with Cancel, the page says so, and My pictures lists only
// the first.
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeImageEngine, type FakeImageEngine } from '../fakes/image-engine.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { until } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

/** A small but real .safetensors file: the 8-byte header length, the JSON header, one tensor's bytes. */
function safetensors(metadata: Record<string, string>): Buffer {
  const header = Buffer.from(JSON.stringify({ __metadata__: metadata, 'lora_unet_down.weight': { dtype: 'F16', shape: [2], data_offsets: [0, 4] } }));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([len, header, Buffer.alloc(4)]);
}

/** A dull, blue-tinted photo for auto colour to fix. */
function dullPhoto(): Promise<Buffer> {
  return sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 90, g: 100, b: 140 } } }).png().toBuffer();
}

/** Every element's box inside the viewport's width (nothing makes the phone scroll sideways). */
async function fitsWidth(page: Page, where: string): Promise<void> {
  const over = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width + 1) out.push(`page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
    for (const el of Array.from(document.querySelectorAll('main *'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const style = getComputedStyle(el);
      // fixed bars, and the invisible inputs Radix keeps beside a switch for forms (aria-hidden, opacity 0)
      if (style.position === 'fixed' || style.opacity === '0' || el.closest('[aria-hidden="true"]')) continue;
      if (r.right > width + 1 || r.left < -1) out.push(`${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return out.slice(0, 5);
  });
  expect(over, `nothing wider than the phone on ${where}`).toEqual([]);
}

describe('pictures in the browser against the real server', () => {
  let server: TestServer;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));
  const { pageErrors } = pages;
  const open = (who: 'member' | 'admin') => pages.open(who, PHONE);

  beforeAll(async () => {
    requireBuiltWebApp();
    server = await startTestServer({ seed: 'household' });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    expect(pageErrors).toEqual([]);
  });

  it('with no engine set up: a member is told to ask an admin, an admin is shown the way, and My pictures is empty', async () => {
    const member = await open('member');
    await member.goto(`${server.url}/images`);
    const notice = member.getByTestId('engine-not-set-up');
    await shown(notice);
    await shown(notice.getByText(/Ask them to open Admin, then Image engine/));
    expect(await notice.getByRole('link').count()).toBe(0);
    expect(await member.getByTestId('create').isDisabled()).toBe(true);
    // no add-ons allowed: no picker
    expect(await member.getByTestId('lora-picker').count()).toBe(0);
    await expectNoSeriousA11yViolations(member, '/images (not set up, member)');
    await fitsWidth(member, '/images');

    await member.getByRole('link', { name: 'My pictures' }).click();
    await shown(member.getByText('No pictures yet'));
    await expectNoSeriousA11yViolations(member, '/images/history (empty)');
    await fitsWidth(member, '/images/history');

    const admin = await open('admin');
    await admin.goto(`${server.url}/images`);
    await shown(admin.getByTestId('engine-not-set-up'));
    await admin.getByRole('link', { name: 'Open the image engine settings' }).click();
    await shown(admin.getByRole('heading', { name: 'Image engine', level: 1 }));
    await shown(admin.getByTestId('engine-state').getByText('Not set up', { exact: true }));
    // not set up is not an error: no alarm, and the way to set it up
    expect(await admin.getByTestId('engine-state').getByRole('alert').count()).toBe(0);
    await shown(admin.getByTestId('engine-what-hearth-installs').getByText(/Hearth does not install ComfyUI by itself\. Install ComfyUI on this computer, then enter its folder under Set up below\./));
    await shown(admin.getByLabel('ComfyUI folder'));
    // what each kind of work needs, and the two that run in Hearth itself
    const pipelines = admin.getByTestId('engine-pipelines');
    await shown(pipelines.getByText('Pictures from words'));
    await shown(pipelines.getByText('Auto colour'));
    await shown(pipelines.getByText('Hearth checks what the engine can do once its folder is set up and it runs.'));
    expect(await admin.locator('main').getByText(/Image engine page/).count()).toBe(0);
    await expectNoSeriousA11yViolations(admin, '/admin/images (not set up)');
    await fitsWidth(admin, '/admin/images');
  });

  it('a member edits a photo with auto colour (no engine needed): before and after, then in My pictures, opened large and deleted', async () => {
    const page = await open('member');
    await page.goto(`${server.url}/images/edit`);
    await shown(page.getByRole('heading', { name: 'Edit a picture', level: 1 }));
    await page.getByTestId('edit-upload').setInputFiles({ name: 'dull.png', mimeType: 'image/png', buffer: await dullPhoto() });
    const auto = page.getByTestId('op-auto-color');
    await shown(auto);
    expect(await auto.isEnabled()).toBe(true);
    // an op that needs the engine says why it cannot work
    expect(await page.getByTestId('op-remove-bg').isDisabled()).toBe(true);
    await shown(page.locator('#op-remove-bg-hint').getByText(/not set up/));
    await expectNoSeriousA11yViolations(page, '/images/edit (chosen)');
    await fitsWidth(page, '/images/edit');

    await auto.click();
    const compare = page.getByTestId('before-after');
    await shown(compare, 30_000);
    await shown(compare.getByText('Before'));
    await expect.poll(() => compare.getByTestId('artifact-view').locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expectNoSeriousA11yViolations(page, '/images/edit (done)');
    await fitsWidth(page, '/images/edit (done)');
    const history = (await server.member.get('/api/image/history')).body;
    expect(history.items).toHaveLength(1);
    expect(history.items[0]).toMatchObject({ kind: 'edited', pipeline: 'auto_color', state: 'ready' });
    // another member's history (the admin's) does not show it
    expect((await server.admin.get('/api/image/history')).body.items).toHaveLength(0);

    await page.getByRole('link', { name: 'My pictures' }).click();
    const grid = page.getByTestId('history-grid');
    await shown(grid);
    expect(await grid.getByRole('listitem').count()).toBe(1);
    await page.getByRole('button', { name: 'Edited', exact: true }).click();
    expect(await grid.getByRole('listitem').count()).toBe(1);
    await page.getByRole('button', { name: 'Created', exact: true }).click();
    await shown(page.getByText('No created pictures yet'));
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await grid.getByRole('button').first().click();
    const dialog = page.getByTestId('picture-dialog');
    await shown(dialog);
    const download = dialog.getByRole('link', { name: 'Download' });
    expect(await download.getAttribute('download')).toMatch(/^hearth-.+\.png$/);
    await expectNoSeriousA11yViolations(page, '/images/history (full view)');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await shown(page.getByText('No pictures yet'));
    expect((await server.member.get('/api/image/history')).body.items).toHaveLength(0);
  });

  it('an admin adds a LoRA and allows it for the member, who then sees it on Create; an adult one is refused in a sentence', async () => {
    const admin = await open('admin');
    await admin.goto(`${server.url}/admin/image-loras`);
    await shown(admin.getByRole('heading', { name: 'Picture add-ons', level: 1 }));
    await shown(admin.getByText('No add-ons yet'));
    await expectNoSeriousA11yViolations(admin, '/admin/image-loras (empty)');
    await admin.getByTestId('lora-file').setInputFiles({ name: 'paper-fox.safetensors', mimeType: 'application/octet-stream', buffer: safetensors({ 'modelspec.title': 'Paper Fox', 'modelspec.trigger_phrase': 'paperfox' }) });
    await admin.getByTestId('lora-upload').click();
    const list = admin.getByTestId('admin-loras');
    await shown(list.getByText('Paper Fox'));
    await shown(list.getByText(/Trigger words: paperfox/));

    // a second one, marked for adults in its edit dialog
    await admin.getByTestId('lora-file').setInputFiles({ name: 'night-club.safetensors', mimeType: 'application/octet-stream', buffer: safetensors({ 'modelspec.title': 'Night Club' }) });
    await admin.getByTestId('lora-upload').click();
    await shown(list.getByText('Night Club'));
    await admin.getByRole('button', { name: 'Edit Night Club' }).click();
    const dialog = admin.getByTestId('lora-dialog');
    await shown(dialog);
    await expectNoSeriousA11yViolations(admin, '/admin/image-loras (edit)');
    await dialog.getByRole('switch', { name: 'For adults only' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await shown(list.getByText('Adults only'));
    await fitsWidth(admin, '/admin/image-loras');

    const member = await open('member');
    await member.goto(`${server.url}/images`);
    await shown(member.getByTestId('engine-not-set-up'));
    expect(await member.getByTestId('lora-picker').count()).toBe(0);

    await admin.goto(`${server.url}/admin/image-members`);
    const settings = admin.getByTestId('member-image-settings');
    await shown(settings);
    expect(await settings.getByRole('switch', { name: 'Block adult add-ons' }).getAttribute('aria-checked')).toBe('true');
    await expectNoSeriousA11yViolations(admin, '/admin/image-members');
    await fitsWidth(admin, '/admin/image-members');
    await settings.getByRole('group', { name: 'Paper Fox' }).getByRole('button', { name: 'Allowed' }).click();
    await expect.poll(async () => (await server.admin.get(`/api/admin/image-loras/members/${server.users.member.id}`)).body.loras).toEqual([expect.objectContaining({ state: 'on' })]);
    await expect.poll(() => settings.getByRole('group', { name: 'Paper Fox' }).getByRole('button', { name: 'Allowed' }).getAttribute('aria-pressed')).toBe('true');

    await settings.getByRole('group', { name: 'Night Club' }).getByRole('button', { name: 'Allowed' }).click();
    const refused = admin.getByTestId('grant-error');
    await shown(refused);
    expect(await refused.textContent()).toMatch(/Night Club is for adults, and adult add-ons are blocked for Sam/);
    expect(await refused.textContent()).not.toMatch(/adult_lora_blocked|409/);

    await member.reload();
    const picker = member.getByTestId('lora-picker');
    await shown(picker);
    await shown(picker.getByRole('button', { name: 'Paper Fox' }));
    expect(await picker.getByRole('button', { name: 'Night Club' }).count()).toBe(0);
    await picker.getByRole('button', { name: 'Paper Fox' }).click();
    expect(await picker.getByRole('button', { name: 'Paper Fox' }).getAttribute('aria-pressed')).toBe('true');
    await expectNoSeriousA11yViolations(member, '/images (with an add-on)');
    await fitsWidth(member, '/images (with an add-on)');
  });
});

describe('creating a picture in the browser against the real server and the fake engine', () => {
  let engine: FakeImageEngine;
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext | undefined;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    requireBuiltWebApp();
    // slow enough that every step's preview frame reaches the page on its own
    engine = await startFakeImageEngine({ stepMs: 120 });
    server = await startTestServer({ seed: 'household', config: { imageEngineUrl: engine.url } });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    await until(async () => (await server.member.get('/api/image/status')).body.state === 'ready', 'the engine to be ready');
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
    await engine?.close();
    expect(pageErrors).toEqual([]);
  });

  it('a member creates a picture and watches it drawn, cancels a second one, and finds only the first in My pictures', async () => {
    context = await signedInContext(browser, server.url, server.member.cookie!, PHONE);
    const page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${server.url}/images`);
    await shown(page.getByRole('heading', { name: 'Create a picture', level: 1 }));
    expect(await page.getByTestId('engine-not-set-up').count()).toBe(0);
    // every preview frame the page shows, recorded as it happens (nothing depends on catching one in time)
    await page.evaluate(() => {
      const seen = new Set<string>();
      (window as unknown as { previewFrames: Set<string> }).previewFrames = seen;
      const note = () => {
        const img = document.querySelector<HTMLImageElement>('img[data-testid="job-preview"]');
        if (img?.src) seen.add(img.src);
      };
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['src'] });
    });

    await page.getByLabel('What should the picture show?').fill('a red kite over the sea');
    await page.getByTestId('create').click();
    const job = page.getByTestId('job-view');
    await shown(job);
    await shown(job.getByTestId('job-steps'));
    await shown(job.getByTestId('job-line').getByText(/Drawing: step \d+ of \d+/));
    await shown(job.getByTestId('job-preview'));
    // the finished picture, shown and loaded
    const result = page.getByTestId('artifact-view');
    await shown(result, 60_000);
    await shown(result.getByText('a red kite over the sea'));
    await expect.poll(() => result.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await page.getByTestId('job-view').count()).toBe(0);
    const frames = await page.evaluate(() => [...(window as unknown as { previewFrames: Set<string> }).previewFrames]);
    expect(frames.length, 'the preview changed while it drew').toBeGreaterThanOrEqual(2);
    for (const f of frames) expect(f).toMatch(/^data:image\/jpeg;base64,/);
    expect(engine.prompts).toHaveLength(1);

    // a second picture, held still by the engine at its second step, looked at while drawing and cancelled
    engine.scriptNext({ stallAtStep: 2 });
    await page.getByLabel('What should the picture show?').fill('a slow green boat');
    await page.getByTestId('create').click();
    await shown(job);
    await shown(job.getByTestId('job-preview'));
    await shown(job.getByTestId('job-steps'));
    expect(await page.getByTestId('create').isDisabled()).toBe(true);
    await expectNoSeriousA11yViolations(page, '/images (drawing)');
    await fitsWidth(page, '/images (drawing)');
    await job.getByRole('button', { name: 'Cancel' }).click();
    const cancelled = page.getByTestId('job-cancelled');
    await shown(cancelled);
    expect(await cancelled.textContent()).toMatch(/Stopped\. Nothing was saved\./);
    expect(await page.getByTestId('job-view').count()).toBe(0);
    expect(await page.getByTestId('artifact-view').count()).toBe(0);
    await expect.poll(() => engine.interrupts.length).toBeGreaterThan(0);

    await page.getByRole('link', { name: 'My pictures' }).click();
    const grid = page.getByTestId('history-grid');
    await shown(grid);
    await shown(grid.getByRole('button', { name: 'Open a red kite over the sea' }));
    expect(await grid.getByRole('listitem').count()).toBe(1);
    expect(await grid.getByRole('button', { name: /a slow green boat/ }).count()).toBe(0);
    const history = (await server.member.get('/api/image/history')).body;
    expect(history.items.map((a: { prompt: string }) => a.prompt)).toEqual(['a red kite over the sea']);
  });
});
