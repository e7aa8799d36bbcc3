// A reader snapshot opened in a sandboxed frame shows its images in the real browser. The snapshot
// is served with CSP `sandbox` (opaque origin): its asset requests carry no session cookie and
// count as cross-origin, so they must work on the snapshot's token path without either.
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FullReaderItem } from '../../server/modules/reader/schema.js';
import { FakeCaptureEngine } from '../fakes/capture-engine.js';
import { CHROMIUM_PATH, launchChromium, signedInContext } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe.skipIf(!existsSync(CHROMIUM_PATH))('reader snapshot in the browser', () => {
  let s: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', overrides: { captureEngine: new FakeCaptureEngine() } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('a sandboxed frame on snapshotUrl loads the page and its local images', async () => {
    const created = (await s.member.post('/api/reader', { url: 'https://example.com/article' })).body.item;
    let item = FullReaderItem.parse(created);
    for (let i = 0; i < 100 && item.archiveState !== 'ready'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      item = FullReaderItem.parse((await s.member.get(`/api/reader/${created.id}`)).body.item);
    }
    expect(item.snapshotUrl).toBe(`/api/reader/${item.id}/archive/index.html`);

    const context = await signedInContext(browser, s.url, s.member.cookie!, {});
    const page = await context.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.url()} ${r.status()}`);
    });
    await page.goto(`${s.url}/api/system/ready`);
    await page.evaluate((src) => {
      const f = document.createElement('iframe');
      f.setAttribute('sandbox', '');
      f.src = src;
      document.body.appendChild(f);
    }, item.snapshotUrl!);
    await expect.poll(() => page.frames().find((f) => f.url().includes('/archive-t/'))?.url(), { timeout: 10_000 }).toBeTruthy();
    const frame = page.frames().find((f) => f.url().includes('/archive-t/'))!;
    await expect.poll(() => frame.evaluate(() => (document.querySelector('img') as HTMLImageElement | null)?.naturalWidth ?? 0), { timeout: 10_000 }).toBe(1);
    // scripts never run in it
    expect(await frame.evaluate(() => document.scripts.length)).toBe(0);
    expect(failed.filter((f) => !f.includes('favicon'))).toEqual([]);
    await context.close();
  });
});
