// downloadInWorker(): the transfer runs in a thread of its own with a guard rebuilt from the main
// guard's settings; a thread that dies fails the attempt retryably and the next one resumes from
// the .part; an abort settles only after the thread has stopped writing.
import dns from 'node:dns';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { threadId, type Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadError, partPath, removePartial } from '../../server/adapters/web/download.js';
import { downloadInWorker } from '../../server/adapters/web/download-worker.js';
import { createSsrfGuard, type SsrfGuard } from '../../server/platform/ssrf.js';
import { FakeFileServer, makeContent, sha256 } from '../fakes/file-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { waitFor } from '../harness/net.js';

const KB = 1024;

const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);

describe('download worker', () => {
  let files: FakeFileServer;
  let guard: SsrfGuard;
  const temp = makeTempDir('hearth-dlworker-');

  beforeAll(async () => {
    files = await new FakeFileServer().start();
    guard = createSsrfGuard({ allowOrigins: [files.url] });
  });
  afterAll(async () => {
    await guard.close();
    await files.close();
    temp.remove();
  });

  const base = (name: string, url: string, data: Buffer) => ({
    guard,
    url,
    dest: path.join(temp.dir, name),
    expectedBytes: data.length,
    sha256: sha256(data),
    signal: new AbortController().signal,
    stallTimeoutMs: 5_000,
  });

  it('downloads and verifies in another thread, reporting progress', async () => {
    const data = makeContent(600 * KB, 3);
    const url = files.addBuffer('a.bin', data);
    const threads: number[] = [];
    const progress: number[] = [];
    const r = await downloadInWorker({ ...base('a.bin', url, data), onProgress: (p) => progress.push(p.bytesDone) }, { onWorker: (w) => threads.push(w.threadId) });
    expect(r).toEqual({ bytes: data.length, sha256: sha256(data), resumedFrom: 0 });
    expect(readFileSync(path.join(temp.dir, 'a.bin')).equals(data)).toBe(true);
    expect(existsSync(partPath(path.join(temp.dir, 'a.bin')))).toBe(false);
    expect(threads).toHaveLength(1);
    expect(threads[0]).not.toBe(threadId);
    expect(progress.at(-1)).toBe(data.length);
  });

  it('a worker that dies mid-transfer fails the attempt retryably, keeps the .part, and the next attempt resumes from it', async () => {
    const data = makeContent(4096 * KB, 5);
    const url = files.addBuffer('crash.bin', data, { throttleBps: 2048 * KB });
    const opts = base('crash.bin', url, data);
    let worker: Worker | null = null;
    const attempt = downloadInWorker(opts, { onWorker: (w) => (worker = w) });
    await waitFor(() => sizeOf(partPath(opts.dest)) >= 1024 * KB, 'some bytes on disk', 20_000); // written in 1 MB batches
    await worker!.terminate();
    const err = await attempt.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect((err as DownloadError).retryable).toBe(true);
    expect((err as DownloadError).message).toMatch(/download worker stopped unexpectedly/);
    const kept = sizeOf(partPath(opts.dest));
    expect(kept).toBeGreaterThanOrEqual(1024 * KB);
    expect(kept).toBeLessThan(data.length);

    files.behave('crash.bin', {});
    const r = await downloadInWorker(opts);
    expect(r.resumedFrom).toBe(kept);
    expect(r.sha256).toBe(sha256(data));
    expect(files.requests.filter((q) => q.path === 'crash.bin').at(-1)!.range).toBe(`bytes=${kept}-`);
    expect(readFileSync(opts.dest).equals(data)).toBe(true);
  });

  it('an abort rejects with its reason only after the thread has stopped writing; the .part can then be removed for good', async () => {
    const data = makeContent(2048 * KB, 7);
    const url = files.addBuffer('cancel.bin', data, { throttleBps: 512 * KB });
    const controller = new AbortController();
    const opts = { ...base('cancel.bin', url, data), signal: controller.signal };
    let exited = false;
    const attempt = downloadInWorker(opts, { onWorker: (w) => w.once('exit', () => (exited = true)) });
    await waitFor(() => existsSync(partPath(opts.dest)), 'the transfer to start', 20_000);
    const reason = new Error('cancelled by the test');
    controller.abort(reason);
    await expect(attempt).rejects.toBe(reason);
    expect(exited).toBe(true);
    await removePartial(opts.dest);
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(partPath(opts.dest))).toBe(false);
    expect(existsSync(`${opts.dest}.part.json`)).toBe(false);
    expect(existsSync(opts.dest)).toBe(false);
  });

  it('the worker checks addresses with the same guard settings: an origin the main guard does not allow is refused, not retried', async () => {
    const data = makeContent(10 * KB, 9);
    const other = await new FakeFileServer().start();
    try {
      const url = other.addBuffer('private.bin', data);
      const err = await downloadInWorker(base('private.bin', url, data)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DownloadError);
      expect((err as DownloadError).retryable).toBe(false);
      expect((err as DownloadError).message).toMatch(/private or local network/);
      expect(other.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('a guard with a custom DNS lookup (which cannot cross threads) downloads in the calling thread', async () => {
    const data = makeContent(64 * KB, 11);
    const url = files.addBuffer('inline.bin', data);
    const custom = createSsrfGuard({ allowOrigins: [files.url], lookup: dns.lookup });
    expect(custom.workerOptions).toBeNull();
    try {
      let started = 0;
      const r = await downloadInWorker({ ...base('inline.bin', url, data), guard: custom }, { onWorker: () => started++ });
      expect(r.sha256).toBe(sha256(data));
      expect(started).toBe(0);
    } finally {
      await custom.close();
    }
  });
});
