// Boot repair of the essential models, counted at the model runtime: a repaired model is pulled
// once, not handed to the queue as well, and a healthy restart afterwards pulls nothing.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pullable, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { waitFor } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';


const art = (o: object) => ({ hostClass: 'model_runtime', type: 'model', kind: 'runtime_model', ...o });
const item = (id: string, installs: string[]) => ({ id, name: id, description: 'd', diskBytes: 1, ramBytes: 1, sizing: 'fixed', installs: installs.map((a) => ({ id: a, type: 'model' })) });

// the embeddings model is installed by three items, as in the real catalog's search features
const CATALOG = {
  artifacts: {
    'small:3b': art({ label: 'Small', target: 'small:3b', sizeBytes: 2000 }),
    embed: art({ label: 'Embed', target: 'embed', sizeBytes: 500 }),
    'router:1b': art({ label: 'Router', target: 'router:1b', sizeBytes: 800 }),
  },
  essentials: { chat: 'chat-small', embeddings: 'embeddings', router: 'router' },
  groups: [
    {
      id: 'chat',
      name: 'Chat',
      base: { id: 'chat-base', name: 'Chat', description: 'd', diskBytes: 0, ramBytes: 0, sizing: 'fits' },
      items: [item('embeddings', ['embed']), item('router', ['router:1b']), item('reader-search', ['embed']), item('notes-search', ['embed'])],
      categories: [{ id: 'chat-models', name: 'Chat models', items: [{ ...item('chat-small', ['small:3b']), sizing: 'small' }] }],
    },
  ],
};

describe('boot repair of lost essentials, counted at the runtime', () => {
  const temp = makeTempDir();
  let runtime: FakeModelRuntime;
  const start = () => startTestServer({ dataDir: temp.dir, config: { modelRuntimeUrl: runtime.url, featureCatalogPath: path.join(temp.dir, 'features.json') } });
  const pulls = () => runtime.requests.filter((r) => r.method === 'POST' && r.path === '/api/pull').map((r) => String((r.body as { model?: string; name?: string }).model ?? (r.body as { name?: string }).name));

  /** Waits until the queue has nothing waiting or running, and returns its jobs. */
  async function settledJobs(s: TestServer) {
    const status = await waitFor(async () => {
      const st = await s.handle.deps.downloads.status();
      return st.counts.pending + st.counts.running === 0 && st;
    }, 'an idle download queue', 15_000);
    return status.jobs;
  }

  beforeAll(async () => {
    runtime = await startFakeModelRuntime({ models: [], pullable: [pullable('small:3b', 2000), pullable('embed:latest', 500), pullable('router:1b', 800)], chunkDelayMs: 1 });
    writeFileSync(path.join(temp.dir, 'features.json'), JSON.stringify(CATALOG));
    // a household that finished setup with all three essentials (and the search items) installed
    const first = await start();
    const { settings, features } = first.handle.deps;
    await settings.set('chat_model', 'small:3b');
    await settings.set('embedding_model', 'embed');
    await settings.set('router_model', 'router:1b');
    await features.markInstalled(['small:3b', 'embed', 'router:1b']);
    await first.close();
    runtime.requests.length = 0;
  });
  afterAll(async () => {
    await runtime.close();
    temp.remove();
  });

  it('pulls each lost essential once and queues none of them again', async () => {
    const s = await start();
    try {
      const steps = s.handle.deps.boot.steps();
      for (const key of ['chat-model', 'embeddings', 'router']) expect(steps.find((x) => x.key === key)!.detail, key).toContain('downloaded again');
      expect(steps.find((x) => x.key === 'components')).toMatchObject({ status: 'ok' });
      const jobs = await settledJobs(s);
      expect(jobs.map((j) => j.target)).toEqual([]);
      expect(pulls().sort()).toEqual(['embed', 'router:1b', 'small:3b']);
    } finally {
      await s.close();
    }
  });

  it('pulls nothing on the healthy restart after the repair', async () => {
    runtime.requests.length = 0;
    const s = await start();
    try {
      await settledJobs(s);
      expect(s.handle.deps.boot.steps().find((x) => x.key === 'components')).toMatchObject({ status: 'ok' });
      expect(pulls()).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('the download queue keeps one job per target', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
    await s.handle.deps.downloads.setPaused({ kind: 'system' }, true);
  });
  afterAll(() => s.close());

  it('answers the same job for a target queued twice in one request or in two at once', async () => {
    const job = { kind: 'runtime_model', target: 'twice:1b', label: 'Twice', hostClass: 'model_runtime' };
    const one = await s.admin.post('/api/admin/queue/jobs', { jobs: [job, job] });
    expect(one.status).toBe(201);
    const [a, b] = await Promise.all([
      s.admin.post('/api/admin/queue/jobs', { jobs: [{ ...job, target: 'race:1b' }] }),
      s.admin.post('/api/admin/queue/jobs', { jobs: [{ ...job, target: 'race:1b' }] }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const jobs = (await s.admin.get('/api/admin/queue')).body.jobs as Array<{ target: string }>;
    expect(jobs.filter((j) => j.target === 'twice:1b')).toHaveLength(1);
    expect(jobs.filter((j) => j.target === 'race:1b')).toHaveLength(1);
  });
});
