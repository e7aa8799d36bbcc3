// Kill -9 of Hearth while its capture browser runs: Playwright's profile folder in the temp folder
// outlives both, and the next start of Hearth on the same DATA_DIR removes it. Real Chromium,
// Hearth in a child process.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../harness/browser.js';
import { TestClient } from '../harness/client.js';
import { freePort, until } from '../harness/net.js';
import { ADMIN } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { alive, childrenOf, kill9, startHearthProcess, stopProcess } from '../harness/processes.js';

const temp = makeTempDir();
const dataDir = path.join(temp.dir, 'data');
let child: ChildProcess | null = null;
let site: http.Server;
let siteUrl = '';

const startHearth = (port: number, what: string) => startHearthProcess({ port, dataDir, env: { FETCH_ALLOW_ORIGINS: siteUrl, CHROMIUM_PATH }, what });

/** The Chromium processes a process started, with their profile folders. */
const chromiumChildren = (parent: number): Array<{ pid: number; profile: string }> =>
  childrenOf(parent).flatMap(({ pid, argv }) => {
    const arg = argv.find((a) => a.startsWith('--user-data-dir='));
    return arg ? [{ pid, profile: arg.slice('--user-data-dir='.length) }] : [];
  });

beforeAll(async () => {
  site = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>Soup</title></head><body><article><h1>Soup</h1><p>A long enough paragraph about soup, carrots, onions and a slow afternoon in the kitchen.</p></article></body></html>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await stopProcess(child);
  await new Promise((r) => site.close(r));
  temp.remove();
});

it('the next start removes the capture-browser profile a kill -9 left in the temp folder', { timeout: 120_000 }, async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  child = await startHearth(port, 'first start');
  const admin = new TestClient(base);
  expect((await admin.post('/api/setup/admin', ADMIN)).status).toBe(201);

  const created = await admin.post('/api/reader', { url: `${siteUrl}/soup`, type: 'offline' });
  expect(created.status, created.text).toBe(201);
  const id = created.body.item.id as string;
  await until(async () => ['ready', 'failed'].includes((await admin.get(`/api/reader/${id}`)).body.item.archiveState), 'the capture', 60_000);
  const [browser] = chromiumChildren(child.pid!);
  expect(browser, 'the capture browser runs').toBeDefined();
  expect(existsSync(browser!.profile)).toBe(true);

  await kill9(child);
  // the browser notices its pipe closed and exits; its profile stays behind
  await until(() => !alive(browser!.pid), 'the orphaned browser to exit', 20_000);
  expect(existsSync(browser!.profile)).toBe(true);

  child = await startHearth(port, 'second start');
  expect(existsSync(browser!.profile)).toBe(false);
  // Playwright's other temp files went to DATA_DIR, not the temp folder
  expect(existsSync(path.join(dataDir, 'run', 'capture-browser'))).toBe(true);
});
