// Kill -9 of Hearth and a quick restart, with the real kiwix-serve: the orphaned kiwix-serve still
// holds the archive port for about a second. The new Hearth's archive server must end up ready
// and serving, from its own kiwix-serve, without an admin pressing Verify.
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, until } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { buildTestZims, kiwixServeOnPath, type TestZims } from '../harness/zims.js';
import { alive, childrenOf, kill9, startHearthProcess, stopProcess } from '../harness/processes.js';

const temp = makeTempDir();
const dataDir = path.join(temp.dir, 'data');
let zims: TestZims;
let archivePort = 0;
let child: ChildProcess | null = null;
let again: TestServer | null = null;


/** The kiwix-serve a process started. */
const kiwixChild = (parent: number): number | null => childrenOf(parent).find(({ argv }) => argv.some((a) => a.includes('kiwix-serve')))?.pid ?? null;

beforeAll(async () => {
  zims = buildTestZims();
  archivePort = await freePort();
  mkdirSync(dataDir, { recursive: true });
  // a household with one archive installed
  const first = await startTestServer({ dataDir, config: { archiveServerPort: archivePort, kiwixServePath: kiwixServeOnPath() } });
  const file = path.join(dataDir, 'archives', 'fixturepedia', path.basename(zims.encyclopedia));
  mkdirSync(path.dirname(file), { recursive: true });
  copyFileSync(zims.encyclopedia, file);
  const now = new Date().toISOString();
  await first.handle.deps.db('zim_archives').insert({ source_id: 'fixturepedia', variant_key: 'all', book_name: null, file_path: file, file_size_bytes: 1, zim_date: '2024-05', downloaded_at: now, verified_at: null, created_at: now, updated_at: now });
  await first.close();
}, 60_000);

afterAll(async () => {
  await again?.close();
  await stopProcess(child);
  zims?.remove();
  temp.remove();
});

it('after kill -9 and a quick restart the archive server comes up from its own kiwix-serve and stays up', { timeout: 120_000 }, async () => {
  const port = await freePort();
  child = await startHearthProcess({ port, dataDir, env: { ARCHIVE_SERVER_PORT: String(archivePort), KIWIX_SERVE_PATH: kiwixServeOnPath() }, what: 'the first Hearth' });
  const orphan = await until(() => kiwixChild(child!.pid!), 'its kiwix-serve');
  await until(async () => (await fetch(`http://127.0.0.1:${archivePort}/`)).ok, 'kiwix-serve to answer');

  await kill9(child);
  expect(alive(orphan)).toBe(true); // it outlives Hearth for about a second

  again = await startTestServer({ dataDir, config: { archiveServerPort: archivePort, kiwixServePath: kiwixServeOnPath() } });
  await until(async () => (await again!.handle.deps.archives.statusView()).kiwixState === 'ready', 'the archive server to be ready', 30_000);
  await until(() => !alive(orphan), 'the orphan to be gone', 10_000);
  // still ready once the orphan is gone: the answers come from the new Hearth's own kiwix-serve
  await new Promise((r) => setTimeout(r, 1500));
  expect(await again.handle.deps.archives.statusView()).toMatchObject({ kiwixState: 'ready', kiwixError: null });
  const page = await again.anon.get('/api/archives/view/fixturepedia/');
  expect(page.status).toBe(200);
});
