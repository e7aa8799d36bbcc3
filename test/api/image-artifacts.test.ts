// Each member's pictures over HTTP: private to their member (another member, an admin included,
// is told 404), history of ready pictures with the kind filter and paging, the job still building,
// the picture served with its type (or its state while not ready), cancel and delete (the file too).
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArtifactRecord } from '../../server/modules/image-gen/store.js';
import { getBytes } from '../harness/multipart.js';
import { until } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { ImageGenStore } from '../../server/modules/image-gen/store.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

describe('image artifacts', () => {
  let s: TestServer;
  let t = Date.parse('2026-11-20T10:00:00Z');

  /** A row as the services write it, with its file on disk when ready. */
  async function artifact(userId: string, over: Partial<ArtifactRecord> = {}): Promise<ArtifactRecord> {
    const id = randomUUID();
    const ready = (over.state ?? 'ready') === 'ready';
    const rel = `${userId}/${id}.png`;
    const row: ArtifactRecord = {
      id,
      userId,
      kind: 'generated',
      pipeline: 'txt2img',
      state: 'ready',
      stepCurrent: 25,
      stepTotal: 25,
      isAdult: false,
      prompt: 'a red kite over the sea',
      finalPrompt: null,
      negativePrompt: null,
      style: 'watercolor',
      params: {},
      loras: [],
      sourceId: null,
      error: null,
      outputPath: ready ? rel : null,
      contentType: ready ? 'image/png' : null,
      width: ready ? 1 : null,
      height: ready ? 1 : null,
      bytes: ready ? PNG.length : null,
      createdAt: new Date((t += 1000)).toISOString(),
      startedAt: null,
      finishedAt: ready ? new Date(t).toISOString() : null,
      ...over,
    };
    if (row.outputPath) {
      mkdirSync(path.join(s.dataDir, 'images', userId), { recursive: true });
      writeFileSync(path.join(s.dataDir, 'images', row.outputPath), PNG);
    }
    await new ImageGenStore(s.handle.deps.db).insertArtifact(row);
    return row;
  }

  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
  });
  afterAll(async () => {
    await s.close();
  });

  it('serves a ready picture to its member only: everyone else, the admin included, gets 404', async () => {
    const mine = await artifact(s.users.member.id);
    const res = await s.member.get(`/api/image/artifacts/${mine.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect((await getBytes(s.url, s.member, `/api/image/artifacts/${mine.id}`)).bytes.equals(PNG)).toBe(true);
    for (const p of [`/api/image/artifacts/${mine.id}`, `/api/image/artifacts/${mine.id}/stream`]) {
      const other = await s.admin.get(p);
      expect(other.status, p).toBe(404);
      expect(other.body.error.code).toBe('not_found');
    }
    expect((await s.admin.post(`/api/image/artifacts/${mine.id}/cancel`)).status).toBe(404);
    expect((await s.admin.delete(`/api/image/artifacts/${mine.id}`)).status).toBe(404);
    expect(existsSync(path.join(s.dataDir, 'images', mine.outputPath!))).toBe(true);
    expect((await s.anon.get(`/api/image/artifacts/${mine.id}`)).status).toBe(401);
  });

  it('history: only the member\'s own ready pictures, newest first, filtered by kind, in pages', async () => {
    const fresh = await startTestServer({ seed: 'household' });
    const prev = s;
    s = fresh;
    try {
      const g1 = await artifact(s.users.member.id);
      const e1 = await artifact(s.users.member.id, { kind: 'edited', pipeline: 'auto_color' });
      const g2 = await artifact(s.users.member.id);
      await artifact(s.users.member.id, { state: 'building', stepCurrent: 3 });
      await artifact(s.users.member.id, { state: 'failed', error: 'The engine stopped.' });
      await artifact(s.users.admin.id);

      const all = await s.member.get('/api/image/history');
      expect(all.status).toBe(200);
      expect(all.body.items.map((a: { id: string }) => a.id)).toEqual([g2.id, e1.id, g1.id]);
      expect(all.body).toMatchObject({ total: 3, nextOffset: null });
      expect(all.body.items[0]).toMatchObject({ state: 'ready', url: `/api/image/artifacts/${g2.id}`, style: 'watercolor', position: null });
      expect(all.body.items[0]).not.toHaveProperty('outputPath');

      const edited = await s.member.get('/api/image/history?kind=edited');
      expect(edited.body.items.map((a: { id: string }) => a.id)).toEqual([e1.id]);
      const page = await s.member.get('/api/image/history?kind=generated&limit=1');
      expect(page.body).toMatchObject({ total: 2, nextOffset: 1 });
      expect(page.body.items[0].id).toBe(g2.id);
      const next = await s.member.get('/api/image/history?kind=generated&limit=1&offset=1');
      expect(next.body).toMatchObject({ total: 2, nextOffset: null });
      expect(next.body.items[0].id).toBe(g1.id);

      for (const q of ['kind=video', 'limit=0', 'limit=500', 'offset=-1', 'limit=abc']) {
        const bad = await s.member.get(`/api/image/history?${q}`);
        expect(bad.status, q).toBe(400);
        expect(bad.body.error.code).toBe('invalid_request');
      }
    } finally {
      s = prev;
      await fresh.close();
    }
  });

  it('an adult picture is left out of the history unless the session is in the adult state, and the answer counts it (issue 32)', async () => {
    const fresh = await startTestServer({ seed: 'household' });
    const prev = s;
    s = fresh;
    try {
      const plain = await artifact(s.users.admin.id);
      const grown = await artifact(s.users.admin.id, { isAdult: true });
      const ids = async () => ((await s.admin.get('/api/image/history')).body.items as { id: string }[]).map((a) => a.id);
      const hidden = async (q = '') => (await s.admin.get(`/api/image/history${q}`)).body.hiddenByContent as number;
      expect(await ids()).toEqual([plain.id]);
      expect((await s.admin.get('/api/image/history')).body.total).toBe(1);
      // the page is told one picture is hidden (so it can say so), not which
      expect(await hidden()).toBe(1);
      expect(await hidden('?kind=edited')).toBe(0);
      // nobody else's adult picture counts
      await artifact(s.users.member.id, { isAdult: true });
      expect(await hidden()).toBe(1);
      expect((await s.member.get('/api/image/history')).body).toMatchObject({ total: 0, hiddenByContent: 1 });
      expect((await s.admin.post('/api/privacy/adult', { pin: '1234' })).status).toBe(200);
      expect(await ids()).toEqual([grown.id, plain.id]);
      expect(await hidden()).toBe(0);
      await s.admin.delete('/api/privacy/adult');
      expect(await ids()).toEqual([plain.id]);
      expect(await hidden()).toBe(1);
    } finally {
      s = prev;
      await fresh.close();
    }
  });

  it('building: the member\'s newest job still being made, its state JSON on the picture\'s URL, never someone else\'s', async () => {
    const fresh = await startTestServer({ seed: 'household' });
    const prev = s;
    s = fresh;
    try {
      expect((await s.member.get('/api/image/building')).body).toEqual({ artifact: null });
      const job = await artifact(s.users.member.id, { state: 'building', stepCurrent: 7 });
      await artifact(s.users.admin.id, { state: 'building' });
      const b = await s.member.get('/api/image/building');
      expect(b.body.artifact).toMatchObject({ id: job.id, state: 'building', stepCurrent: 7, stepTotal: 25 });
      const status = await s.member.get(`/api/image/artifacts/${job.id}`);
      expect(status.status).toBe(200);
      expect(status.headers['content-type']).toContain('application/json');
      expect(status.body.artifact).toMatchObject({ id: job.id, state: 'building' });
    } finally {
      s = prev;
      await fresh.close();
    }
  });

  it('cancel: a job still being made is cancelled; a finished picture is a 409 with a sentence', async () => {
    const job = await artifact(s.users.member.id, { state: 'queued' });
    const res = await s.member.post(`/api/image/artifacts/${job.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.artifact).toMatchObject({ id: job.id, state: 'cancelled' });
    expect(res.body.artifact.finishedAt).not.toBeNull();
    const done = await artifact(s.users.member.id);
    const again = await s.member.post(`/api/image/artifacts/${done.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'not_running', message: 'That picture is already finished.' });
  });

  it('re-attaching to a job that already ended tells how it ended, as an event', async () => {
    const done = await artifact(s.users.member.id);
    const res = await s.member.get(`/api/image/artifacts/${done.id}/stream`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    expect(res.text).toContain('event: done');
    expect(res.text).toContain(`"id":"${done.id}"`);
    const failed = await artifact(s.users.member.id, { state: 'failed', error: 'The image engine stopped while drawing.' });
    const f = await s.member.get(`/api/image/artifacts/${failed.id}/stream`);
    expect(f.text).toContain('event: error');
    expect(f.text).toContain('The image engine stopped while drawing.');
  });

  it('delete removes the row and the file; a second delete is 404', async () => {
    const a = await artifact(s.users.member.id);
    const file = path.join(s.dataDir, 'images', a.outputPath!);
    expect((await s.member.delete(`/api/image/artifacts/${a.id}`)).status).toBe(204);
    expect(existsSync(file)).toBe(false);
    expect((await s.member.get(`/api/image/artifacts/${a.id}`)).status).toBe(404);
    expect((await s.member.delete(`/api/image/artifacts/${a.id}`)).status).toBe(404);
  });

  it('a ready picture whose file is gone is a 404 with a sentence, never a 500; a stored path leading outside is refused', async () => {
    const a = await artifact(s.users.member.id, { outputPath: '../../secret.png' });
    writeFileSync(path.join(s.dataDir, 'secret.png'), PNG);
    const res = await s.member.get(`/api/image/artifacts/${a.id}`);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(/missing/);
    const long = await s.member.get(`/api/image/artifacts/${'x'.repeat(65)}`);
    expect(long.status).toBe(400);
  });

  it('status: not set up yet, with the way to fix it; the local edits are always available', async () => {
    const res = await s.member.get('/api/image/status');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'idle', configured: false, checkpoint: null, queue: { running: 0, waiting: 0 } });
    expect(res.body.error).toMatch(/not set up/);
    const by = Object.fromEntries(res.body.pipelines.map((p: { pipeline: string }) => [p.pipeline, p]));
    expect(by.auto_color).toMatchObject({ available: true, reason: null });
    expect(by.adjust).toMatchObject({ available: true });
    expect(by.txt2img).toMatchObject({ available: false });
    expect(by.txt2img.reason).toMatch(/not set up/);
  });

  it('deleting a member deletes their pictures and their folder of files', async () => {
    const created = await s.admin.post('/api/admin/users', { name: 'Leaving', pin: '1357' });
    const userId = created.body.user.id as string;
    const a = await artifact(userId);
    const dir = path.join(s.dataDir, 'images', userId);
    expect(existsSync(dir)).toBe(true);
    expect((await s.admin.delete(`/api/admin/users/${userId}`)).status).toBe(200);
    expect(await new ImageGenStore(s.handle.deps.db).artifact(a.id)).toBeNull();
    await until(() => !existsSync(dir), 'the member\'s picture folder to go');
  });

  it('pictures a stopped Hearth left half-made fail with a sentence at the next start; finished ones stay', async () => {
    const temp = makeTempDir('hearth-image-restart-');
    const dataDir = path.join(temp.dir, 'data');
    mkdirSync(dataDir, { recursive: true });
    const prev = s;
    try {
      s = await startTestServer({ seed: 'household', dataDir });
      const building = await artifact(s.users.member.id, { state: 'building', stepCurrent: 9 });
      const queued = await artifact(s.users.member.id, { state: 'queued' });
      const done = await artifact(s.users.member.id);
      await s.close();
      s = await startTestServer({ seed: 'empty', dataDir });
      for (const id of [building.id, queued.id]) {
        const row = await new ImageGenStore(s.handle.deps.db).artifact(id);
        expect(row).toMatchObject({ state: 'failed' });
        expect(row!.error).toMatch(/restarted/);
      }
      expect(await new ImageGenStore(s.handle.deps.db).artifact(done.id)).toMatchObject({ state: 'ready' });
    } finally {
      await s.close();
      s = prev;
      temp.remove();
    }
  });
});
