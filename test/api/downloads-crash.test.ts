// Kill -9 of Hearth in the middle of a download: the next start resumes the job from its .part
// file and finishes with the right checksum, without fetching the finished bytes again.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FakeFileServer, makeContent, sha256 } from '../fakes/file-server.js';
import { TestClient } from '../harness/client.js';
import { ADMIN } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { freePort, until } from '../harness/net.js';
import { kill9, startHearthProcess } from '../harness/processes.js';

const MB = 1024 * 1024;

let files: FakeFileServer;
const temp = makeTempDir();
let child: ChildProcess | null = null;

const startHearth = (port: number, what: string) => startHearthProcess({ port, dataDir: temp.dir, env: { FETCH_ALLOW_ORIGINS: files.url }, what });

beforeAll(async () => {
  files = await new FakeFileServer().start();
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await files.close();
  temp.remove();
});

it('resumes from the .part file after SIGKILL and finishes with the right checksum', { timeout: 120_000 }, async () => {
  const data = makeContent(12 * MB, 99);
  const url = files.addBuffer('crash.zim', data, { throttleBps: 3 * MB });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  child = await startHearth(port, 'first start');

  const admin = new TestClient(base);
  expect((await admin.post('/api/setup/admin', ADMIN)).status).toBe(201);
  const enq = await admin.post('/api/admin/queue/jobs', {
    jobs: [{ kind: 'archive', hostClass: 'archive', label: 'Crash test', target: url, destination: 'archives/crash.zim', expectedBytes: data.length, sha256: sha256(data) }],
  });
  expect(enq.status).toBe(201);
  const id = enq.body.jobs[0].id;
  const part = path.join(temp.dir, 'archives', 'crash.zim.part');
  await until(() => existsSync(part) && statSync(part).size > 3 * MB, 'a few MB on disk');

  await kill9(child);
  const partAtKill = statSync(part).size;
  expect(partAtKill).toBeLessThan(data.length);

  child = await startHearth(port, 'second start');
  // the session cookie survives the crash too
  const done = await until(async () => {
    const j = (await admin.get('/api/jobs/status')).body.jobs.find((x: any) => x.id === id);
    return j?.state === 'completed' ? j : null;
  }, 'the job to complete after restart', 60_000);
  expect(done.bytesDone).toBe(data.length);

  const final = path.join(temp.dir, 'archives', 'crash.zim');
  expect(sha256(readFileSync(final))).toBe(sha256(data));
  expect(existsSync(part)).toBe(false);

  const reqs = files.requests.filter((r) => r.path === 'crash.zim');
  const resumed = reqs.at(-1)!;
  expect(resumed.status).toBe(206);
  const from = Number(/bytes=(\d+)-/.exec(resumed.range ?? '')?.[1]);
  // everything that was on disk at the kill was kept (the part may have grown by a last flush)
  expect(from).toBeGreaterThanOrEqual(partAtKill);
});
