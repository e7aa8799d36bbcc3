// Voice (issue 34) on the real local engines (apt espeak-ng, flite, pocketsphinx, ffmpeg): the
// NDJSON speech stream, the WAV twin, transcription, the voice config and every missing-engine 503.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { TtsAudioLine, TtsEndLine, TtsStartLine, VoiceConfigResponse } from '../../server/modules/voice/schema.js';
import { postForm } from '../harness/multipart.js';
import { alive, childrenOf } from '../harness/processes.js';
import { waitFor } from '../harness/net.js';
import { fliteWav, ndjson, SYSTEM_PATH, wordAccuracy } from '../harness/speech.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const THREE = 'Good morning to you all. Today will be sunny and warm. Take the washing in before dinner.';

const engineChildren = () => childrenOf(process.pid).filter((c) => /(^|\/)(flite|espeak-ng)$/.test(c.argv[0] ?? ''));

describe('voice on the real engines', () => {
  let s: TestServer;
  let bare: TestServer;
  const temp = makeTempDir('hearth-voice-');
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', config: { searchPath: SYSTEM_PATH } });
    // a computer with no engine at all (the test PATH is empty)
    bare = await startTestServer({ seed: 'household' });
  });
  afterAll(async () => {
    await s.close();
    await bare.close();
    temp.remove();
  });

  describe('POST /api/tts/stream', () => {
    it('streams start, audio lines of at most a second for each sentence in order, one final per sentence, then end', async () => {
      for (const voice of ['flite:kal16', 'espeak-ng:en-us']) {
        const r = await s.member.post('/api/tts/stream', { text: THREE, voice });
        expect(r.status).toBe(200);
        expect(r.headers['content-type']).toMatch(/^application\/x-ndjson/);
        expect(r.headers['cache-control']).toBe('no-store');
        const lines = ndjson(r.text);
        const start = TtsStartLine.parse(lines[0]);
        expect(start).toMatchObject({ voice, sentences: 3 });
        expect(start.sampleRate).toBeGreaterThanOrEqual(22_050);
        const end = TtsEndLine.parse(lines.at(-1));
        const audio = lines.slice(1, -1).map((l) => TtsAudioLine.parse(l));
        expect(audio.map((a) => a.seq)).toEqual(audio.map((_, i) => i));
        let total = 0;
        for (const a of audio) {
          expect(a.sampleRate).toBe(start.sampleRate);
          expect(Buffer.from(a.pcm, 'base64').length).toBe(a.samples * 2);
          expect(a.samples).toBeLessThanOrEqual(a.sampleRate);
          total += a.samples;
        }
        expect(total).toBe(end.samples);
        expect(total).toBeGreaterThan(start.sampleRate * 3); // three sentences say more than three seconds
        // sentences in order, each with exactly one final line, its text on its first line only
        expect(audio.map((a) => a.sentence)).toEqual([...audio.map((a) => a.sentence)].sort((x, y) => x - y));
        for (const i of [0, 1, 2]) {
          const of = audio.filter((a) => a.sentence === i);
          expect(of.filter((a) => a.final)).toHaveLength(1);
          expect(of.at(-1)!.final).toBe(true);
          expect(of[0]!.text).toBe(THREE.split(/(?<=\.) /)[i]);
          expect(of.slice(1).every((a) => a.text === undefined)).toBe(true);
        }
        expect(end.sentences).toBe(3);
      }
    });

    it('speaks more slowly at rate 0.5 than at rate 2', async () => {
      const samples = async (rate: number) => ndjson((await s.member.post('/api/tts/stream', { text: 'Remind me to buy milk tomorrow.', voice: 'flite:kal16', rate })).text).at(-1).samples as number;
      expect(await samples(0.5)).toBeGreaterThan((await samples(2)) * 2);
    });

    it('closing the request kills the engine that was speaking', async () => {
      const long = `${'And then, '.repeat(180)}the end.`;
      const ac = new AbortController();
      const res = await request(`${s.url}/api/tts/stream`, {
        method: 'POST',
        signal: ac.signal,
        headers: { cookie: s.member.cookie!, origin: s.url, 'content-type': 'application/json' },
        body: JSON.stringify({ text: `Hello there, this is the start. ${long}`, voice: 'flite:slt', rate: 0.5 }),
      });
      expect(res.statusCode).toBe(200);
      // the first sentence has arrived: the second is being synthesized by its own flite
      let got = '';
      for await (const chunk of res.body) {
        got += chunk.toString();
        if (got.includes('"type":"audio"')) break;
      }
      const speaking = await waitFor(() => engineChildren().find((c) => c.argv.includes('slt')), 'flite speaking the long sentence', 5_000);
      ac.abort();
      await waitFor(() => !alive(speaking.pid) && engineChildren().length === 0, 'the engine killed', 5_000);
    });

    it('refuses bad input with a sentence and no engine call', async () => {
      for (const body of [{}, { text: '' }, { text: 'x'.repeat(2001) }, { text: 'hi', rate: 3 }, { text: 'hi', rate: 0.1 }, { text: 'hi', extra: 1 }, { text: 'hi', voice: 'nobody:here' }]) {
        const r = await s.member.post('/api/tts/stream', body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.error.message).toMatch(/\.$/);
      }
      expect((await s.anon.post('/api/tts/stream', { text: 'hi' })).status).toBe(401);
    });
  });

  describe('POST /api/tts', () => {
    it('answers one WAV of the whole short text at a browser-safe rate', async () => {
      const res = await request(`${s.url}/api/tts`, { method: 'POST', headers: { cookie: s.member.cookie!, origin: s.url, 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Dinner is ready.', voice: 'flite:slt' }) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('audio/wav');
      const wav = Buffer.from(await res.body.arrayBuffer());
      expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
      expect(wav.readUInt32LE(24)).toBe(24_000);
      expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
      expect(wav.length - 44).toBeGreaterThan(24_000); // more than half a second of speech
      expect((await s.member.post('/api/tts', { text: 'x'.repeat(501) })).status).toBe(400);
    });
  });

  describe('POST /api/stt', () => {
    it('transcribes flite speech with word accuracy of at least 0.8', async () => {
      const text = 'Remind me to buy milk tomorrow.';
      const { bytes } = fliteWav(temp.dir, 'milk', text);
      const r = await postForm(s.url, s.member, '/api/stt', [{ name: 'file', filename: 'milk.wav', type: 'audio/wav', bytes }]);
      expect(r.status).toBe(200);
      expect(r.body.language).toBe('en');
      expect(r.body.durationSeconds).toBeGreaterThan(1);
      expect(wordAccuracy(text, r.body.text)).toBeGreaterThanOrEqual(0.8);
    });

    it('refuses what is not audio (415), a form without a file (400) and strangers (401)', async () => {
      const junk = await postForm(s.url, s.member, '/api/stt', [{ name: 'file', filename: 'a.wav', type: 'audio/wav', bytes: Buffer.from('not audio at all, just words') }]);
      expect(junk.status).toBe(415);
      expect(junk.body.error.message).toMatch(/could not read that recording/);
      const empty = await postForm(s.url, s.member, '/api/stt', [{ name: 'title', value: 'x' }]);
      expect(empty.status).toBe(400);
      expect((await s.anon.post('/api/stt', {})).status).toBe(401);
    });
  });

  describe('GET/PUT /api/voice and /api/admin/voice', () => {
    it('lists the engines found and their voices, and keeps each member’s own choices', async () => {
      const r = await s.member.get('/api/voice');
      expect(r.status).toBe(200);
      const c = VoiceConfigResponse.parse(r.body);
      expect(c.tts && c.stt).toBe(true);
      expect(c.voices.map((v) => v.id)).toEqual(expect.arrayContaining(['flite:slt', 'espeak-ng:en-us']));
      expect(c.voices.every((v) => v.sampleRate >= 22_050)).toBe(true);
      const put = await s.member.put('/api/voice', { voice: 'flite:rms', rate: 1.5 });
      expect(put.body.choices).toEqual({ voice: 'flite:rms', rate: 1.5, wakeWord: false, wakeWordId: null });
      expect((await s.admin.get('/api/voice')).body.choices.voice).toBeNull();
      expect((await s.member.put('/api/voice', { voice: 'piper:lessac' })).status).toBe(400);
      expect((await s.member.put('/api/voice', { rate: 9 })).status).toBe(400);
      // the member's voice is the stream's voice when none is asked
      expect(ndjson((await s.member.post('/api/tts/stream', { text: 'Hello there, good people.' })).text)[0].voice).toBe('flite:rms');
    });

    it('the admin sets the household’s default voice; members may not', async () => {
      expect((await s.member.put('/api/admin/voice', { defaultVoice: 'flite:awb' })).status).toBe(403);
      expect((await s.anon.get('/api/admin/voice')).status).toBe(401);
      const r = await s.admin.put('/api/admin/voice', { defaultVoice: 'flite:awb' });
      expect(r.status).toBe(200);
      expect(r.body.defaultVoice).toBe('flite:awb');
      expect(ndjson((await s.admin.post('/api/tts/stream', { text: 'Hello there, good people.' })).text)[0].voice).toBe('flite:awb');
      expect((await s.admin.put('/api/admin/voice', { defaultVoice: 'nobody:here' })).status).toBe(400);
    });
  });

  describe('a computer without the engines', () => {
    it('says so in the config and answers every speech route with a 503 sentence', async () => {
      const c = VoiceConfigResponse.parse((await bare.member.get('/api/voice')).body);
      expect(c).toMatchObject({ tts: false, stt: false, voices: [] });
      expect(c.engines.every((e) => !e.available)).toBe(true);
      for (const path of ['/api/tts/stream', '/api/tts']) {
        const r = await bare.member.post(path, { text: 'Hello there.' });
        expect(r.status).toBe(503);
        expect(r.body.error).toMatchObject({ code: 'engine_unavailable', message: expect.stringMatching(/No speech engine is installed.*\.$/) });
      }
      const stt = await postForm(bare.url, bare.member, '/api/stt', [{ name: 'file', filename: 'a.wav', type: 'audio/wav', bytes: Buffer.from('RIFF') }]);
      expect(stt.status).toBe(503);
      expect(stt.body.error).toMatchObject({ code: 'engine_unavailable', message: expect.stringMatching(/No transcription engine is installed/) });
    });
  });
});
