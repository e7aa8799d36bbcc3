// An external image engine (IMAGE_ENGINE_URL) that restarts with other custom nodes: Hearth keeps a
// connection (WebSocket) to the engine open, and when it drops and comes back the node list
// (object_info) is read again, so status says what the restarted engine can do and a picture it
// can no longer make is refused before any job starts (not started and failed in the engine).
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeImageEngine, type FakeImageEngine } from '../fakes/image-engine.js';
import { postForm } from '../harness/multipart.js';
import { until } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const ALL = ['ComfyUI_IPAdapter_plus', 'ComfyUI_essentials', 'ComfyUI-Impact-Pack', 'ComfyUI-Impact-Subpack', 'facerestore_cf'];
const WITHOUT_IPADAPTER = ALL.filter((p) => p !== 'ComfyUI_IPAdapter_plus');

describe('an external engine that restarts with other custom nodes', () => {
  let engine: FakeImageEngine;
  let s: TestServer;
  const faceId = async () => {
    const st = (await s.member.get('/api/image/status')).body as { state: string; pipelines: Array<{ pipeline: string; available: boolean; missing: string[] }> };
    return { state: st.state, face: st.pipelines.find((p) => p.pipeline === 'face_id')! };
  };

  beforeAll(async () => {
    engine = await startFakeImageEngine({ packs: ALL, stepMs: 2 });
    s = await startTestServer({ seed: 'household', config: { imageEngineUrl: engine.url } });
    await until(async () => (await faceId()).state === 'ready', 'the engine to be ready');
  });
  afterAll(async () => {
    await s?.close();
    await engine?.close();
  });

  it('reads the node list again when the connection drops and comes back: status and generate follow the restarted engine', async () => {
    expect((await faceId()).face.available).toBe(true);
    // Hearth's connection to the engine is open before the restart, so the drop is seen
    await until(() => engine.socketCount() > 0, 'Hearth to connect to the engine', 10_000);

    await engine.restart({ packs: WITHOUT_IPADAPTER });
    const after = await until(async () => {
      const { face } = await faceId();
      return face.available ? null : face;
    }, 'status to say face_id is no longer available', 10_000);
    expect(after.missing.join(' ')).toMatch(/IPAdapter/);
    await until(() => engine.socketCount() > 0, 'Hearth to connect to the restarted engine', 10_000);

    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#888' } }).png().toBuffer();
    const ref = await postForm(s.url, s.member, '/api/image/reference-face', [{ name: 'file', filename: 'me.png', type: 'image/png', bytes: png }]);
    expect(ref.status).toBe(201);
    const before = engine.prompts.length;
    const r = await s.member.post('/api/image/generate', { pipeline: 'face_id', prompt: 'me as an astronaut', refId: ref.body.refId });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('face_id_not_installed');
    expect(engine.prompts.length).toBe(before);

    // and back again with the pack: available once more
    await engine.restart({ packs: ALL });
    await until(async () => (await faceId()).face.available, 'status to say face_id is available again', 10_000);
  });
});
