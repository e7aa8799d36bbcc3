// Issue 38 in the browser: on a 390 px phone a member converts a short video on the Tools page
// (the conversion's progress bar, then the download of the phone MP4), runs the speed test against
// Hearth (figures, what they mean, the result stored), and axe finds nothing serious there, at
// 390 px and at 1280 px. Needs the built web app (`npm run build:web`) and ffmpeg.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { SYSTEM_PATH } from '../harness/speech.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

describe('tools in the browser', () => {
  const temp = makeTempDir('hearth-tools-e2e-');
  let server: TestServer;
  let browser: Browser;
  let clip: Buffer;
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    // long enough (40 s at 640x360) that the conversion's progress shows before it is done
    const file = path.join(temp.dir, 'holiday.mkv');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=40', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=40', '-c:v', 'mpeg4', '-q:v', '10', '-c:a', 'aac', '-shortest', file]);
    clip = readFileSync(file);
    server = await startTestServer({ seed: 'household', config: { searchPath: SYSTEM_PATH } });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    temp.remove();
  });

  it('a member converts a video with progress and downloads it, then runs the speed test', async () => {
    const page = await pages.open('member', PHONE);
    await page.goto(`${server.url}/tools`);
    const converter = page.getByTestId('converter');
    await shown(converter.getByRole('combobox', { name: 'Make it' }));
    await expectNoSeriousA11yViolations(page, '/tools (phone)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await converter.getByRole('combobox', { name: 'Make it' }).selectOption('video-mp4');
    await converter.getByTestId('converter-file').setInputFiles({ name: 'holiday.mkv', mimeType: 'video/x-matroska', buffer: clip });
    await converter.getByRole('button', { name: 'Convert' }).click();
    // ffmpeg's progress reaches the bar
    const bar = converter.getByRole('progressbar', { name: 'Conversion' });
    await expect.poll(async () => Number((await bar.getAttribute('aria-valuenow').catch(() => null)) ?? 0), { timeout: 60_000 }).toBeGreaterThan(0);
    await expect.poll(async () => (await converter.getByRole('status').allTextContents()).join(' '), { timeout: 60_000 }).toMatch(/converted|ready/);
    const link = converter.getByRole('link', { name: 'Download holiday.mp4' });
    await shown(link, 60_000);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('holiday.mp4');
    const saved = path.join(temp.dir, 'downloaded.mp4');
    await download.saveAs(saved);
    expect(execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', saved], { encoding: 'utf8' }).trim()).toBe('h264');

    const speed = page.getByTestId('speedtest');
    await speed.getByRole('button', { name: 'Start the speed test' }).click();
    const result = speed.getByTestId('speedtest-result');
    await shown(result, 60_000);
    await shown(result.getByText(/Mbit\/s/).first());
    expect(await result.locator('.speedtest__verdict').textContent()).toMatch(/video|Slow/);
    await shown(result.getByText(/^Saved as this .*’s result\.$/));
    const stored = await server.member.get('/api/speedtest/results');
    expect(stored.body.results).toHaveLength(1);
    expect(stored.body.results[0].downloadMbps).toBeGreaterThan(0);
    await expectNoSeriousA11yViolations(page, '/tools after a conversion and a speed test (phone)');

    await page.setViewportSize(DESKTOP.viewport);
    await expectNoSeriousA11yViolations(page, '/tools (1280 px)');
    expect(pages.pageErrors).toEqual([]);
  }, 180_000);
});
