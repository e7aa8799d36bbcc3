// What a member reads stays out of hearth.log (issue 29, item 10): a real capture through the Reader
// (the queue, the engine in Chromium, the site icon) against the local fixture site logs the Reader
// item's id, and neither the saved address nor the page's title appears in any line it wrote.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveChromiumPath } from '../../server/adapters/browser/chromium.js';
import { FullReaderItem } from '../../server/modules/reader/schema.js';
import { startFixtureSite, type FixtureSite } from '../fixtures/capture/server.js';
import { waitFor } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const CHROMIUM = resolveChromiumPath(process.env.CHROMIUM_PATH);

describe.skipIf(!existsSync(CHROMIUM))('reader capture logs', () => {
  let site: FixtureSite;
  let s: TestServer;
  beforeAll(async () => {
    site = await startFixtureSite();
    s = await startTestServer({ seed: 'household', config: { fetchAllowOrigins: [site.origin], chromiumPath: CHROMIUM } });
  });
  afterAll(async () => {
    await s?.close();
    await site?.close();
  });

  it('names the item by id at every level, never the private URL it read or what the page was called', async () => {
    const secret = 'member-private-reading-list';
    const url = `${site.origin}/article?list=${secret}`;
    const from = s.logger.lines.length;
    const created = await s.member.post('/api/reader', { url });
    expect(created.status, created.text).toBe(201);
    const id = FullReaderItem.parse(created.body.item).id;
    const item = await waitFor(
      async () => {
        const it = FullReaderItem.parse((await s.member.get(`/api/reader/${id}`)).body.item);
        return it.archiveState === 'ready' || it.archiveState === 'failed' ? it : null;
      },
      'the capture to end',
      60_000,
    );
    expect(item.archiveState, item.archiveError ?? '').toBe('ready');
    const lines = s.logger.lines.slice(from);
    // the capture was logged (at info, as hearth.log keeps it), by the item's id
    expect(lines.filter((l) => l.msg === 'capture done')).toEqual([expect.objectContaining({ level: 30, item: id, method: 'browser' })]);
    const written = JSON.stringify(lines);
    expect(written).not.toContain(secret);
    expect(written).not.toContain(`${site.origin}/article`);
    expect(item.title).toBeTruthy();
    expect(written).not.toContain(item.title!);
  }, 90_000);
});
