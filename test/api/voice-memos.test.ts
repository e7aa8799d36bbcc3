// Voice memos (issue 34) on the real engines: upload (202 transcribing → ready), privacy from both
// sides (admins included), Range on the audio, renaming, deleting, unified search for the owner
// only, a recording that cannot be transcribed, and transcription picked up again after a restart.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { MemoResponse, MemosResponse } from '../../server/modules/voice/schema.js';
import { postForm } from '../harness/multipart.js';
import { until } from '../harness/net.js';
import { fliteWav, SYSTEM_PATH, toWebmOpus, wordAccuracy } from '../harness/speech.js';
import { mintSession, startTestServer, type TestServer } from '../harness/start-server.js';
import { TestClient } from '../harness/client.js';
import { makeTempDir } from '../harness/temp-dir.js';

const SPOKEN = 'Remind me to buy milk tomorrow.';

describe('voice memos', () => {
  const temp = makeTempDir('hearth-memos-');
  const data = makeTempDir('hearth-memos-data-');
  let s: TestServer;
  let webm: Buffer;
  beforeAll(async () => {
    const wav = fliteWav(temp.dir, 'milk', SPOKEN);
    webm = toWebmOpus(temp.dir, wav.file, 'milk');
    s = await startTestServer({ seed: 'household', dataDir: data.dir, config: { searchPath: SYSTEM_PATH } });
  });
  afterAll(async () => {
    await s?.close();
    temp.remove();
    data.remove();
  });

  const upload = (server: TestServer, client: TestClient, bytes: Buffer, title?: string) =>
    postForm(server.url, client, '/api/voice/memos', [...(title ? [{ name: 'title', value: title }] : []), { name: 'file', filename: 'memo.webm', type: 'audio/webm', bytes }]);
  const ready = (server: TestServer, client: TestClient, id: string) =>
    until(async () => {
      const r = await client.get(`/api/voice/memos/${id}`);
      return r.body.memo?.status !== 'transcribing' ? r.body.memo : null;
    }, `memo ${id} transcribed`);

  it('an uploaded recording answers 202 transcribing, then is ready with its text and length', async () => {
    const r = await upload(s, s.member, webm, 'Shopping');
    expect(r.status).toBe(202);
    const { memo } = MemoResponse.parse(r.body);
    expect(memo).toMatchObject({ status: 'transcribing', title: 'Shopping', mime: 'audio/webm', bytes: webm.length, text: null });
    const done = await ready(s, s.member, memo.id);
    expect(done.status).toBe('ready');
    expect(wordAccuracy(SPOKEN, done.text)).toBeGreaterThanOrEqual(0.8);
    expect(done.durationSeconds).toBeGreaterThan(1);
    const list = MemosResponse.parse((await s.member.get('/api/voice/memos')).body);
    expect(list.memos[0]).toMatchObject({ id: memo.id, status: 'ready', text: done.text });
  });

  it('lists newest first, renames, serves the audio with Range, and deletes row and file', async () => {
    const a = (await upload(s, s.member, webm, 'first')).body.memo;
    const b = (await upload(s, s.member, webm, 'second')).body.memo;
    const ids = (await s.member.get('/api/voice/memos')).body.memos.map((m: { id: string }) => m.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));

    const renamed = await s.member.patch(`/api/voice/memos/${a.id}`, { title: 'Milk run' });
    expect(renamed.body.memo.title).toBe('Milk run');
    expect((await s.member.patch(`/api/voice/memos/${a.id}`, { title: 'x'.repeat(201) })).status).toBe(400);

    const whole = await request(`${s.url}/api/voice/memos/${a.id}/audio`, { headers: { cookie: s.member.cookie! } });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/webm');
    expect(Buffer.from(await whole.body.arrayBuffer()).equals(webm)).toBe(true);
    const part = await request(`${s.url}/api/voice/memos/${a.id}/audio`, { headers: { cookie: s.member.cookie!, range: 'bytes=10-109' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-109/${webm.length}`);
    expect(Buffer.from(await part.body.arrayBuffer()).equals(webm.subarray(10, 110))).toBe(true);

    await ready(s, s.member, b.id);
    expect((await s.member.delete(`/api/voice/memos/${b.id}`)).status).toBe(204);
    expect((await s.member.get(`/api/voice/memos/${b.id}`)).status).toBe(404);
    expect(existsSync(path.join(data.dir, 'voice', 'memos', s.users.member.id, b.id))).toBe(false);
    await ready(s, s.member, a.id);
  });

  it('is private to its owner from both sides, admins included', async () => {
    const mine = (await upload(s, s.member, webm)).body.memo;
    const theirs = (await upload(s, s.admin, webm)).body.memo;
    await ready(s, s.member, mine.id);
    await ready(s, s.admin, theirs.id);
    for (const [client, other] of [
      [s.admin, mine.id],
      [s.member, theirs.id],
    ] as const) {
      expect((await client.get(`/api/voice/memos/${other}`)).status).toBe(404);
      expect((await client.get(`/api/voice/memos/${other}/audio`)).status).toBe(404);
      expect((await client.patch(`/api/voice/memos/${other}`, { title: 'mine now' })).status).toBe(404);
      expect((await client.delete(`/api/voice/memos/${other}`)).status).toBe(404);
      expect((await client.get('/api/voice/memos')).body.memos.some((m: { id: string }) => m.id === other)).toBe(false);
    }
    expect((await s.anon.get('/api/voice/memos')).status).toBe(401);
    // unified search finds a memo's words for its owner only
    const found = await s.member.get('/api/search?q=milk&types=memo');
    const hits = found.body.groups.flatMap((g: { results: Array<{ id: string; type: string }> }) => g.results);
    expect(hits.some((h: { id: string }) => h.id === mine.id)).toBe(true);
    expect(hits.some((h: { id: string }) => h.id === theirs.id)).toBe(false);
    const adminHits = (await s.admin.get('/api/search?q=milk&types=memo')).body.groups.flatMap((g: { results: Array<{ id: string }> }) => g.results);
    expect(adminHits.some((h: { id: string }) => h.id === mine.id)).toBe(false);
  });

  it('refuses what is not audio (415, nothing kept) and marks a recording it cannot read as failed', async () => {
    const before = readdirSync(path.join(data.dir, 'voice', 'memos', s.users.member.id)).length;
    const junk = await upload(s, s.member, Buffer.from('just some words, not a recording'));
    expect(junk.status).toBe(415);
    expect(readdirSync(path.join(data.dir, 'voice', 'memos', s.users.member.id)).length).toBe(before);
    // a webm header over nothing: looks like a recording, ffmpeg cannot read it
    const broken = Buffer.concat([webm.subarray(0, 40), Buffer.alloc(200, 7)]);
    const r = await upload(s, s.member, broken);
    expect(r.status).toBe(202);
    const done = await ready(s, s.member, r.body.memo.id);
    expect(done).toMatchObject({ status: 'failed', text: null });
    expect(done.error).toMatch(/^[A-Z].*\.$/);
  });

  it('a member removed from the household takes their memos and files along', async () => {
    const kim = await s.admin.post('/api/admin/users', { name: 'Kim', pin: '2468', role: 'member' });
    expect(kim.status).toBe(201);
    const client = new TestClient(s.url, await mintSession(s.handle, kim.body.user.id));
    const { memo } = (await upload(s, client, webm)).body;
    await ready(s, client, memo.id);
    expect((await s.admin.delete(`/api/admin/users/${kim.body.user.id}`)).status).toBe(200);
    await until(async () => !existsSync(path.join(data.dir, 'voice', 'memos', kim.body.user.id)), 'the member’s memo folder removed');
    expect(await s.handle.deps.db('voice_memos').where({ id: memo.id }).first()).toBeUndefined();
  });

  it('a memo left transcribing when Hearth stopped is transcribed after the restart', async () => {
    const { memo } = (await upload(s, s.member, webm, 'Across a restart')).body;
    await ready(s, s.member, memo.id);
    // as if Hearth had stopped in the middle of it
    await s.handle.deps.db('voice_memos').where({ id: memo.id }).update({ status: 'transcribing', text: null, duration_seconds: null });
    const memberId = s.users.member.id;
    await s.close();
    s = await startTestServer({ dataDir: data.dir, config: { searchPath: SYSTEM_PATH } });
    const member = new TestClient(s.url, await mintSession(s.handle, memberId));
    const done = await ready(s, member, memo.id);
    expect(done.status).toBe('ready');
    expect(wordAccuracy(SPOKEN, done.text)).toBeGreaterThanOrEqual(0.8);
  });
});
