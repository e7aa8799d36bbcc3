// GET /api/setup/checklist: "Finish setting up" on an admin's Home, checked live against the model
// runtime (the fake), the chosen models and the household.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MODEL, EMBEDDING_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import type { SetupChecklist } from '../../server/modules/setup/schema.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const ROUTER = { ...CHAT_MODEL, name: 'qwen2.5:0.5b', sizeBytes: 400_000_000 };

describe('GET /api/setup/checklist', () => {
  let runtime: FakeModelRuntime;
  let s: TestServer;
  beforeAll(async () => {
    runtime = await startFakeModelRuntime({ models: [CHAT_MODEL, EMBEDDING_MODEL] });
    await runtime.setMode('down');
    s = await startTestServer({ seed: 'household', config: { modelRuntimeUrl: runtime.url } });
  });
  afterAll(async () => {
    await s?.close();
    await runtime?.close();
  });

  const items = async () => {
    const r = await s.admin.get('/api/setup/checklist');
    expect(r.status).toBe(200);
    const body = r.body as SetupChecklist;
    return { done: body.done, byKey: Object.fromEntries(body.items.map((i) => [i.key, i])) };
  };

  it('is for admins only', async () => {
    expect((await s.anon.get('/api/setup/checklist')).status).toBe(401);
    const r = await s.member.get('/api/setup/checklist');
    expect(r.status).toBe(403);
  });

  it('names what is missing and where to fix it, and is done once everything is there', async () => {
    // nothing running, nothing chosen: the runtime and the models are missing; the household has two people
    let c = await items();
    expect(c.done).toBe(false);
    expect(c.byKey.runtime).toMatchObject({ done: false, fix: { path: '/features' } });
    expect(c.byKey.runtime!.detail).toContain('not running');
    expect(c.byKey.models).toMatchObject({ done: false, fix: { path: '/features' } });
    expect(c.byKey.models!.detail).toContain('No AI models are installed yet');
    expect(c.byKey.members).toMatchObject({ done: true, fix: null });

    // setup chose the models; the runtime runs with two of the three
    const features = s.handle.deps.features;
    await features.setChosenModel('chat', CHAT_MODEL.name);
    await features.setChosenModel('embeddings', 'nomic-embed-text');
    await features.setChosenModel('router', ROUTER.name);
    await runtime.setMode('ok');
    c = await items();
    expect(c.byKey.runtime).toMatchObject({ done: true, fix: null });
    expect(c.byKey.models).toMatchObject({ done: false, fix: { path: '/features' } });
    expect(c.byKey.models!.detail).toBe('The helper model is missing from the model runtime. Install it again under Features.');

    // its download is queued: it says so and points to Downloads
    const job = await s.handle.deps.downloads.enqueue({ kind: 'system' }, [{ kind: 'runtime_model', target: ROUTER.name, label: 'Helper model', hostClass: 'model_runtime' }]);
    expect(job.length).toBe(1);
    c = await items();
    expect(c.byKey.models!.detail).toMatch(/^The helper model (is still downloading|could not be downloaded)/);
    expect(c.byKey.models!.fix).toEqual({ label: 'Open Downloads', path: '/downloads' });

    runtime.models.push(ROUTER);
    c = await items();
    expect(c.byKey.models).toMatchObject({ done: true, fix: null });
    expect(c.done).toBe(true);
  });

  it('asks for the household while the admin is alone', async () => {
    expect((await s.admin.delete(`/api/admin/users/${s.users.member.id}`)).status).toBeLessThan(300);
    const c = await items();
    expect(c.byKey.members).toMatchObject({ done: false, fix: { path: '/members' } });
    expect(c.byKey.members!.detail).toContain('Only you have a profile');
    expect(c.done).toBe(false);
  });
});
