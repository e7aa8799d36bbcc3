// festival's HTS voice (issue 34) on the real engine (apt festival + festvox-us-slt-hts): listed when
// installed, streamed sentence by sentence at 24 000 Hz, its speed honoured, and clear enough that
// pocketsphinx writes it down again (the reference measured 93 %).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { TtsAudioLine, TtsEndLine, TtsStartLine, VoiceConfigResponse } from '../../server/modules/voice/schema.js';
import { postForm } from '../harness/multipart.js';
import { ndjson, SYSTEM_PATH, wordAccuracy } from '../harness/speech.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const VOICE = 'festival:slt-hts';

describe('festival’s HTS voice', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', config: { searchPath: SYSTEM_PATH } });
  });
  afterAll(async () => {
    await s.close();
  });

  it('is listed as a voice of the festival engine', async () => {
    const c = VoiceConfigResponse.parse((await s.member.get('/api/voice')).body);
    expect(c.engines).toContainEqual({ id: 'festival', kind: 'tts', name: 'Festival (HTS voice)', available: true });
    expect(c.voices).toContainEqual({ id: VOICE, engine: 'festival', language: 'en-US', name: expect.stringContaining('festival'), sampleRate: 24_000 });
  });

  it('streams each sentence at 24 000 Hz, a final line per sentence, and speaks faster at rate 2', async () => {
    const r = await s.member.post('/api/tts/stream', { text: 'Good morning to you all. Dinner is at six.', voice: VOICE });
    expect(r.status).toBe(200);
    const lines = ndjson(r.text);
    expect(TtsStartLine.parse(lines[0])).toMatchObject({ voice: VOICE, sampleRate: 24_000, sentences: 2 });
    const audio = lines.slice(1, -1).map((l) => TtsAudioLine.parse(l));
    expect(audio.filter((a) => a.final).map((a) => a.sentence)).toEqual([0, 1]);
    for (const a of audio) expect(a.samples).toBeLessThanOrEqual(24_000);
    const normal = TtsEndLine.parse(lines.at(-1)).samples;
    expect(normal).toBeGreaterThan(24_000 * 2);
    const fast = ndjson((await s.member.post('/api/tts/stream', { text: 'Good morning to you all. Dinner is at six.', voice: VOICE, rate: 2 })).text).at(-1).samples as number;
    expect(fast).toBeLessThan(normal * 0.7);
  });

  it('is written down again by pocketsphinx with word accuracy of at least 0.8', async () => {
    const text = 'Remind me to buy milk tomorrow.';
    const res = await request(`${s.url}/api/tts`, { method: 'POST', headers: { cookie: s.member.cookie!, origin: s.url, 'content-type': 'application/json' }, body: JSON.stringify({ text, voice: VOICE }) });
    expect(res.statusCode).toBe(200);
    const bytes = Buffer.from(await res.body.arrayBuffer());
    const r = await postForm(s.url, s.member, '/api/stt', [{ name: 'file', filename: 'milk.wav', type: 'audio/wav', bytes }]);
    expect(r.status).toBe(200);
    expect(wordAccuracy(text, r.body.text)).toBeGreaterThanOrEqual(0.8);
  });
});
