// Kill -9 of Hearth in the middle of an archive download: the next download of that archive, in a
// new Hearth on the same DATA_DIR, continues from the .part file, ends with the right checksum
// and is served by the real kiwix-serve.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FakeFileServer, makeContent, sha256 } from '../fakes/file-server.js';
import { TestClient } from '../harness/client.js';
import { freePort, until } from '../harness/net.js';
import { connectSse } from '../harness/sse-client.js';
import { ADMIN } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { buildTestZims, kiwixServeOnPath, type TestZims } from '../harness/zims.js';
import { kill9, startHearthProcess, stopProcess } from '../harness/processes.js';

const MB = 1024 * 1024;

let files: FakeFileServer;
let zims: TestZims;
const temp = makeTempDir();
const dataDir = path.join(temp.dir, 'data');
let child: ChildProcess | null = null;
let zim: { file: string; bytes: Buffer };
let archivePort = 0;

const startHearth = (port: number, what: string) =>
  startHearthProcess({
    port,
    dataDir,
    env: { FETCH_ALLOW_ORIGINS: files.url, ARCHIVE_CATALOG_PATH: path.join(temp.dir, 'archives.json'), ARCHIVE_SERVER_PORT: String(archivePort), KIWIX_SERVE_PATH: kiwixServeOnPath() },
    what,
  });

beforeAll(async () => {
  zims = buildTestZims();
  files = await new FakeFileServer().start();
  // An archive big enough to have whole megabytes on disk when Hearth dies (the downloader writes
  // in 1 MB batches): the fixture pages plus 6 MB of incompressible data, without a search index.
  const src = path.join(temp.dir, 'src-big');
  mkdirSync(path.join(src, 'data'), { recursive: true });
  writeFileSync(path.join(src, 'index.html'), '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Big</title></head><body><p>A big archive.</p></body></html>\n');
  copyFileSync(path.join(zims.dir, 'src-encyclopedia', '-', 'favicon.png'), path.join(src, 'favicon.png'));
  writeFileSync(path.join(src, 'data', 'blob.bin'), makeContent(6 * MB, 7));
  const file = path.join(temp.dir, 'bigarchive_en_all_2024-05.zim');
  execFileSync('zimwriterfs', ['-j', '-w', 'index.html', '-I', 'favicon.png', '-l', 'eng', '-t', 'Big', '-d', 'A big archive', '-c', 't', '-p', 't', '-n', 'bigarchive_en_all', '-J', '1', src, file], { stdio: 'ignore' });
  zim = { file, bytes: readFileSync(file) };
  const url = files.addFile('bigarchive_en_all_2024-05.zim', file, { throttleBps: 1.5 * MB });
  const catalog = { sources: [{ id: 'big', label: 'Big', description: 'Big test archive', category: 'Encyclopedia', faviconUrl: 'https://example.org/b.ico', variants: [{ key: 'all', label: 'All', url, sizeBytes: zim.bytes.length, sha256: sha256(zim.bytes), date: '2024-05', language: 'eng' }] }] };
  writeFileSync(path.join(temp.dir, 'archives.json'), JSON.stringify(catalog));
  archivePort = await freePort();
}, 60_000);

afterAll(async () => {
  await stopProcess(child);
  await files?.close();
  zims?.remove();
  temp.remove();
});

it('a download cut by SIGKILL of Hearth resumes from its .part file with the right checksum, then is served', { timeout: 120_000 }, async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  child = await startHearth(port, 'first start');
  const admin = new TestClient(base);
  expect((await admin.post('/api/setup/admin', ADMIN)).status).toBe(201);

  const first = await connectSse(base, '/api/admin/archives/download/big', { cookie: admin.cookie! }, { body: {} });
  await first.waitFor((e) => e.event === 'progress');
  const part = path.join(dataDir, 'archives', 'big', 'bigarchive_en_all_2024-05.zim.part');
  await until(() => existsSync(part) && statSync(part).size >= 2 * MB, 'two megabytes on disk');

  await kill9(child);
  await first.ended;
  expect(first.events.some((e) => e.event === 'done')).toBe(false);
  const onDisk = statSync(part).size;
  expect(onDisk).toBeLessThan(zim.bytes.length);

  files.behave('bigarchive_en_all_2024-05.zim', {});
  child = await startHearth(port, 'second start');
  // the session survives the crash; the download is asked for again
  const second = await connectSse(base, '/api/admin/archives/download/big', { cookie: admin.cookie! }, { body: {} });
  await second.ended;
  const done = second.events.at(-1)!;
  expect(done).toMatchObject({ event: 'done', data: { sourceId: 'big', bytes: zim.bytes.length, sha256: sha256(zim.bytes), served: true } });
  expect(done.data.resumedFrom).toBeGreaterThan(0);
  expect(done.data.resumedFrom).toBe(onDisk);
  const resumed = files.requests.filter((r) => r.path === 'bigarchive_en_all_2024-05.zim').at(-1)!;
  expect(resumed).toMatchObject({ status: 206, range: `bytes=${onDisk}-` });

  const final = path.join(dataDir, 'archives', 'big', 'bigarchive_en_all_2024-05.zim');
  expect(sha256(readFileSync(final))).toBe(sha256(zim.bytes));
  expect(existsSync(part)).toBe(false);
  const page = await fetch(`${base}/api/archives/view/big/index.html`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('A big archive.');
});
