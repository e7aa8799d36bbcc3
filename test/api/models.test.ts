// /api/models against the Ollama fake: the list (admin's whole, a member's allowed chat models),
// choosing the household's models, pulls through the durable download queue, deletes, per-member
// access, the chat model picker's rules, and a runtime that is down.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserActor } from '../../server/actor.js';
import type { ModelsResponse } from '../../server/modules/models/schema.js';
import { CHAT_MODEL, EMBEDDING_MODEL, PULLABLE_MODEL, VISION_MODEL, startFakeModelRuntime, type FakeModel, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { waitFor } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

/** Too big for the test machine (16 GB, no graphics card). */
const HUGE_MODEL: FakeModel = { name: 'huge:70b', family: 'llama', parameterSize: '70B', quantization: 'Q4_K_M', sizeBytes: 42 * 1024 ** 3, capabilities: ['completion'] };
/** A name with a namespace: its URL carries an encoded `/`. */
const NAMESPACED_MODEL: FakeModel = { name: 'someone/tiny:1b', family: 'test', parameterSize: '1B', quantization: 'Q4', sizeBytes: 700_000_000, capabilities: ['completion'] };
const START_MODELS = [CHAT_MODEL, VISION_MODEL, EMBEDDING_MODEL, HUGE_MODEL, NAMESPACED_MODEL];

describe('/api/models', () => {
  let runtime: FakeModelRuntime;
  let s: TestServer;
  const names = (body: ModelsResponse) => body.models.map((m) => m.name);
  const memberActor = (): UserActor => ({ kind: 'user', id: s.users.member.id, name: s.users.member.name, role: 'member', sessionId: 'test' });
  const adminActor = (): UserActor => ({ kind: 'user', id: s.users.admin.id, name: s.users.admin.name, role: 'admin', sessionId: 'test' });

  beforeAll(async () => {
    runtime = await startFakeModelRuntime({ models: START_MODELS, chunkDelayMs: 1 });
    s = await startTestServer({ seed: 'household', config: { modelRuntimeUrl: runtime.url } });
  });
  afterAll(async () => {
    await s?.close();
    await runtime?.close();
  });
  beforeEach(async () => {
    if (runtime.mode !== 'ok') await runtime.setMode('ok');
    runtime.models = [...START_MODELS];
    // the household's chat model, chosen (not adopted)
    await s.handle.deps.features.setChosenModel('chat', CHAT_MODEL.name);
    await s.handle.deps.settings.delete('embedding_model');
    await s.handle.deps.settings.delete('router_model');
    await s.admin.put(`/api/models/access/${s.users.member.id}`, { allowed: null });
  });

  it('asks who is asking: anonymous 401, a member 403 on every admin route', async () => {
    expect((await s.anon.get('/api/models')).status).toBe(401);
    for (const [method, path, body] of [
      ['POST', '/api/models/select', { role: 'chat', model: VISION_MODEL.name }],
      ['POST', '/api/models/pull', { model: PULLABLE_MODEL.name }],
      ['DELETE', `/api/models/${encodeURIComponent(VISION_MODEL.name)}`, undefined],
      ['GET', '/api/models/access', undefined],
      ['PUT', `/api/models/access/${s.users.member.id}`, { allowed: null }],
    ] as const) {
      const r = await s.member.req(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.error.code).toBe('forbidden');
    }
    // nothing the member tried happened
    expect(runtime.models.map((m) => m.name)).toContain(VISION_MODEL.name);
    expect(await s.handle.deps.features.chosenModel('chat')).toBe(CHAT_MODEL.name);
  });

  it('lists every installed model for an admin, with size, family, what it can do, fit and role', async () => {
    const r = await s.admin.get<ModelsResponse>('/api/models');
    expect(r.status).toBe(200);
    expect(r.body.runtime.available).toBe(true);
    expect(names(r.body).sort()).toEqual(START_MODELS.map((m) => m.name).sort());
    const by = (n: string) => r.body.models.find((m) => m.name === n)!;
    expect(by(CHAT_MODEL.name)).toMatchObject({ sizeBytes: CHAT_MODEL.sizeBytes, family: 'llama', parameterSize: '3.2B', capabilities: ['chat', 'tools'], fit: 'fits', roles: ['chat'] });
    expect(by(VISION_MODEL.name).capabilities).toEqual(['chat', 'vision']);
    expect(by(EMBEDDING_MODEL.name).capabilities).toEqual(['embedding']);
    expect(by(HUGE_MODEL.name).fit).toBe('wont_fit');
    expect(by(HUGE_MODEL.name).fitNote).toMatch(/will not run here/);
    expect(by(CHAT_MODEL.name).fitNote).toMatch(/processor/);
    // the chat model was chosen; nobody chose the others, so Hearth adopted installed models for
    // them (the vision model: the only one that can see)
    expect(r.body.chosen).toEqual({ chat: CHAT_MODEL.name, embeddings: EMBEDDING_MODEL.name, router: NAMESPACED_MODEL.name, vision: VISION_MODEL.name });
    expect(r.body.adopted).toEqual(['embeddings', 'router', 'vision']);
  });

  it('lists only the chat models a member may use', async () => {
    const all = await s.member.get<ModelsResponse>('/api/models');
    expect(all.status).toBe(200);
    expect(names(all.body)).not.toContain(EMBEDDING_MODEL.name);
    expect(names(all.body)).toEqual(expect.arrayContaining([CHAT_MODEL.name, VISION_MODEL.name, HUGE_MODEL.name]));

    const put = await s.admin.put(`/api/models/access/${s.users.member.id}`, { allowed: [VISION_MODEL.name] });
    expect(put.status).toBe(200);
    expect(put.body.member).toEqual({ userId: s.users.member.id, name: s.users.member.name, allowed: [VISION_MODEL.name] });
    expect(names((await s.member.get<ModelsResponse>('/api/models')).body)).toEqual([VISION_MODEL.name]);
    // the admin still sees every model
    expect(names((await s.admin.get<ModelsResponse>('/api/models')).body)).toHaveLength(START_MODELS.length);
  });

  it('keeps each member\'s access: list, change, back to every model', async () => {
    const before = await s.admin.get('/api/models/access');
    expect(before.status).toBe(200);
    // admins are not listed: they may always use every model
    expect(before.body.members).toEqual([{ userId: s.users.member.id, name: s.users.member.name, allowed: null }]);

    // a bare name is stored as the runtime names it; duplicates collapse
    const put = await s.admin.put(`/api/models/access/${s.users.member.id}`, { allowed: ['llama3.2:3b', 'someone/tiny:1b', 'llama3.2:3b'] });
    expect(put.body.member.allowed).toEqual(['llama3.2:3b', 'someone/tiny:1b']);
    expect((await s.admin.get('/api/models/access')).body.members[0].allowed).toEqual(['llama3.2:3b', 'someone/tiny:1b']);

    const none = await s.admin.put(`/api/models/access/${s.users.member.id}`, { allowed: [] });
    expect(none.body.member.allowed).toEqual([]);
    expect(names((await s.member.get<ModelsResponse>('/api/models')).body)).toEqual([]);

    await s.admin.put(`/api/models/access/${s.users.member.id}`, { allowed: null });
    expect((await s.admin.get('/api/models/access')).body.members[0].allowed).toBeNull();
  });

  it('refuses access lists it cannot keep, with a sentence', async () => {
    const unknown = await s.admin.put(`/api/models/access/${s.users.member.id}`, { allowed: ['nothere:1b'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/no model called nothere:1b/);
    const embed = await s.admin.put(`/api/models/access/${s.users.member.id}`, { allowed: [EMBEDDING_MODEL.name] });
    expect(embed.status).toBe(400);
    expect(embed.body.error.code).toBe('model_cannot_chat');
    const badName = await s.admin.put(`/api/models/access/${s.users.member.id}`, { allowed: ['Not A Model!'] });
    expect(badName.status).toBe(400);
    expect((await s.admin.put(`/api/models/access/${s.users.member.id}`, { allowed: 'all' })).status).toBe(400);
    const nobody = await s.admin.put('/api/models/access/00000000-0000-4000-8000-000000000000', { allowed: null });
    expect(nobody.status).toBe(404);
    const admin = await s.admin.put(`/api/models/access/${s.users.admin.id}`, { allowed: [CHAT_MODEL.name] });
    expect(admin.status).toBe(422);
    expect(admin.body.error.message).toMatch(/Admins can always use every model/);
    expect((await s.admin.get('/api/models/access')).body.members[0].allowed).toBeNull();
  });

  it('chooses the household\'s models where boot and chat readiness read them', async () => {
    const r = await s.admin.post<ModelsResponse>('/api/models/select', { role: 'chat', model: VISION_MODEL.name });
    expect(r.status).toBe(200);
    expect(r.body.chosen.chat).toBe(VISION_MODEL.name);
    expect(r.body.models.find((m) => m.name === VISION_MODEL.name)!.roles).toEqual(['chat', 'vision']);
    expect(await s.handle.deps.features.chosenModel('chat')).toBe(VISION_MODEL.name);
    expect((await s.handle.deps.features.chatReadiness()).available).toBe(true);

    const embed = await s.admin.post<ModelsResponse>('/api/models/select', { role: 'embeddings', model: 'nomic-embed-text' });
    expect(embed.status).toBe(200);
    expect(embed.body.chosen.embeddings).toBe(EMBEDDING_MODEL.name);
    const router = await s.admin.post<ModelsResponse>('/api/models/select', { role: 'router', model: CHAT_MODEL.name });
    expect(router.body.chosen.router).toBe(CHAT_MODEL.name);
  });

  it('refuses a model that cannot fill the role, or is not installed, with a sentence', async () => {
    const chatEmbed = await s.admin.post('/api/models/select', { role: 'chat', model: EMBEDDING_MODEL.name });
    expect(chatEmbed.status).toBe(422);
    expect(chatEmbed.body.error.message).toMatch(/cannot chat/);
    const embedChat = await s.admin.post('/api/models/select', { role: 'embeddings', model: CHAT_MODEL.name });
    expect(embedChat.status).toBe(422);
    expect(embedChat.body.error.message).toMatch(/search index/);
    const missing = await s.admin.post('/api/models/select', { role: 'chat', model: 'nothere:1b' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('model_not_found');
    expect((await s.admin.post('/api/models/select', { role: 'painter', model: CHAT_MODEL.name })).status).toBe(400);
    expect((await s.admin.post('/api/models/select', { role: 'chat' })).status).toBe(400);
    expect(await s.handle.deps.features.chosenModel('chat')).toBe(CHAT_MODEL.name);
  });

  describe('picking the chat model for a turn', () => {
    it('gives a requested model that is installed, can chat and is allowed', async () => {
      const { models } = s.handle.deps;
      expect(await models.pickChatModel(memberActor(), VISION_MODEL.name)).toBe(VISION_MODEL.name);
      await s.admin.put(`/api/models/access/${s.users.member.id}`, { allowed: [VISION_MODEL.name] });
      await expect(models.pickChatModel(memberActor(), CHAT_MODEL.name)).rejects.toMatchObject({ status: 403, code: 'model_not_allowed' });
      const refused = await models.pickChatModel(memberActor(), CHAT_MODEL.name).catch((e: Error) => e.message);
      expect(refused).not.toContain(s.users.admin.name);
      // an admin may use every model whatever a member's list says
      expect(await models.pickChatModel(adminActor(), CHAT_MODEL.name)).toBe(CHAT_MODEL.name);
      await expect(models.pickChatModel(memberActor(), 'nothere:1b')).rejects.toMatchObject({ status: 404 });
      await expect(models.pickChatModel(adminActor(), EMBEDDING_MODEL.name)).rejects.toMatchObject({ status: 400, code: 'model_cannot_chat' });
    });

    it('without a request: the household chat model if allowed, else the first allowed, else 403', async () => {
      const { models } = s.handle.deps;
      expect(await models.pickChatModel(memberActor(), undefined)).toBe(CHAT_MODEL.name);
      await s.admin.put(`/api/models/access/${s.users.member.id}`, { allowed: [VISION_MODEL.name, NAMESPACED_MODEL.name] });
      expect(await models.pickChatModel(memberActor(), undefined)).toBe(VISION_MODEL.name);
      await s.admin.put(`/api/models/access/${s.users.member.id}`, { allowed: [] });
      await expect(models.pickChatModel(memberActor(), undefined)).rejects.toMatchObject({ status: 403, code: 'model_not_allowed' });
      expect(await models.pickChatModel(adminActor(), undefined)).toBe(CHAT_MODEL.name);
      // while an admin has chosen no household chat model, chat is not ready for anyone (as readiness says)
      const chosen = await s.handle.deps.features.chosenModel('chat');
      await s.handle.deps.settings.set('chat_model', '');
      await expect(models.pickChatModel(adminActor(), undefined)).rejects.toMatchObject({ status: 409, code: 'no_chat_model' });
      await s.handle.deps.settings.set('chat_model', chosen!);
    });

    it('says so when the runtime is down', async () => {
      await runtime.setMode('down');
      await expect(s.handle.deps.models.pickChatModel(memberActor(), undefined)).rejects.toMatchObject({ status: 503, code: 'model_runtime_unavailable' });
    });
  });

  describe('the home inventory\'s models', () => {
    const QWEN_VL: FakeModel = { ...VISION_MODEL, name: 'qwen2.5vl:7b', family: 'qwen25vl' };
    const ZZ_VISION: FakeModel = { ...VISION_MODEL, name: 'aaa-vision:2b' };

    it('looks with the household\'s vision model: adopted when it is the only one, chosen by an admin, else the Home inventory feature\'s, else another that can see, else none', async () => {
      const { models } = s.handle.deps;
      // only llava can see: it is the one, adopted as the household's vision model
      expect(await models.visionModel()).toBe(VISION_MODEL.name);
      expect((await s.admin.get<ModelsResponse>('/api/models')).body).toMatchObject({ chosen: { vision: VISION_MODEL.name }, adopted: expect.arrayContaining(['vision']) });
      // like the chat model, an adopted one stays until an admin chooses another
      runtime.models = [...START_MODELS, ZZ_VISION, QWEN_VL];
      expect(await models.visionModel()).toBe(VISION_MODEL.name);
      const refused = await s.admin.post('/api/models/select', { role: 'vision', model: CHAT_MODEL.name });
      expect([refused.status, refused.body.error.message]).toEqual([422, expect.stringMatching(/cannot look at pictures, so it cannot be the vision model/)]);
      expect((await s.admin.post('/api/models/select', { role: 'vision', model: QWEN_VL.name })).status).toBe(200);
      expect(await models.visionModel()).toBe(QWEN_VL.name);
      // the chosen one gone: the Home inventory feature's model, else the first by name that can see
      await s.handle.deps.settings.set('vision_model', 'gone-vision:1b');
      expect(await models.visionModel()).toBe(QWEN_VL.name);
      runtime.models = [...START_MODELS, ZZ_VISION];
      expect(await models.visionModel()).toBe(ZZ_VISION.name);
      runtime.models = [CHAT_MODEL, EMBEDDING_MODEL];
      expect(await models.visionModel()).toBeNull();
      await runtime.setMode('down');
      await expect(models.visionModel()).rejects.toMatchObject({ status: 503, code: 'model_runtime_unavailable' });
      await s.handle.deps.settings.delete('vision_model');
    });

    it('answers with the chat model this member may use, as chat picks it', async () => {
      const { models } = s.handle.deps;
      expect(await models.textModel(memberActor())).toBe(CHAT_MODEL.name);
      await s.admin.put(`/api/models/access/${s.users.member.id}`, { allowed: [VISION_MODEL.name] });
      expect(await models.textModel(memberActor())).toBe(VISION_MODEL.name);
      expect(await models.textModel(adminActor())).toBe(CHAT_MODEL.name);
      await s.handle.deps.settings.set('chat_model', '');
      await expect(models.textModel(adminActor())).rejects.toMatchObject({ status: 409, code: 'no_chat_model' });
      await runtime.setMode('down');
      await expect(models.textModel(adminActor())).rejects.toMatchObject({ status: 503, code: 'model_runtime_unavailable' });
    });
  });

  it('pulls a model through the durable download queue, with its job on the Downloads page', async () => {
    const r = await s.admin.post('/api/models/pull', { model: PULLABLE_MODEL.name });
    expect(r.status).toBe(202);
    expect(r.body.alreadyQueued).toBe(false);
    expect(r.body.job).toMatchObject({ kind: 'runtime_model', target: PULLABLE_MODEL.name, hostClass: 'model_runtime' });
    const jobId = r.body.job.id as string;
    const listed = await s.member.get('/api/jobs/status');
    expect(listed.body.jobs.map((j: { id: string }) => j.id)).toContain(jobId);
    const done = await waitFor(async () => {
      const job = (await s.admin.get('/api/jobs/status')).body.jobs.find((j: { id: string }) => j.id === jobId);
      return job?.state === 'completed' && job;
    }, 'the pull job to complete', 15_000);
    expect(done.bytesDone).toBeGreaterThan(0);
    expect(runtime.requests.some((q) => q.path === '/api/pull' && (q.body as { model?: string }).model === PULLABLE_MODEL.name)).toBe(true);
    expect(names((await s.admin.get<ModelsResponse>('/api/models')).body)).toContain(PULLABLE_MODEL.name);
    // once installed, pulling again is a clear 409
    const again = await s.admin.post('/api/models/pull', { model: PULLABLE_MODEL.name });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/already on this computer/);
  });

  it('gives back the job of a model already waiting in the queue', async () => {
    runtime.models = runtime.models.filter((m) => m.name !== PULLABLE_MODEL.name);
    await s.admin.post('/api/admin/queue/pause');
    try {
      const first = await s.admin.post('/api/models/pull', { model: PULLABLE_MODEL.name });
      expect(first.status).toBe(202);
      const second = await s.admin.post('/api/models/pull', { model: PULLABLE_MODEL.name });
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ alreadyQueued: true, job: { id: first.body.job.id } });
      await s.admin.post(`/api/jobs/${first.body.job.id}/cancel`);
    } finally {
      await s.admin.post('/api/admin/queue/resume');
    }
  });

  it('a name Ollama\'s library does not know fails at once, saying so, instead of being tried six times', async () => {
    const r = await s.admin.post('/api/models/pull', { model: 'nosuchmodel:1b' });
    expect(r.status).toBe(202);
    const failed = await waitFor(async () => {
      const job = (await s.admin.get('/api/jobs/status')).body.jobs.find((j: { id: string }) => j.id === r.body.job.id);
      return job?.state === 'failed' && job;
    }, 'the pull job to fail', 15_000);
    expect(failed.attempts).toBe(1);
    expect(failed.lastError).toBe("Ollama's library has no model called nosuchmodel:1b. Check the name and try again.");
  });

  it('refuses a name that is not a model name', async () => {
    for (const model of ['', 'Has Spaces', '../etc/passwd', 'a:b:c', 'x'.repeat(300)]) {
      const r = await s.admin.post('/api/models/pull', { model });
      expect(r.status, model).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
    }
  });

  it('deletes a model at the runtime, names with a slash included', async () => {
    const r = await s.admin.delete(`/api/models/${encodeURIComponent(NAMESPACED_MODEL.name)}`);
    expect(r.status).toBe(204);
    expect(runtime.models.map((m) => m.name)).not.toContain(NAMESPACED_MODEL.name);
    expect(names((await s.admin.get<ModelsResponse>('/api/models')).body)).not.toContain(NAMESPACED_MODEL.name);
    const gone = await s.admin.delete(`/api/models/${encodeURIComponent(NAMESPACED_MODEL.name)}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toMatch(/no model called/);
  });

  it('deleting a model Features installed marks it uninstalled, so boot does not download it again', async () => {
    const { features } = s.handle.deps;
    await features.markInstalled(['nomic-embed-text']);
    expect((await features.installed())['nomic-embed-text']).toBeDefined();
    expect((await s.admin.delete(`/api/models/${encodeURIComponent(EMBEDDING_MODEL.name)}`)).status).toBe(204);
    expect((await features.installed())['nomic-embed-text']).toBeUndefined();
    expect(await features.reconcile(runtime.models.map((m) => m.name))).toEqual([]);
  });

  it('refuses to delete a model chosen for a household role, and says what to do', async () => {
    const r = await s.admin.delete(`/api/models/${encodeURIComponent(CHAT_MODEL.name)}`);
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('model_in_use');
    expect(r.body.error.message).toMatch(/Choose another chat model first/);
    expect(runtime.models.map((m) => m.name)).toContain(CHAT_MODEL.name);
  });

  it('answers 200 with the runtime down: why, what to do, and no models', async () => {
    await runtime.setMode('down');
    for (const client of [s.admin, s.member]) {
      const r = await client.get<ModelsResponse>('/api/models');
      expect(r.status).toBe(200);
      expect(r.body.runtime.available).toBe(false);
      expect(r.body.runtime.unavailableReason).toMatch(/not running/);
      expect(r.body.runtime.fix).toMatch(/Start Ollama/);
      expect(r.body.models).toEqual([]);
    }
    const select = await s.admin.post('/api/models/select', { role: 'chat', model: VISION_MODEL.name });
    expect(select.status).toBe(503);
    expect(select.body.error.code).toBe('model_runtime_unavailable');
    expect((await s.admin.post('/api/models/pull', { model: PULLABLE_MODEL.name })).status).toBe(503);
    expect((await s.admin.delete(`/api/models/${encodeURIComponent(VISION_MODEL.name)}`)).status).toBe(503);
  });

  it('forgets a member\'s access when the member is deleted', async () => {
    const created = await s.admin.post('/api/admin/users', { name: 'Robin', pin: '2468', role: 'member' });
    expect(created.status).toBe(201);
    const id = created.body.user?.id ?? created.body.id;
    await s.admin.put(`/api/models/access/${id}`, { allowed: [CHAT_MODEL.name] });
    expect(await s.handle.deps.db('model_access').where({ user_id: id }).first()).toBeTruthy();
    expect((await s.admin.delete(`/api/admin/users/${id}`)).status).toBe(200);
    await waitFor(async () => !(await s.handle.deps.db('model_access').where({ user_id: id }).first()), 'the access row to go', 5_000);
    expect((await s.admin.get('/api/models/access')).body.members.map((m: { userId: string }) => m.userId)).not.toContain(id);
  });
});

describe('/api/models in offline mode', () => {
  it('refuses to pull as the download queue does', async () => {
    const runtime = await startFakeModelRuntime({ chunkDelayMs: 1 });
    const s = await startTestServer({ seed: 'household', config: { modelRuntimeUrl: runtime.url, offline: true } });
    try {
      const r = await s.admin.post('/api/models/pull', { model: PULLABLE_MODEL.name });
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('offline_mode');
      expect((await s.admin.get('/api/jobs/status')).body.jobs).toEqual([]);
    } finally {
      await s.close();
      await runtime.close();
    }
  });
});
