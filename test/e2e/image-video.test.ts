// Clips in a real browser on a phone against the real server and the fake ComfyUI. With the
// AnimateDiff pack, a motion module and an SVD checkpoint on the engine: a member chooses "A short
// clip", types a prompt and follows it (steps, preview) to the finished clip, marked Clip, playing
// (an animated WebP that the page decodes) and downloaded as .webp; then makes a picture and taps
// Animate under it, and the picture comes to life as a second clip; My pictures marks both clips,
// opens one large without Edit or Animate, and offers Animate under the picture. Without them, the
// clip choice is disabled with the engine's sentence and "ask an admin", and Animate is not offered.
// Axe finds no serious or critical violation. Needs `npm run build:web`.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTION_MODULE_MISSING } from '../../server/modules/image-gen/video-models.js';
import { startFakeImageEngine, type FakeImageEngine } from '../fakes/image-engine.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { until } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const ALL_PACKS = ['ComfyUI_IPAdapter_plus', 'ComfyUI_essentials', 'ComfyUI-Impact-Pack', 'ComfyUI-Impact-Subpack', 'facerestore_cf', 'ComfyUI-AnimateDiff-Evolved'];

/** The frames Chromium's own image decoder finds in the clip (an animated WebP has more than one; -1 without WebCodecs). */
async function framesOf(page: Page, src: string): Promise<number> {
  return page.evaluate(async (url) => {
    const ImageDecoderCtor = (window as unknown as { ImageDecoder?: new (init: { data: ReadableStream; type: string }) => { tracks: { ready: Promise<void>; selectedTrack: { frameCount: number } | null } } }).ImageDecoder;
    const res = await fetch(url);
    if (!ImageDecoderCtor) return -1;
    const decoder = new ImageDecoderCtor({ data: res.body!, type: 'image/webp' });
    await decoder.tracks.ready;
    return decoder.tracks.selectedTrack?.frameCount ?? 0;
  }, src);
}

describe('clips in the browser against the real server and the fake engine', () => {
  let engine: FakeImageEngine;
  let server: TestServer;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));
  const { pageErrors } = pages;

  beforeAll(async () => {
    requireBuiltWebApp();
    engine = await startFakeImageEngine({ packs: ALL_PACKS, stepMs: 60 });
    server = await startTestServer({ seed: 'household', config: { imageEngineUrl: engine.url } });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    await until(async () => (await server.member.get('/api/image/status')).body.state === 'ready', 'the engine to be ready');
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await engine?.close();
    expect(pageErrors).toEqual([]);
  });

  it('a member makes a clip from words, animates a picture, and finds both marked as clips in My pictures', async () => {
    const page = await pages.open('member', PHONE);
    await page.goto(`${server.url}/images`);
    await shown(page.getByRole('heading', { name: 'Create a picture', level: 1 }));

    // a clip from words: steps and a preview while it is made, then the clip itself
    const clipChoice = page.getByRole('button', { name: 'A short clip' });
    await shown(clipChoice);
    expect(await clipChoice.isEnabled()).toBe(true);
    await clipChoice.click();
    expect(await clipChoice.getAttribute('aria-pressed')).toBe('true');
    await page.getByLabel('What should the clip show?').fill('a paper boat on a pond');
    await page.getByRole('button', { name: 'Create the clip' }).click();
    const job = page.getByTestId('job-view');
    await shown(job);
    await shown(job.getByTestId('job-steps'));
    await shown(job.getByTestId('job-preview'));
    await expectNoSeriousA11yViolations(page, '/images (a clip being made)');
    const result = page.getByTestId('artifact-view');
    await shown(result, 60_000);
    await shown(result.getByTestId('clip-badge'));
    const img = result.locator('img');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    const src = (await img.getAttribute('src'))!;
    expect(await framesOf(page, src), 'the clip the page shows is animated').toBeGreaterThan(1);
    expect(await result.getByRole('link', { name: 'Download' }).getAttribute('download')).toMatch(/\.webp$/);
    // a clip is not edited or animated again
    expect(await result.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    expect(await result.getByTestId('animate-link').count()).toBe(0);
    expect(engine.prompts.at(-1)!.graph).toSatisfy((g: Record<string, { class_type: string }>) => Object.values(g).some((n) => n.class_type === 'ADE_AnimateDiffLoaderGen1'));

    // a picture, then Animate under it: the picture comes to life
    await page.getByRole('button', { name: 'A picture' }).click();
    await page.getByLabel('What should the picture show?').fill('a lighthouse at dusk');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await shown(result.getByText('a lighthouse at dusk'), 60_000);
    expect(await result.getByTestId('clip-badge').count()).toBe(0);
    await result.getByRole('link', { name: 'Animate' }).click();
    const panel = page.getByTestId('animate-panel');
    await shown(panel);
    await expect.poll(() => panel.locator('img').evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    await panel.getByRole('button', { name: 'Animate' }).click();
    await shown(job);
    await shown(result.getByTestId('clip-badge'), 60_000);
    await shown(result.getByText('a lighthouse at dusk'));
    const last = engine.prompts.at(-1)!.graph as Record<string, { class_type: string }>;
    expect(Object.values(last).map((n) => n.class_type)).toContain('SVD_img2vid_Conditioning');

    // My pictures: both clips marked, one opened large (it plays; no Edit, no Animate); the picture offers Animate
    await page.getByRole('link', { name: 'My pictures' }).click();
    const grid = page.getByTestId('history-grid');
    await shown(grid);
    await shown(grid.getByRole('button', { name: 'Open clip a paper boat on a pond' }));
    expect(await grid.getByText('Clip', { exact: true }).count()).toBe(2);
    await grid.getByRole('button', { name: 'Open clip a paper boat on a pond' }).click();
    const dialog = page.getByTestId('picture-dialog');
    await shown(dialog.getByTestId('clip-badge'));
    await expect.poll(() => dialog.getByRole('img', { name: 'Clip: a paper boat on a pond' }).evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    expect(await dialog.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    expect(await dialog.getByRole('link', { name: 'Download' }).getAttribute('download')).toMatch(/\.webp$/);
    await expectNoSeriousA11yViolations(page, '/images/history (a clip open)');
    await page.keyboard.press('Escape');
    await grid.getByRole('button', { name: 'Open a lighthouse at dusk' }).click();
    await shown(dialog.getByRole('link', { name: 'Animate' }));
  });
});

describe('clips when the engine cannot make them', () => {
  let engine: FakeImageEngine;
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext | undefined;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    requireBuiltWebApp();
    // the AnimateDiff pack is there but no motion module; no SVD checkpoint either
    engine = await startFakeImageEngine({ packs: ALL_PACKS, files: { model_name: [], ckpt_name: ['sdxl_base.safetensors'] }, stepMs: 2 });
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

  it('the clip choice is disabled with the reason and "ask an admin"; Animate is not offered', async () => {
    const made = await server.member.post('/api/image/generate', { prompt: 'a red kite', steps: 2 });
    expect(made.text).toContain('event: done');
    context = await signedInContext(browser, server.url, server.member.cookie!, PHONE);
    const page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${server.url}/images`);
    const clipChoice = page.getByRole('button', { name: 'A short clip' });
    await shown(clipChoice);
    expect(await clipChoice.isDisabled()).toBe(true);
    const why = page.getByTestId('video-unavailable');
    await shown(why);
    expect(await why.textContent()).toContain(MOTION_MODULE_MISSING);
    expect(await why.textContent()).toContain('Ask an admin');
    await expectNoSeriousA11yViolations(page, '/images (no clips here)');

    await page.getByRole('link', { name: 'My pictures' }).click();
    await page.getByTestId('history-grid').getByRole('button', { name: 'Open a red kite' }).click();
    const dialog = page.getByTestId('picture-dialog');
    await shown(dialog.getByRole('link', { name: 'Edit' }));
    expect(await dialog.getByRole('link', { name: 'Animate' }).count()).toBe(0);
  });
});
