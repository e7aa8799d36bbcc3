// Speech servers an admin adds (issue 34), through a fake OpenAI-compatible server backed by the
// real engines: adding (admin only, key never answered), a remote voice streaming sentence by
// sentence, transcription through it, the test button, and its failures (down, slow, cut off,
// garbage) as sentences, never a crash.
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TtsAudioLine } from '../../server/modules/voice/schema.js';
import { startFakeOpenAiSpeech, type FakeOpenAiSpeech } from '../fakes/openai-speech.js';
import { startFakeWyoming } from '../fakes/wyoming.js';
import { postForm } from '../harness/multipart.js';
import { fliteWav, ndjson, wordAccuracy } from '../harness/speech.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

describe('remote speech servers', () => {
  let s: TestServer;
  let fake: FakeOpenAiSpeech;
  let id: string;
  const temp = makeTempDir('hearth-voice-remote-');
  beforeAll(async () => {
    fake = await startFakeOpenAiSpeech();
    // no local engine at all, only ffmpeg's decoding (which /api/stt needs before any engine)
    const bin = path.join(temp.dir, 'bin');
    mkdirSync(bin);
    symlinkSync('/usr/bin/ffmpeg', path.join(bin, 'ffmpeg'));
    s = await startTestServer({ seed: 'household', config: { searchPath: [bin] }, overrides: { tuning: { voiceRemoteTimeoutMs: 1_500 } } });
  });
  afterAll(async () => {
    await s.close();
    await fake.close();
    temp.remove();
  });

  it('only an admin adds one; its key is never answered; a bad address or Wyoming is a sentence', async () => {
    expect((await s.member.post('/api/admin/voice/engines', { kind: 'openai', name: 'GPU box', url: fake.url })).status).toBe(403);
    for (const url of ['https://example.com:8000', 'http://host', 'http://user:pw@host:80', 'ftp://host:21']) {
      const bad = await s.admin.post('/api/admin/voice/engines', { kind: 'openai', name: 'x', url });
      expect(bad.status, url).toBe(400);
    }
    const r = await s.admin.post('/api/admin/voice/engines', { kind: 'openai', name: 'GPU box', url: fake.url, apiKey: 'sk-secret-123' });
    expect(r.status).toBe(201);
    expect(r.body.engine).toEqual({ id: expect.stringMatching(/^r[0-9a-f]{8}$/), kind: 'openai', name: 'GPU box', url: fake.url, hasKey: true });
    id = r.body.engine.id;
    const admin = await s.admin.get('/api/admin/voice');
    expect(admin.text).not.toContain('sk-secret-123');
    expect(admin.body.remoteEngines).toHaveLength(1);
    const config = (await s.member.get('/api/voice')).body;
    expect(config.text ?? JSON.stringify(config)).not.toContain('sk-secret-123');
    expect(config.voices).toEqual([{ id: `${id}:alloy`, engine: id, language: 'en', name: 'GPU box (speech server)', sampleRate: 24_000 }]);
  });

  it('a remote voice streams one request per sentence, lines of at most a second, with the key sent', async () => {
    const before = fake.authorizations.length;
    const r = await s.member.post('/api/tts/stream', { text: 'Good morning to you all. Today will be sunny and warm.', voice: `${id}:alloy` });
    expect(r.status).toBe(200);
    const lines = ndjson(r.text);
    expect(lines[0]).toMatchObject({ type: 'start', sampleRate: 24_000, sentences: 2 });
    const audio = lines.filter((l) => l.type === 'audio').map((l) => TtsAudioLine.parse(l));
    expect(audio.filter((a) => a.final).map((a) => a.sentence)).toEqual([0, 1]);
    for (const a of audio) {
      expect(a.samples).toBeLessThanOrEqual(24_000);
      expect(Buffer.from(a.pcm, 'base64').length).toBe(a.samples * 2);
    }
    expect(lines.at(-1)).toMatchObject({ type: 'end', sentences: 2 });
    expect(fake.authorizations.slice(before)).toEqual(['Bearer sk-secret-123', 'Bearer sk-secret-123']);
  });

  it('transcribes through the server once the admin chooses it', async () => {
    const text = 'Remind me to buy milk tomorrow.';
    const { bytes } = fliteWav(temp.dir, 'milk', text);
    // no local transcription engine here: 503 until the admin picks the server
    const before = await postForm(s.url, s.member, '/api/stt', [{ name: 'file', filename: 'milk.wav', type: 'audio/wav', bytes }]);
    expect(before.status).toBe(503);
    expect((await s.admin.put('/api/admin/voice', { sttEngine: 'nobody' })).status).toBe(400);
    expect(before.body.error.message).toMatch(/No transcription engine is installed/);
    expect((await s.admin.put('/api/admin/voice', { sttEngine: id })).status).toBe(200);
    const r = await postForm(s.url, s.member, '/api/stt', [{ name: 'file', filename: 'milk.wav', type: 'audio/wav', bytes }]);
    expect(r.status).toBe(200);
    expect(wordAccuracy(text, r.body.text)).toBeGreaterThanOrEqual(0.8);
    fake.mode = 'garbage';
    const garbage = await postForm(s.url, s.member, '/api/stt', [{ name: 'file', filename: 'milk.wav', type: 'audio/wav', bytes }]);
    fake.mode = 'ok';
    expect(garbage.status).toBe(502);
    expect(garbage.body.error.code).toBe('engine_failed');
  });

  it('the test button and the stream say what went wrong: down, slow, cut off, garbage', async () => {
    fake.mode = 'ok';
    expect((await s.admin.post(`/api/admin/voice/engines/${id}/test`)).body).toMatchObject({ ok: true, message: expect.stringMatching(/^GPU box answered with \d+\.\d seconds of speech\.$/) });
    const expected: Array<[FakeOpenAiSpeech['mode'], RegExp]> = [
      ['down', /not answering right now/],
      ['slow', /took too long/],
      ['garbage', /could not finish this time/],
    ];
    for (const [mode, sentence] of expected) {
      fake.mode = mode;
      const t = await s.admin.post(`/api/admin/voice/engines/${id}/test`);
      expect(t.status, mode).toBe(200);
      expect(t.body, mode).toMatchObject({ ok: false, message: expect.stringMatching(sentence) });
      expect(t.text).not.toContain('127.0.0.1');
    }
    fake.mode = 'cut';
    const cut = ndjson((await s.member.post('/api/tts/stream', { text: 'Good morning to you all, and welcome home again.', voice: `${id}:alloy` })).text);
    expect(cut.at(-1)).toMatchObject({ type: 'error', code: 'engine_failed' });
    fake.mode = 'ok';
    expect((await s.member.delete(`/api/admin/voice/engines/${id}`)).status).toBe(403);
    expect((await s.admin.delete(`/api/admin/voice/engines/${id}`)).status).toBe(204);
    expect((await s.admin.delete(`/api/admin/voice/engines/${id}`)).status).toBe(404);
    expect((await s.member.get('/api/voice')).body.voices).toEqual([]);
    expect((await s.member.post('/api/tts/stream', { text: 'Hello there.' })).status).toBe(503);
  });

  it('a Wyoming server speaks sentence by sentence and transcribes; when it is down or talks nonsense, a sentence', async () => {
    const wy = await startFakeWyoming();
    try {
      const r = await s.admin.post('/api/admin/voice/engines', { kind: 'wyoming', name: 'Piper', url: wy.url });
      expect(r.status).toBe(201);
      const wid = r.body.engine.id as string;
      const lines = ndjson((await s.member.post('/api/tts/stream', { text: 'Good morning to you all. Today will be sunny and warm.', voice: `${wid}:alloy` })).text);
      expect(lines[0]).toMatchObject({ type: 'start', sampleRate: 22_050, sentences: 2 });
      const audio = lines.filter((l) => l.type === 'audio').map((l) => TtsAudioLine.parse(l));
      expect(audio.filter((a) => a.final).map((a) => a.sentence)).toEqual([0, 1]);
      expect(audio.every((a) => a.samples <= 22_050 && Buffer.from(a.pcm, 'base64').length === a.samples * 2)).toBe(true);
      expect(lines.at(-1)).toMatchObject({ type: 'end' });

      expect((await s.admin.put('/api/admin/voice', { sttEngine: wid })).status).toBe(200);
      const text = 'Remind me to buy milk tomorrow.';
      const { bytes } = fliteWav(temp.dir, 'milk-wy', text);
      const t = await postForm(s.url, s.member, '/api/stt', [{ name: 'file', filename: 'milk.wav', type: 'audio/wav', bytes }]);
      expect(t.status).toBe(200);
      expect(wordAccuracy(text, t.body.text)).toBeGreaterThanOrEqual(0.8);

      expect((await s.admin.post(`/api/admin/voice/engines/${wid}/test`)).body.ok).toBe(true);
      wy.mode = 'garbage';
      expect((await s.admin.post(`/api/admin/voice/engines/${wid}/test`)).body).toMatchObject({ ok: false, message: expect.stringMatching(/could not finish this time/) });
      wy.mode = 'down';
      expect((await s.admin.post(`/api/admin/voice/engines/${wid}/test`)).body).toMatchObject({ ok: false });
      const stt = await postForm(s.url, s.member, '/api/stt', [{ name: 'file', filename: 'milk.wav', type: 'audio/wav', bytes }]);
      expect([502, 503]).toContain(stt.status);
      expect(stt.body.error.message).toMatch(/^[A-Z].*\.$/);
      await wy.close();
      const gone = await s.admin.post(`/api/admin/voice/engines/${wid}/test`);
      expect(gone.body).toMatchObject({ ok: false, message: expect.stringMatching(/not answering right now/) });
    } finally {
      await wy.close();
    }
  });
});
