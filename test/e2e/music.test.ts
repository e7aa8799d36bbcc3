// Music in a real browser against a real Hearth and the fake ComfyUI with its audio nodes. A member
// on a 390 px phone finds Music under More: first with the engine lacking the Stable Audio model
// files, where the form is shown disabled with what an admin adds (no error code); then, with the
// files in place, types a prompt, sets the length to its shortest, makes a piece, follows the step
// bar, plays the finished piece (a real FLAC the fake wrote with sox) and deletes it from the
// history, which then says there are none. Axe finds no serious or critical violation on each
// screen. Needs `npm run build:web`.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeImageEngine, type FakeImageEngine } from '../fakes/image-engine.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { until } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('music in the browser', () => {
  let engine: FakeImageEngine;
  let server: TestServer;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    engine = await startFakeImageEngine({ audio: 'no-models', stepMs: 30 });
    server = await startTestServer({ seed: 'household', config: { imageEngineUrl: engine.url } });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    await until(async () => (await server.member.get('/api/music/status')).body.missing?.length > 0, 'the engine to say what music lacks');
    browser = await launchChromium(['--autoplay-policy=no-user-gesture-required', '--mute-audio']);
  }, 60_000);

  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await engine?.close();
    expect(pages.pageErrors).toEqual([]);
  });

  it('a member on a phone is shown what an admin adds, then makes a short piece, plays it and deletes it', async () => {
    const page = await pages.open('member', PHONE);
    await page.goto(`${server.url}/`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'More' }).click();
    await nav.getByRole('link', { name: 'Music', exact: true }).click();
    await page.waitForURL(/\/music$/);

    // not installed: a disabled form and the lines an admin acts on, never a code
    const note = page.getByTestId('music-unavailable');
    await shown(note);
    await expect.poll(() => note.textContent()).toMatch(/Stable Audio Open checkpoint/);
    expect(await note.textContent()).not.toMatch(/music_not_installed/);
    expect(await page.getByTestId('music-make').isDisabled()).toBe(true);
    expect(await page.getByLabel('What should it sound like?').isDisabled()).toBe(true);
    await shown(page.getByText('No pieces yet'));
    await expectNoSeriousA11yViolations(page, '/music (not installed)');

    // an admin puts the model files in place and the engine restarts with them
    await engine.restart({ audio: 'installed' });
    await until(async () => (await server.member.get('/api/music/status')).body.available === true, 'music to be available');
    await page.reload();
    await shown(page.getByLabel('What should it sound like?'));
    expect(await note.count()).toBe(0);

    await page.getByLabel('What should it sound like?').fill('a calm piano over soft rain');
    const slider = page.getByLabel(/^Length/);
    await slider.focus();
    await page.keyboard.press('Home');
    await shown(page.getByText('5 seconds', { exact: true }));
    await page.getByTestId('music-make').click();
    await shown(page.getByRole('progressbar', { name: 'Making your piece' }));
    await expectNoSeriousA11yViolations(page, '/music (making)');
    const result = page.getByTestId('music-result');
    await shown(result, 30_000);
    expect(engine.prompts.at(-1)!.graph).toMatchObject({ '5': { class_type: 'EmptyLatentAudio', inputs: { seconds: 5 } } });

    // the piece plays: the browser decodes the FLAC and its clock moves
    const audio = page.getByTestId('music-result-audio');
    const played = await audio.evaluate(async (el: HTMLAudioElement) => {
      await el.play();
      await new Promise<void>((resolve) => el.addEventListener('timeupdate', () => el.currentTime > 0 && resolve()));
      return { duration: el.duration, time: el.currentTime, error: el.error?.code ?? null };
    });
    expect(played.error).toBeNull();
    expect(played.duration).toBeGreaterThan(0.5);
    expect(played.time).toBeGreaterThan(0);

    // the history lists it; delete empties it
    const list = page.getByRole('list', { name: 'Your pieces' });
    await shown(list.getByTestId('music-piece'));
    expect(await list.getByTestId('music-piece').textContent()).toContain('a calm piano over soft rain');
    await expectNoSeriousA11yViolations(page, '/music (a piece)');
    await list.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete piece' }).click();
    await shown(page.getByText('No pieces yet'));
    expect(await result.count()).toBe(0);
    await page.screenshot({ path: '/tmp/hearth-music-390.png', fullPage: true });
    // the same page on a desktop
    await page.setViewportSize({ width: 1280, height: 800 });
    await shown(page.getByTestId('music-make'));
    await expectNoSeriousA11yViolations(page, '/music (1280 px)');
  });
});
