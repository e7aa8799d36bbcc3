import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JobsStatus } from '../../server/modules/downloads/schema.js';
import { FakeFileServer, makeContent, sha256 } from '../fakes/file-server.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { waitFor } from '../harness/net.js';

const KB = 1024;

describe('download queue', () => {
  let files: FakeFileServer;
  let s: TestServer;
  let free = Number.MAX_SAFE_INTEGER;

  beforeAll(async () => {
    files = await new FakeFileServer().start();
    s = await startTestServer({
      seed: 'household',
      config: { fetchAllowOrigins: [files.url] },
      overrides: { tuning: { downloadStallTimeoutMs: 400, downloadBackoffBaseMs: 20 }, diskFree: async () => free },
    });
  });
  afterAll(async () => {
    await s.close();
    await files.close();
  });
  afterEach(async () => {
    free = Number.MAX_SAFE_INTEGER;
    await s.admin.post('/api/admin/queue/resume');
  });

  const enqueue = (jobs: object[]) => s.admin.post('/api/admin/queue/jobs', { jobs });
  const job = (over: object) => ({ kind: 'archive', hostClass: 'archive', label: 'Test file', ...over });
  const getJob = async (id: string) => (await s.member.get('/api/jobs/status')).body.jobs.find((j: any) => j.id === id);
  const settled = (id: string) => waitFor(async () => {
    const j = await getJob(id);
    return j && ['completed', 'failed', 'cancelled'].includes(j.state) ? j : null;
  }, `job ${id} to settle`, 20_000);
  const dest = (name: string) => path.join(s.dataDir, 'archives', name);

  it('downloads, verifies the checksum and moves the file into place', async () => {
    const data = makeContent(700 * KB, 7);
    const url = files.addBuffer('plain.zim', data);
    const r = await enqueue([job({ target: url, destination: 'archives/plain.zim', expectedBytes: data.length, sha256: sha256(data) })]);
    expect(r.status).toBe(201);
    const done = await settled(r.body.jobs[0].id);
    expect(done).toMatchObject({ state: 'completed', bytesDone: data.length, attempts: 1, lastError: null });
    expect(sha256(readFileSync(dest('plain.zim')))).toBe(sha256(data));
    expect(existsSync(`${dest('plain.zim')}.part`)).toBe(false);
    const status = JobsStatus.parse((await s.member.get('/api/jobs/status')).body);
    expect(status.counts.completed).toBeGreaterThanOrEqual(1);
  });

  it('resumes with Range after a dropped connection, without re-downloading finished bytes', async () => {
    const data = makeContent(900 * KB, 11);
    const url = files.addBuffer('drop.zim', data, { dropAfterBytes: 300 * KB, dropTimes: 1 });
    const r = await enqueue([job({ target: url, destination: 'archives/drop.zim', expectedBytes: data.length, sha256: sha256(data) })]);
    const done = await settled(r.body.jobs[0].id);
    expect(done.state).toBe('completed');
    expect(done.attempts).toBe(2);
    const reqs = files.requests.filter((q) => q.path === 'drop.zim');
    expect(reqs).toHaveLength(2);
    expect(reqs[0]!.range).toBeUndefined();
    const resumedAt = Number(/bytes=(\d+)-/.exec(reqs[1]!.range ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThanOrEqual(300 * KB);
    expect(reqs[1]!.ifRange).toMatch(/^"/);
    expect(reqs[1]!.status).toBe(206);
    expect(sha256(readFileSync(dest('drop.zim')))).toBe(sha256(data));
  });

  it('restarts from zero when the server ignores Range, and still gets the right file', async () => {
    const data = makeContent(600 * KB, 13);
    const url = files.addBuffer('norange.zim', data, { ignoreRange: true, dropAfterBytes: 200 * KB, dropTimes: 1 });
    const r = await enqueue([job({ target: url, destination: 'archives/norange.zim', expectedBytes: data.length, sha256: sha256(data) })]);
    const done = await settled(r.body.jobs[0].id);
    expect(done.state).toBe('completed');
    const reqs = files.requests.filter((q) => q.path === 'norange.zim');
    expect(reqs[1]!.range).toMatch(/^bytes=\d+-$/);
    expect(reqs[1]!.status).toBe(200);
    expect(sha256(readFileSync(dest('norange.zim')))).toBe(sha256(data));
  });

  it('restarts when the upstream file changed between attempts (If-Range)', async () => {
    const v1 = makeContent(500 * KB, 17);
    const v2 = makeContent(500 * KB, 18);
    const url = files.addBuffer('changed.zim', v1, { dropAfterBytes: 100 * KB, dropTimes: 1 });
    const r = await enqueue([job({ target: url, destination: 'archives/changed.zim', expectedBytes: v2.length })]);
    await waitFor(async () => files.requests.some((q) => q.path === 'changed.zim'), 'first request', 20_000);
    files.replace('changed.zim', v2);
    const done = await settled(r.body.jobs[0].id);
    expect(done.state).toBe('completed');
    expect(sha256(readFileSync(dest('changed.zim')))).toBe(sha256(v2));
  });

  it('retries 5xx answers with backoff, then succeeds', async () => {
    const data = makeContent(100 * KB, 19);
    const url = files.addBuffer('flaky.zim', data, { failStatus: 503, failTimes: 3 });
    const r = await enqueue([job({ target: url, destination: 'archives/flaky.zim', sha256: sha256(data) })]);
    const done = await settled(r.body.jobs[0].id);
    expect(done).toMatchObject({ state: 'completed', attempts: 4 });
  });

  it('gives up after 6 attempts and keeps the last error; retry starts it again', async () => {
    const data = makeContent(50 * KB, 23);
    const url = files.addBuffer('down.zim', data, { failStatus: 500, failTimes: 100 });
    const r = await enqueue([job({ target: url, destination: 'archives/down.zim' })]);
    const failed = await settled(r.body.jobs[0].id);
    expect(failed).toMatchObject({ state: 'failed', attempts: 6 });
    // a sentence with a next step, not the status code (that goes to the log)
    expect(failed.lastError).toMatch(/download site had a problem.*retry it from Downloads/);
    expect(files.requests.filter((q) => q.path === 'down.zim')).toHaveLength(6);

    files.behave('down.zim', {});
    expect((await s.member.post(`/api/jobs/${failed.id}/retry`)).status).toBe(403);
    const retried = await s.admin.post(`/api/jobs/${failed.id}/retry`);
    expect(retried.status).toBe(200);
    expect((await settled(failed.id)).state).toBe('completed');
  });

  it('fails at once on a 404 (another attempt cannot help)', async () => {
    const r = await enqueue([job({ target: `${files.url}/missing.zim`, destination: 'archives/missing.zim' })]);
    const failed = await settled(r.body.jobs[0].id);
    expect(failed).toMatchObject({ state: 'failed', attempts: 1 });
    expect(failed.lastError).toMatch(/no longer where Hearth looked for it/);
  });

  it('throws away a damaged copy (checksum mismatch) and fails after the attempts, leaving no file', async () => {
    const data = makeContent(80 * KB, 29);
    const url = files.addBuffer('corrupt.zim', data, { corrupt: true });
    const r = await enqueue([job({ target: url, destination: 'archives/corrupt.zim', sha256: sha256(data) })]);
    const failed = await settled(r.body.jobs[0].id);
    expect(failed.state).toBe('failed');
    expect(failed.lastError).toMatch(/checksum/);
    expect(existsSync(dest('corrupt.zim'))).toBe(false);
    expect(existsSync(`${dest('corrupt.zim')}.part`)).toBe(false);
  });

  it('a stalled transfer is abandoned and resumed', async () => {
    const data = makeContent(300 * KB, 31);
    const url = files.addBuffer('stall.zim', data, { stallAfterBytes: 128 * KB });
    const r = await enqueue([job({ target: url, destination: 'archives/stall.zim', sha256: sha256(data) })]);
    await waitFor(async () => files.requests.filter((q) => q.path === 'stall.zim').length >= 1, 'first request', 20_000);
    await new Promise((res) => setTimeout(res, 100));
    files.behave('stall.zim', {});
    const done = await settled(r.body.jobs[0].id);
    expect(done.state).toBe('completed');
    expect(done.attempts).toBe(2);
    expect(files.requests.filter((q) => q.path === 'stall.zim')[1]!.range).toBe(`bytes=${128 * KB}-`);
  });

  it('cancel stops a running download and removes its partial file', async () => {
    const data = makeContent(2048 * KB, 37);
    const url = files.addBuffer('slow.zim', data, { throttleBps: 512 * KB });
    const r = await enqueue([job({ target: url, destination: 'archives/slow.zim' })]);
    const id = r.body.jobs[0].id;
    await waitFor(async () => (await getJob(id))?.state === 'running' && existsSync(`${dest('slow.zim')}.part`), 'the download to start', 20_000);
    const c = await s.admin.post(`/api/jobs/${id}/cancel`);
    expect(c.status).toBe(200);
    expect(c.body.job.state).toBe('cancelled');
    expect(existsSync(`${dest('slow.zim')}.part`)).toBe(false);
    expect(existsSync(dest('slow.zim'))).toBe(false);
    expect((await s.admin.post(`/api/jobs/${id}/cancel`)).status).toBe(409);
  });

  it('refuses a download that cannot fit on the disk, writing nothing', async () => {
    free = 100 * 1024 ** 2;
    const before = (await s.admin.get('/api/admin/queue')).body.jobs.length;
    const r = await enqueue([job({ target: `${files.url}/big.zim`, destination: 'archives/big.zim', expectedBytes: 5 * 1024 ** 3 })]);
    expect(r.status).toBe(507);
    expect(r.body.error.code).toBe('not_enough_disk');
    expect(r.body.error.message).toMatch(/GB/);
    expect((await s.admin.get('/api/admin/queue')).body.jobs.length).toBe(before);
  });

  it('refuses destinations outside the data folder', async () => {
    for (const destination of ['../escape.zim', '/etc/passwd', 'archives/../../x']) {
      const r = await enqueue([job({ target: `${files.url}/x`, destination })]);
      expect(r.status).toBe(400);
    }
  });

  it('refuses any destination outside the download folders: the database, other files and folders of the data folder, climbs, absolute paths, symlinks out', async () => {
    const dataDir = s.dataDir;
    mkdirSync(path.join(dataDir, 'archives'), { recursive: true });
    symlinkSync(dataDir, path.join(dataDir, 'archives', 'up'));
    symlinkSync(path.join(dataDir, 'hearth.db'), path.join(dataDir, 'archives', 'db.zim'));
    const db = readFileSync(path.join(dataDir, 'hearth.db'));
    const before = (await s.admin.get('/api/admin/queue')).body.jobs.length;
    for (const destination of [
      'hearth.db', './hearth.db', 'hearth.db-wal', 'logs/hearth.log', 'x.zim', 'archives', 'archives/', 'models/', 'archives/.', 'archives/..', 'archives/../hearth.db',
      'models/../hearth.db', 'archives\\..\\hearth.db', '../hearth.db', `${dataDir}/hearth.db`, `${dataDir}/archives/x.zim`, '/archives/x.zim', 'C:\\hearth.db',
      'archives/up/hearth.db', 'archives/db.zim', 'files/x.bin', 'archives/x.zim\u0000',
    ]) {
      const r = await enqueue([job({ target: `${files.url}/x`, destination })]);
      expect(r.status, destination).toBe(400);
      expect(r.body.error.code, destination).toBe('invalid_request');
      expect(r.body.error.message, destination).toMatch(/archives, maps, models, components, podcasts, vstream folder/);
    }
    expect((await s.admin.get('/api/admin/queue')).body.jobs.length).toBe(before);
    expect(readFileSync(path.join(dataDir, 'hearth.db')).equals(db)).toBe(true);
    // each download folder still takes a file, also in a sub-folder
    const data = makeContent(8 * KB, 77);
    const url = files.addBuffer('folders.bin', data);
    for (const destination of ['archives/sub/ok.zim', 'maps/ok.map', 'models/ok.bin', 'components/ok.tgz']) {
      const r = await enqueue([job({ target: `${url}?${destination}`, destination, expectedBytes: data.length })]);
      expect(r.status, destination).toBe(201);
      expect((await settled(r.body.jobs[0].id)).state, destination).toBe('completed');
      expect(readFileSync(path.join(dataDir, destination)).equals(data), destination).toBe(true);
    }
  });

  it('pause holds new jobs; resume runs them', async () => {
    const data = makeContent(40 * KB, 41);
    const url = files.addBuffer('paused.zim', data);
    expect((await s.admin.post('/api/admin/queue/pause')).body).toEqual({ paused: true });
    const r = await enqueue([job({ target: url, destination: 'archives/paused.zim' })]);
    await new Promise((res) => setTimeout(res, 200));
    expect((await getJob(r.body.jobs[0].id)).state).toBe('pending');
    expect((await s.member.get('/api/jobs/status')).body.paused).toBe(true);
    await s.admin.post('/api/admin/queue/resume');
    expect((await settled(r.body.jobs[0].id)).state).toBe('completed');
  });

  it('a job waits for its prerequisite, and fails clearly when the prerequisite fails', async () => {
    const tools = makeContent(30 * KB, 43);
    const slowTools = files.addBuffer('tools.bin', tools, { throttleBps: 100 * KB });
    const archive = files.addBuffer('needs-tools.zim', makeContent(20 * KB, 44));
    const a = (await enqueue([job({ kind: 'component', hostClass: 'code_host', target: slowTools, destination: 'components/tools.bin', label: 'Archive tools' })])).body.jobs[0];
    const b = (await enqueue([job({ target: archive, destination: 'archives/needs-tools.zim', requires: [a.id] })])).body.jobs[0];
    await waitFor(async () => (await getJob(a.id)).state === 'running', 'prerequisite to run', 20_000);
    expect((await getJob(b.id)).state).toBe('pending');
    await settled(a.id);
    const done = await settled(b.id);
    expect(done.state).toBe('completed');
    expect(new Date(done.startedAt).getTime()).toBeGreaterThanOrEqual(new Date((await getJob(a.id)).finishedAt).getTime());

    const c = (await enqueue([job({ kind: 'component', hostClass: 'code_host', target: `${files.url}/nope.bin`, destination: 'components/nope.bin', label: 'Maps toolchain' })])).body.jobs[0];
    const d = (await enqueue([job({ kind: 'map', hostClass: 'maps', target: archive, destination: 'maps/x.map', requires: [c.id] })])).body.jobs[0];
    const blocked = await settled(d.id);
    expect(blocked.state).toBe('failed');
    expect(blocked.lastError).toMatch(/Needs Maps toolchain/);
  });

  it('one job per host class at a time', async () => {
    const one = files.addBuffer('host-1.zim', makeContent(200 * KB, 51), { throttleBps: 400 * KB });
    const two = files.addBuffer('host-2.zim', makeContent(200 * KB, 52), { throttleBps: 400 * KB });
    const r = await enqueue([job({ target: one, destination: 'archives/h1.zim' }), job({ target: two, destination: 'archives/h2.zim' })]);
    const [a, b] = r.body.jobs;
    const [ja, jb] = [await settled(a.id), await settled(b.id)];
    expect([ja.state, jb.state]).toEqual(['completed', 'completed']);
    // the server's own start and finish times: the second started only after the first finished
    const [first, second] = [ja, jb].sort((x, y) => x.startedAt.localeCompare(y.startedAt));
    expect(new Date(second.startedAt).getTime()).toBeGreaterThanOrEqual(new Date(first.finishedAt).getTime());
  });

  it('does not enqueue the same target twice while it is live', async () => {
    const url = files.addBuffer('dup.zim', makeContent(400 * KB, 61), { throttleBps: 800 * KB });
    const first = (await enqueue([job({ target: url, destination: 'archives/dup.zim' })])).body.jobs[0];
    const second = (await enqueue([job({ target: url, destination: 'archives/dup.zim' })])).body.jobs[0];
    expect(second.id).toBe(first.id);
    await settled(first.id);
  });

  it('retry-all-failed puts every failed job back in the queue', async () => {
    const url = files.addBuffer('all-failed.zim', makeContent(10 * KB, 71), { failStatus: 404, failTimes: 1 });
    const r = await enqueue([job({ target: url, destination: 'archives/all-failed.zim' })]);
    await settled(r.body.jobs[0].id);
    const res = await s.admin.post('/api/jobs/retry-all-failed');
    expect(res.status).toBe(200);
    expect(res.body.retried).toBeGreaterThanOrEqual(1);
    expect((await settled(r.body.jobs[0].id)).state).toBe('completed');
  });

  it('admin queue routes are admin-only; status is for every member', async () => {
    expect((await s.member.get('/api/admin/queue')).status).toBe(403);
    expect((await s.member.post('/api/admin/queue/pause')).status).toBe(403);
    expect((await s.anon.get('/api/jobs/status')).status).toBe(401);
    expect((await s.member.get('/api/jobs/status')).status).toBe(200);
  });
});

describe('download queue in offline mode', () => {
  it('refuses outbound jobs with 503 offline_mode and writes nothing', async () => {
    const s = await startTestServer({ seed: 'household', config: { offline: true } });
    try {
      const r = await s.admin.post('/api/admin/queue/jobs', { jobs: [{ kind: 'archive', hostClass: 'archive', label: 'x', target: 'https://download.kiwix.org/x.zim', destination: 'archives/x.zim' }] });
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('offline_mode');
      expect(await s.handle.deps.db('download_jobs').select('id')).toEqual([]);
      expect((await s.member.get('/api/jobs/status')).body.offline).toBe(true);
    } finally {
      await s.close();
    }
  });
});
