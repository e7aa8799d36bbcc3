// install-kiwix: a Hearth that has no kiwix-serve (no KIWIX_SERVE_PATH, empty PATH) downloads the
// tools bundle from a fake file server, unpacks it under DATA_DIR/components/kiwix-tools/bin and
// then serves the archives already installed. The bundle's kiwix-serve is a tiny shell script that
// hands over to the real one, so the install is proven end to end.
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { create as createTar } from 'tar';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../server/actor.js';
import { kiwixToolsSource } from '../../server/modules/archives/runtime.js';
import { ArchiveRuntimeService } from '../../server/modules/archives/runtime-service.js';
import { FakeFileServer, sha256 } from '../fakes/file-server.js';
import { freePort, waitFor } from '../harness/net.js';
import { connectSse } from '../harness/sse-client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { buildTestZims, kiwixServeOnPath, type TestZims } from '../harness/zims.js';

let zims: TestZims;
let files: FakeFileServer;
let s: TestServer;
const temp = makeTempDir();

async function postSse(url: string, cookie: string) {
  const res = await request(url, { method: 'POST', headers: { cookie, origin: new URL(url).origin } });
  const text = await res.body.text();
  const events = text
    .split('\n\n')
    .map((frame) => ({ event: /^event: (.*)$/m.exec(frame)?.[1], data: /^data: (.*)$/m.exec(frame)?.[1] }))
    .filter((f): f is { event: string; data: string } => Boolean(f.event && f.data))
    .map((f) => ({ event: f.event, data: JSON.parse(f.data) }));
  return { status: res.statusCode, type: String(res.headers['content-type']), events, text };
}

beforeAll(async () => {
  zims = buildTestZims();
  files = await new FakeFileServer().start();
  // the bundle, shaped like Kiwix's: one versioned folder holding the tools; modes without +x
  const bundleRoot = path.join(temp.dir, 'bundle');
  const inner = path.join(bundleRoot, 'kiwix-tools_linux-x86_64-3.7.0-1');
  mkdirSync(inner, { recursive: true });
  writeFileSync(path.join(inner, 'kiwix-serve'), `#!/bin/sh\nexec "${kiwixServeOnPath()}" "$@"\n`, { mode: 0o644 });
  writeFileSync(path.join(inner, 'kiwix-manage'), '#!/bin/sh\necho kiwix-manage\n', { mode: 0o644 });
  const bundle = path.join(temp.dir, 'kiwix-tools_linux-x86_64.tar.gz');
  await createTar({ gzip: true, file: bundle, cwd: bundleRoot, portable: true }, ['kiwix-tools_linux-x86_64-3.7.0-1']);

  const pedia = zims.encyclopedia;
  const catalog = {
    sources: [
      {
        id: 'fixturepedia',
        label: 'Fixturepedia',
        description: 'Test encyclopedia',
        category: 'Encyclopedia',
        faviconUrl: 'https://example.org/f.ico',
        variants: [{ key: 'all', label: 'All', url: files.addFile('pedia.zim', pedia), sizeBytes: statSync(pedia).size, sha256: sha256(readFileSync(pedia)), date: '2024-05', language: 'eng' }],
      },
    ],
  };
  const catalogFile = path.join(temp.dir, 'archives.json');
  writeFileSync(catalogFile, JSON.stringify(catalog));
  s = await startTestServer({
    seed: 'household',
    config: {
      archiveCatalogPath: catalogFile,
      fetchAllowOrigins: [files.url],
      archiveServerPort: await freePort(),
      kiwixToolsUrl: files.addFile('kiwix-tools_linux-x86_64.tar.gz', bundle, { throttleBps: 256 * 1024 }),
      searchPath: [],
      kiwixServePath: undefined,
    },
  });
}, 60_000);

afterAll(async () => {
  await s?.close();
  await files?.close();
  zims?.remove();
  temp.remove();
});

describe('install-kiwix', () => {
  it('starts with no archive server: archives install but are not served, the reader gets a friendly page', async () => {
    expect((await s.member.get('/api/archives/status')).body).toMatchObject({ kiwixInstalled: false, installedCount: 0 });
    const conn = await connectSse(s.url, '/api/admin/archives/download/fixturepedia', { cookie: s.admin.cookie! }, { body: {} });
    await conn.ended;
    expect(conn.events.at(-1)).toMatchObject({ event: 'done', data: { sourceId: 'fixturepedia', served: false } });
    const status = (await s.member.get('/api/archives/status')).body;
    expect(status).toMatchObject({ kiwixInstalled: false, kiwixState: 'failed', installedCount: 1 });
    expect(status.kiwixError).toMatch(/not installed/);
    const page = await s.anon.get('/api/archives/view/fixturepedia/A/Water_heater');
    expect(page.status).toBe(503);
    expect(page.text).toContain('<meta http-equiv="refresh"');
  });

  it('is for admins only', async () => {
    expect((await s.anon.post('/api/admin/archives/install-kiwix')).status).toBe(401);
    expect((await s.member.post('/api/admin/archives/install-kiwix')).status).toBe(403);
  });

  it('downloads and unpacks the bundle, makes kiwix-serve executable, then serves the installed archives', async () => {
    const r = await postSse(`${s.url}/api/admin/archives/install-kiwix`, s.admin.cookie!);
    expect(r.status).toBe(200);
    expect(r.type).toContain('text/event-stream');
    const names = r.events.map((e) => e.event);
    expect(names[0]).toBe('status');
    expect(r.events[0]!.data).toMatchObject({ state: 'downloading', url: s.config.kiwixToolsUrl });
    expect(names).toContain('progress');
    expect(r.events.filter((e) => e.event === 'status').map((e) => e.data.state)).toEqual(['downloading', 'extracting', 'placing', 'starting']);
    const binDir = path.join(s.dataDir, 'components', 'kiwix-tools', 'bin');
    // where it was placed (a path under DATA_DIR) stays on the server
    expect(r.events.at(-1)).toEqual({ event: 'done', data: { installed: true, kiwixState: 'ready', kiwixError: null, installedCount: 1 } });

    accessSync(path.join(binDir, 'kiwix-serve'), constants.X_OK);
    accessSync(path.join(binDir, 'kiwix-manage'), constants.X_OK);
    // nothing left behind: no bundle, no staging folders
    expect(existsSync(path.join(s.dataDir, 'components', 'kiwix-tools', 'downloads', 'kiwix-tools_linux-x86_64.tar.gz'))).toBe(false);

    expect((await s.member.get('/api/archives/status')).body).toMatchObject({ kiwixInstalled: true, kiwixState: 'ready', kiwixError: null, installedCount: 1 });
    const page = await s.anon.get('/api/archives/view/fixturepedia/A/Water_heater');
    expect(page.status).toBe(200);
    expect((await s.member.get('/api/archives/installed')).body.archives[0]).toMatchObject({ bookName: 'pedia', ready: true }); // from the file name
  });

  it('installing again replaces the tools in place while the archives stay served', async () => {
    const r = await postSse(`${s.url}/api/admin/archives/install-kiwix`, s.admin.cookie!);
    expect(r.events.at(-1)).toMatchObject({ event: 'done', data: { kiwixState: 'ready' } });
    expect((await s.anon.get('/api/archives/view/fixturepedia/A/Water_heater')).status).toBe(200);
  });

  it('one install at a time', async () => {
    files.behave('kiwix-tools_linux-x86_64.tar.gz', { stallAfterBytes: 10 });
    const client = new Agent();
    await request(`${s.url}/api/admin/archives/install-kiwix`, { method: 'POST', headers: { cookie: s.admin.cookie!, origin: s.url }, dispatcher: client });
    // the stream is open: a second install is refused
    const second = await s.admin.post('/api/admin/archives/install-kiwix');
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('install_in_progress');
    files.behave('kiwix-tools_linux-x86_64.tar.gz', {});
    await client.destroy(); // the client goes away: the stalled install stops at once
    // once the stalled install has stopped, the next one is accepted and finishes
    const again = await waitFor(async () => {
      const r = await postSse(`${s.url}/api/admin/archives/install-kiwix`, s.admin.cookie!);
      return r.status === 200 && r;
    }, 'a new install to be accepted', 5000, 50);
    expect(again.events.at(-1)!.event).toBe('done');
  });

  it('answers 503 offline_mode in offline mode', async () => {
    const off = await startTestServer({ seed: 'household', config: { offline: true, archiveCatalogPath: path.join(temp.dir, 'archives.json'), archiveServerPort: await freePort() } });
    try {
      const r = await off.admin.post('/api/admin/archives/install-kiwix');
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('offline_mode');
    } finally {
      await off.close();
    }
  });
});

describe('which bundle', () => {
  it('uses the official bundle per OS, KIWIX_TOOLS_URL first, and a package manager where there is none', () => {
    expect(kiwixToolsSource('linux', 'x64')).toEqual({ kind: 'bundle', url: 'https://download.kiwix.org/release/kiwix-tools/kiwix-tools_linux-x86_64.tar.gz' });
    expect(kiwixToolsSource('linux', 'arm64')).toEqual({ kind: 'bundle', url: 'https://download.kiwix.org/release/kiwix-tools/kiwix-tools_linux-aarch64.tar.gz' });
    expect(kiwixToolsSource('win32', 'x64')).toEqual({ kind: 'bundle', url: 'https://download.kiwix.org/release/kiwix-tools/kiwix-tools_win-x86_64.zip' });
    expect(kiwixToolsSource('darwin', 'arm64')).toMatchObject({ kind: 'package-manager', command: 'brew install kiwix-tools' });
    expect(kiwixToolsSource('darwin', 'arm64', 'http://127.0.0.1:1/x.tar.gz')).toEqual({ kind: 'bundle', url: 'http://127.0.0.1:1/x.tar.gz' });
  });

  it('on macOS without kiwix-serve, the install is refused with the Homebrew command; with it, Hearth only serves', async () => {
    const deps = s.handle.deps.archiveRuntime['deps'];
    const mac = new ArchiveRuntimeService({ ...deps, platform: 'darwin', arch: 'arm64', kiwixToolsUrl: undefined, isInstalled: () => false });
    expect(() => mac.prepareInstallRuntime(SYSTEM_ACTOR)).toThrow(expect.objectContaining({ status: 422, code: 'needs_package_manager', details: { command: 'brew install kiwix-tools' } }));
    const brewed = new ArchiveRuntimeService({ ...deps, platform: 'darwin', arch: 'arm64', kiwixToolsUrl: undefined, isInstalled: () => true });
    const events: Array<{ event: string; data: any }> = [];
    await brewed.installRuntime(SYSTEM_ACTOR, { send: (event, data) => events.push({ event, data }), signal: new AbortController().signal });
    expect(events.map((e) => e.event)).toEqual(['status', 'done']);
    expect(events[1]!.data).toMatchObject({ installed: true, kiwixState: 'ready' });
  });
});
