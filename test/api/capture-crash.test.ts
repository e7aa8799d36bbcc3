// Kill -9 of Hearth while its capture browser runs: Playwright's profile folder in the temp folder
// outlives both, and the next start of Hearth on the same DATA_DIR removes it. Real Chromium,
// Hearth in a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../harness/browser.js';
import { TestClient } from '../harness/client.js';
import { freePort, until } from '../harness/net.js';
import { ADMIN, CLOSED_URL } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { alive, exited } from '../harness/processes.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const temp = makeTempDir();
const dataDir = path.join(temp.dir, 'data');
let child: ChildProcess | null = null;
let site: http.Server;
let siteUrl = '';

function startHearth(port: number): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/cli.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: CLOSED_URL, FETCH_ALLOW_ORIGINS: siteUrl, CHROMIUM_PATH },
    stdio: 'ignore',
  });
}


/** The Chromium processes a process started, with their profile folders (Linux /proc). */
function chromiumChildren(parent: number): Array<{ pid: number; profile: string }> {
  const out: Array<{ pid: number; profile: string }> = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
      const arg = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').find((a) => a.startsWith('--user-data-dir='));
      if (arg) out.push({ pid: Number(pid), profile: arg.slice('--user-data-dir='.length) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

beforeAll(async () => {
  site = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>Soup</title></head><body><article><h1>Soup</h1><p>A long enough paragraph about soup, carrots, onions and a slow afternoon in the kitchen.</p></article></body></html>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (child) {
    child.kill('SIGTERM');
    await exited(child);
  }
  await new Promise((r) => site.close(r));
  temp.remove();
});

it('the next start removes the capture-browser profile a kill -9 left in the temp folder', { timeout: 120_000 }, async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  child = startHearth(port);
  await until(async () => (await fetch(`${base}/api/system/ready`)).status === 200, 'first start');
  const admin = new TestClient(base);
  expect((await admin.post('/api/setup/admin', ADMIN)).status).toBe(201);

  const created = await admin.post('/api/reader', { url: `${siteUrl}/soup`, type: 'offline' });
  expect(created.status, created.text).toBe(201);
  const id = created.body.item.id as string;
  await until(async () => ['ready', 'failed'].includes((await admin.get(`/api/reader/${id}`)).body.item.archiveState), 'the capture', 60_000);
  const [browser] = chromiumChildren(child.pid!);
  expect(browser, 'the capture browser runs').toBeDefined();
  expect(existsSync(browser!.profile)).toBe(true);

  child.kill('SIGKILL');
  await exited(child);
  // the browser notices its pipe closed and exits; its profile stays behind
  await until(() => !alive(browser!.pid), 'the orphaned browser to exit', 20_000);
  expect(existsSync(browser!.profile)).toBe(true);

  child = startHearth(port);
  await until(async () => (await fetch(`${base}/api/system/ready`)).status === 200, 'second start');
  expect(existsSync(browser!.profile)).toBe(false);
  // Playwright's other temp files went to DATA_DIR, not the temp folder
  expect(existsSync(path.join(dataDir, 'run', 'capture-browser'))).toBe(true);
});
