import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HardwareProfile } from '../../server/platform/hardware.js';
import { CHAT_MODEL, EMBEDDING_MODEL, FAKE_VERSION, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { connectSse, type SseConnection, type SseEvent } from '../harness/sse-client.js';
import { startTestServer, TEST_HARDWARE, type TestServer } from '../harness/start-server.js';

/** The steps the spec names, in boot order; other steps may sit between them. */
const STEP_KEYS = ['db', 'hardware', 'model-runtime', 'chat-model', 'embeddings', 'router'];

function expectStepKeys(keys: string[]): void {
  expect(keys).toEqual(expect.arrayContaining(STEP_KEYS));
  const positions = STEP_KEYS.map((k) => keys.indexOf(k));
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
  expect(new Set(keys).size).toBe(keys.length);
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The last reported state of each step. */
function finalSteps(events: SseEvent[]): Map<string, { status: string; detail: string; label: string }> {
  const m = new Map<string, { status: string; detail: string; label: string }>();
  for (const e of events) if (e.event === 'step') m.set(e.data.key, e.data);
  return m;
}

const withTimeout = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_r, reject) => setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms))]);

describe('boot with a step still running', () => {
  const hardware = deferred<HardwareProfile>();
  let s: TestServer;
  let live: SseConnection;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'empty', waitForBoot: false, overrides: { hardware: () => hardware.promise } });
  });
  afterAll(async () => {
    live?.close();
    await s.close();
  });

  it('GET /api/system/ready answers 503 {done: false} until boot finishes', async () => {
    const r = await s.anon.get('/api/system/ready');
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ done: false });
  });

  it('GET /api/system/boot streams steps live as SSE', async () => {
    live = await connectSse(s.url, '/api/system/boot');
    expect(live.status).toBe(200);
    expect(live.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(live.headers['cache-control']).toContain('no-cache');
    await live.waitFor((e) => e.event === 'step' && e.data.key === 'db' && e.data.status === 'ok');
    await live.waitFor((e) => e.event === 'step' && e.data.key === 'hardware' && e.data.status === 'running');
    expect(live.events.some((e) => e.event === 'done')).toBe(false);
    expect(live.isEnded()).toBe(false);
  });

  it('finishes once the slow step does: ready 200, done event, the stream ends', async () => {
    hardware.resolve(TEST_HARDWARE);
    await live.waitFor((e) => e.event === 'done');
    await withTimeout(live.ended, 2000, 'the end of the boot stream');
    const r = await s.anon.get('/api/system/ready');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ done: true });

    const steps = live.events.filter((e) => e.event === 'step');
    const keys = [...new Set(steps.map((e) => e.data.key as string))];
    expectStepKeys(keys);
    // each step is announced as running, then reported with its outcome
    for (const key of keys) {
      const mine = steps.filter((e) => e.data.key === key).map((e) => e.data.status);
      expect(mine[0], key).toBe('running');
      expect(['ok', 'warn', 'error'], key).toContain(mine.at(-1));
    }
    expect(live.events.findIndex((e) => e.event === 'done')).toBe(live.events.length - 1);
    for (const e of steps) expect(e.data).toEqual({ key: expect.any(String), label: expect.any(String), status: expect.any(String), detail: expect.any(String) });
    expect(finalSteps(live.events).get('hardware')).toMatchObject({ status: 'ok', detail: expect.stringContaining('4 cores') });
  });

  it('replays every past event to a late client, then done, then ends the stream', async () => {
    const late = await connectSse(s.url, '/api/system/boot');
    await withTimeout(late.ended, 2000, 'the end of the replayed stream');
    expect(late.events).toEqual(live.events);
    expect(late.events.at(-1)!.event).toBe('done');
  });
});

describe('boot with the model runtime down (default)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
  });
  afterAll(() => s.close());

  it('warns on the model runtime and the models, and the server comes up anyway', async () => {
    const c = await connectSse(s.url, '/api/system/boot');
    await withTimeout(c.ended, 2000, 'the boot stream');
    const steps = finalSteps(c.events);
    expectStepKeys([...steps.keys()]);
    expect(steps.get('db')!.status).toBe('ok');
    expect(steps.get('model-runtime')!.status).toBe('warn');
    expect(steps.get('model-runtime')!.detail).toMatch(/not reachable/);
    for (const key of ['chat-model', 'embeddings', 'router']) expect(steps.get(key)!.status).toBe('warn');
    expect((await s.anon.get('/api/system/ready')).status).toBe(200);
    expect((await s.member.get('/api/auth/me')).status).toBe(200);
  });
});

describe('boot with the model runtime up', () => {
  let fake: FakeModelRuntime;
  let s: TestServer;
  const hardware = deferred<HardwareProfile>();
  beforeAll(async () => {
    fake = await startFakeModelRuntime();
    s = await startTestServer({ seed: 'empty', waitForBoot: false, config: { modelRuntimeUrl: fake.url }, overrides: { hardware: () => hardware.promise } });
    // the household chose its models before this boot reached them
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    await s.handle.deps.settings.set('embedding_model', EMBEDDING_MODEL.name.replace(/:latest$/, '')); // a bare name means :latest
    await s.handle.deps.settings.set('router_model', 'not-installed:1b');
    hardware.resolve(TEST_HARDWARE);
    await s.handle.deps.boot.start();
  });
  afterAll(async () => {
    await s.close();
    await fake.close();
  });

  it("reports the runtime 'ok' and each chosen model ok if installed, not ok if missing", async () => {
    const c = await connectSse(s.url, '/api/system/boot');
    await withTimeout(c.ended, 2000, 'the boot stream');
    const steps = finalSteps(c.events);
    expect(steps.get('model-runtime')).toMatchObject({ status: 'ok', detail: expect.stringContaining(FAKE_VERSION) });
    expect(steps.get('chat-model')).toMatchObject({ status: 'ok', detail: CHAT_MODEL.name });
    expect(steps.get('embeddings')!.status).toBe('ok');
    // missing and not downloadable: a warning (or an error once a repair was tried), never ok
    expect(steps.get('router')!.detail).toContain('not-installed:1b');
    expect(['warn', 'error']).toContain(steps.get('router')!.status);
    expect(fake.requests.map((r) => r.path)).toEqual(expect.arrayContaining(['/api/version', '/api/tags']));
  });
});

describe('a failing boot step', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      seed: 'empty',
      overrides: {
        hardware: async () => {
          throw new Error('probe exploded');
        },
      },
    });
  });
  afterAll(() => s.close());

  it('is reported as error and boot goes on to the end', async () => {
    const c = await connectSse(s.url, '/api/system/boot');
    await withTimeout(c.ended, 2000, 'the boot stream');
    const steps = finalSteps(c.events);
    // the boot stream is public: the exception's own message stays in the log
    expect(steps.get('hardware')).toMatchObject({ status: 'error', detail: "This check failed unexpectedly. The details are in Hearth's log." });
    expect(JSON.stringify(c.events)).not.toContain('probe exploded');
    expect(JSON.stringify(s.logger.lines)).toContain('probe exploded');
    expectStepKeys([...steps.keys()]);
    expect(c.events.at(-1)!.event).toBe('done');
    expect((await s.anon.get('/api/system/ready')).status).toBe(200);
  });
});

describe('close() during boot', () => {
  it('finishes cleanly even while a step never returns, and ends open boot streams', async () => {
    const never = new Promise<HardwareProfile>(() => {});
    const s = await startTestServer({ seed: 'empty', waitForBoot: false, overrides: { hardware: () => never } });
    const c = await connectSse(s.url, '/api/system/boot');
    await c.waitFor((e) => e.event === 'step' && e.data.key === 'hardware' && e.data.status === 'running');
    const started = Date.now();
    await withTimeout(s.close(), 5000, 'close() during boot');
    expect(Date.now() - started).toBeLessThan(3000);
    await withTimeout(c.ended, 2000, 'the end of the boot stream');
    expect(c.events.some((e) => e.event === 'done')).toBe(false);
    expect(s.logger.lines.filter((l) => l.msg === 'error while closing')).toEqual([]);
  });
});
