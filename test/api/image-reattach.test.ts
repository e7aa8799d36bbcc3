// Re-attaching late to a picture being made (GET /api/image/artifacts/:id/stream), against the fake
// ComfyUI: the engine is held at a step, so no new frame can arrive, and the late stream still gets
// the current step and the newest preview frame at once (the queue's replay), then follows the job
// to its end; another member (an admin included) gets a 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeImageEngine, type FakeImageEngine } from '../fakes/image-engine.js';
import { until } from '../harness/net.js';
import { connectSse } from '../harness/sse-client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('re-attaching to a running picture', () => {
  let engine: FakeImageEngine;
  let s: TestServer;
  const headers = (c: { cookie?: string }) => ({ cookie: c.cookie!, origin: s.url });

  beforeAll(async () => {
    engine = await startFakeImageEngine({ stepMs: 5 });
    s = await startTestServer({ seed: 'household', config: { imageEngineUrl: engine.url } });
    await until(async () => (await s.member.get('/api/image/status')).body.state === 'ready', 'the engine to be ready');
  });
  afterAll(async () => {
    await s?.close();
    await engine?.close();
  });

  it('a member who opens the stream late gets the current step and the last preview frame at once, then the end', async () => {
    // frames for steps 1 and 2, then nothing until an interrupt
    engine.scriptNext({ stallAtStep: 3 });
    const first = await connectSse(s.url, '/api/image/generate', headers(s.member), { body: { prompt: 'a lighthouse at dusk', steps: 6 } });
    const id = (await first.waitFor((e) => e.event === 'start')).data.id as string;
    await first.waitFor((e) => e.event === 'preview' && e.data.step === 2);
    await first.waitFor((e) => e.event === 'step' && e.data.current === 2);
    const lastPreview = first.events.filter((e) => e.event === 'preview').at(-1)!.data as { jpeg: string; step: number };
    const lastStep = first.events.filter((e) => e.event === 'step').at(-1)!.data as { current: number; total: number };
    expect(lastStep.current).toBe(2);
    const firstPreview = first.events.find((e) => e.event === 'preview')!.data as { jpeg: string };
    expect(lastPreview.jpeg).not.toBe(firstPreview.jpeg);
    first.close();

    expect((await s.admin.get(`/api/image/artifacts/${id}/stream`)).status).toBe(404);

    const late = await connectSse(s.url, `/api/image/artifacts/${id}/stream`, headers(s.member));
    expect(late.status).toBe(200);
    // the engine is held at step 3: these two can only be the replay
    await late.waitFor((e) => e.event === 'preview');
    await late.waitFor((e) => e.event === 'step');
    expect(late.events.slice(0, 2)).toEqual([
      { event: 'step', data: { id, current: 2, total: lastStep.total, position: 0 } },
      { event: 'preview', data: { id, jpeg: lastPreview.jpeg, step: 2 } },
    ]);
    expect(late.isEnded()).toBe(false);

    // it then follows the job live: cancelled here, which it hears
    expect((await s.member.post(`/api/image/artifacts/${id}/cancel`)).status).toBeLessThan(300);
    await late.ended;
    expect(late.events.at(-1)).toMatchObject({ event: 'error', data: { code: 'cancelled' } });
  });
});
