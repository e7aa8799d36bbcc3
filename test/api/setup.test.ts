import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelRuntime, FAKE_VERSION, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { TestClient } from '../harness/client.js';
import { rawRequest } from '../harness/raw-http.js';
import { CLOSED_URL, startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

describe('first-run setup', () => {
  const temp = makeTempDir('hearth-setup-');
  let s: TestServer;
  let owner: TestClient;
  let member: TestClient;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'empty', dataDir: temp.dir });
  });
  afterAll(async () => {
    await s.close();
    temp.remove();
  });

  it('GET /api/setup/status says an admin is needed on a fresh install', async () => {
    const r = await s.anon.get('/api/setup/status');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ needsAdmin: true, welcomeComplete: false, state: null });
  });

  it('POST /api/setup/admin refuses a bad name or PIN with details', async () => {
    const r = await s.anon.post('/api/setup/admin', { name: '', pin: '12' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_request');
    expect(r.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['name', 'pin']);
    expect((await s.anon.get('/api/setup/status')).body.needsAdmin).toBe(true);
  });

  it('POST /api/setup/admin is refused (403 bad_host) through a public name that resolves here (DNS rebinding), before anything is made', async () => {
    const port = new URL(s.url).port;
    const body = JSON.stringify({ name: 'Mallory', pin: '1234' });
    // the attacker's page is same-origin with its own name, so Origin matches Host and the origin check passes
    for (const host of ['attacker.example', 'rebind.attacker.example', 'hearth.example.com', 'other-computer.local', 'hearth.lan']) {
      const r = await rawRequest(s.url, {
        method: 'POST',
        path: '/api/setup/admin',
        headers: { host: `${host}:${port}`, origin: `http://${host}:${port}`, 'content-type': 'application/json' },
        body,
      });
      expect(r.status, host).toBe(403);
      expect(r.json().error.code).toBe('bad_host');
      expect(r.json().error.message).toContain('Hearth’s own address');
      expect(r.headers['set-cookie']).toBeUndefined();
    }
    expect((await s.anon.get('/api/setup/status')).body.needsAdmin).toBe(true);
    expect(await s.handle.deps.db('users').count({ n: '*' }).first()).toEqual({ n: 0 });
    // Hearth's own names (those on its certificate) and addresses still reach it (a bad PIN shows the request got past the host check)
    for (const host of ['localhost', 'my-computer', 'my-computer.local', '192.168.1.20', '[::1]']) {
      const r = await rawRequest(s.url, {
        method: 'POST',
        path: '/api/setup/admin',
        headers: { host: `${host}:${port}`, origin: `http://${host}:${port}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Pat', pin: '1' }),
      });
      expect(r.status, host).toBe(400);
      expect(r.json().error.code).toBe('invalid_request');
    }
  });

  it('POST /api/setup/admin creates the admin (201) and signs them in', async () => {
    owner = new TestClient(s.url);
    const r = await owner.post('/api/setup/admin', { name: 'Pat', pin: '2468' });
    expect(r.status).toBe(201);
    expect(r.body.user).toMatchObject({ id: expect.any(String), name: 'Pat', role: 'admin' });
    expect(owner.cookie).toMatch(/^session=.+/);
    const me = await owner.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ id: r.body.user.id, role: 'admin' });
    expect((await s.anon.get('/api/setup/status')).body).toMatchObject({ needsAdmin: false, welcomeComplete: false });
  });

  it('a second POST /api/setup/admin is 409 admin_exists and creates nobody', async () => {
    const r = await new TestClient(s.url).post('/api/setup/admin', { name: 'Mallory', pin: '1357' });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('admin_exists');
    expect(r.headers['set-cookie']).toBeUndefined();
    const again = await owner.post('/api/setup/admin', { name: 'Pat Two', pin: '1357' });
    expect(again.status).toBe(409);
    const profiles = await s.anon.get('/api/auth/profiles');
    expect(profiles.body.profiles.map((p: { name: string }) => p.name)).toEqual(['Pat']);
  });

  it('welcome-complete and PUT state need an admin (401 anon, 403 member)', async () => {
    const created = await owner.post('/api/admin/users', { name: 'Kid', pin: '1111' });
    expect(created.status).toBe(201);
    member = await s.signIn(created.body.user.id, '1111');
    for (const [client, status, code] of [
      [s.anon, 401, 'unauthenticated'],
      [member, 403, 'forbidden'],
    ] as const) {
      const w = await client.post('/api/setup/welcome-complete');
      expect(w.status).toBe(status);
      expect(w.body.error.code).toBe(code);
      const p = await client.put('/api/setup/state', { step: 'hijacked' });
      expect(p.status).toBe(status);
      expect(p.body.error.code).toBe(code);
    }
    expect((await s.anon.get('/api/setup/status')).body).toMatchObject({ welcomeComplete: false, state: null });
  });

  it('PUT /api/setup/state stores the wizard state as a JSON object', async () => {
    const state = { step: 'models', choices: { chat: 'llama3.2:3b', voice: false }, visited: ['welcome', 'admin'] };
    const r = await owner.put('/api/setup/state', state);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ state });
    expect((await s.anon.get('/api/setup/status')).body.state).toEqual(state);

    const next = { step: 'done' };
    await owner.put('/api/setup/state', next);
    expect((await s.anon.get('/api/setup/status')).body.state).toEqual(next); // replaced, not merged
  });

  it.each([
    ['an array', '["step"]'],
    ['null', 'null'],
    ['a string', '"models"'],
    ['a number', '3'],
  ])('PUT /api/setup/state refuses %s with 400', async (_label, raw) => {
    const r = await owner.put('/api/setup/state', undefined, { raw });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_request');
    expect((await s.anon.get('/api/setup/status')).body.state).toEqual({ step: 'done' });
  });

  it('PUT /api/setup/state over 16 KB is 413', async () => {
    const r = await owner.put('/api/setup/state', { blob: 'x'.repeat(17 * 1024) });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('payload_too_large');
  });

  it('POST /api/setup/welcome-complete marks the welcome done', async () => {
    const r = await owner.post('/api/setup/welcome-complete');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true });
    expect((await s.anon.get('/api/setup/status')).body.welcomeComplete).toBe(true);
  });

  it('the welcome flag and wizard state survive a restart', async () => {
    const cookie = owner.cookie!;
    await s.close();
    s = await startTestServer({ seed: 'empty', dataDir: temp.dir });
    const status = await s.anon.get('/api/setup/status');
    expect(status.body).toEqual({ needsAdmin: false, welcomeComplete: true, state: { step: 'done' } });
    expect((await new TestClient(s.url, cookie).get('/api/auth/me')).body.user.name).toBe('Pat');
    expect((await new TestClient(s.url).post('/api/setup/admin', { name: 'Late', pin: '1234' })).status).toBe(409);
  });
});

describe('concurrent first admins', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'empty' });
  });
  afterAll(() => s.close());

  it('exactly one of several simultaneous POST /api/setup/admin wins', async () => {
    const names = ['First', 'Second', 'Third'];
    const results = await Promise.all(names.map((name) => new TestClient(s.url).post('/api/setup/admin', { name, pin: '1234' })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error.code === 'admin_exists')).toBe(true);
    const users = await s.handle.deps.db('users').select('name', 'role');
    expect(users).toHaveLength(1);
    expect(users[0].role).toBe('admin');
  });
});

describe('GET /api/setup/ollama-status', () => {
  it('answers 200 {running: false} when the model runtime is down, never a 500', async () => {
    const s = await startTestServer({ seed: 'empty' });
    try {
      const r = await s.anon.get('/api/setup/ollama-status');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ running: false, installed: false, version: null, models: [], url: CLOSED_URL });
      expect(typeof r.body.error).toBe('string');
      // the address is in `url`; the sentence is the model runtime mapper's, without it
      expect(r.body.error).toMatch(/isn't running on the Hearth computer\. Start Ollama/);
      expect(r.body.error).not.toContain(CLOSED_URL);
    } finally {
      await s.close();
    }
  });

  describe('with the model runtime fake', () => {
    let fake: FakeModelRuntime;
    let s: TestServer;
    beforeAll(async () => {
      fake = await startFakeModelRuntime();
      s = await startTestServer({ seed: 'empty', config: { modelRuntimeUrl: fake.url } });
    });
    afterAll(async () => {
      await s.close();
      await fake.close();
    });

    it('answers running with its version and models', async () => {
      const r = await s.anon.get('/api/setup/ollama-status');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ installed: true, running: true, version: FAKE_VERSION, url: fake.url, error: null });
      expect(r.body.models).toEqual(fake.models.map((m) => ({ name: m.name, sizeBytes: m.sizeBytes })));
      expect(fake.requests.some((q) => q.path === '/api/tags')).toBe(true);
    });

    it.each(['garbage', 'error-line', 'cut', 'down'] as const)('answers 200 {running: false} with a reason when the runtime is %s', async (mode) => {
      await fake.setMode(mode);
      try {
        const r = await s.anon.get('/api/setup/ollama-status');
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ running: false, version: null, models: [] });
        expect(r.body.error).toEqual(expect.any(String));
        // the route is open to anyone: the text of the runtime's own error answer stays out
        expect(r.body.error).not.toMatch(/llama runner|exit status/);
      } finally {
        await fake.setMode('ok');
      }
      expect((await s.anon.get('/api/setup/ollama-status')).body.running).toBe(true);
    });
  });
});
