// The essentials across restarts with the real feature catalog, counted at the model runtime's
// pull log: setup installs them once, a restart where the runtime lost them repairs each once,
// and a restart with all three present pulls nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { pullable, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { waitFor } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { SETTING_QUEUE_PAUSED } from '../../server/modules/downloads/schema.js';

const ESSENTIALS = ['qwen2.5:7b', 'nomic-embed-text', 'llama3.2:1b'];

describe('the essentials across restarts (real catalog)', () => {
  const temp = makeTempDir();
  let runtime: FakeModelRuntime;
  const start = (seed?: 'empty') => startTestServer({ dataDir: temp.dir, ...(seed ? { seed } : {}), config: { modelRuntimeUrl: runtime.url } });
  const pulls = () => runtime.requests.filter((r) => r.method === 'POST' && r.path === '/api/pull').map((r) => String((r.body as { model?: string }).model));
  const idle = (s: TestServer) =>
    waitFor(async () => {
      const st = await s.handle.deps.downloads.status();
      return st.counts.pending + st.counts.running === 0 && st;
    }, 'an idle download queue', 20_000);

  beforeAll(async () => {
    // Ollama names a model pulled without a tag "name:latest"
    runtime = await startFakeModelRuntime({ models: [], pullable: [pullable('qwen2.5:7b', 4000), pullable('nomic-embed-text:latest', 500), pullable('llama3.2:1b', 800)], chunkDelayMs: 1 });
  });
  afterAll(async () => {
    await runtime.close();
    temp.remove();
  });

  it('setup installs each essential once', async () => {
    const s = await startTestServer({ dataDir: temp.dir, seed: 'household', config: { modelRuntimeUrl: runtime.url } });
    try {
      const res = await request(`${s.url}/api/setup/download`, { method: 'POST', headers: { cookie: s.admin.cookie!, origin: s.url, 'content-type': 'application/json' }, body: JSON.stringify({ extras: [] }) });
      const text = await res.body.text();
      expect(text).toContain('event: done');
      await idle(s);
      expect(pulls().sort()).toEqual([...ESSENTIALS].sort());
    } finally {
      await s.close();
    }
  });

  it('a restart where the runtime lost them repairs each once', async () => {
    runtime.models.length = 0;
    runtime.requests.length = 0;
    const s = await start();
    try {
      await idle(s);
      expect(pulls().sort()).toEqual([...ESSENTIALS].sort());
    } finally {
      await s.close();
    }
  });

  it('a restart where the runtime lost them and the queue still holds jobs for them pulls each once', async () => {
    // jobs for the essentials left in the queue (a Features install that had not run before a stop)
    const first = await start();
    try {
      const { downloads, settings } = first.handle.deps;
      await downloads.setPaused({ kind: 'system' }, true);
      await downloads.enqueue({ kind: 'system' }, ESSENTIALS.map((m) => ({ kind: 'runtime_model' as const, target: m, label: `AI model ${m}`, hostClass: 'model_runtime' as const })));
      // unpaused behind the runner's back: the jobs wait for the next start
      await settings.set(SETTING_QUEUE_PAUSED, false);
    } finally {
      await first.close();
    }
    runtime.models.length = 0;
    runtime.requests.length = 0;
    // slow enough that the queue and boot would both be pulling at once
    runtime.chunkDelayMs = 20;
    const s = await start();
    try {
      await idle(s);
      expect(pulls().sort()).toEqual([...ESSENTIALS].sort());
    } finally {
      runtime.chunkDelayMs = 1;
      await s.close();
    }
  });

  it('a restart with all three present pulls nothing', async () => {
    expect(runtime.models.map((m) => m.name).sort()).toEqual(['llama3.2:1b', 'nomic-embed-text:latest', 'qwen2.5:7b']);
    runtime.requests.length = 0;
    const s = await start();
    try {
      await idle(s);
      expect(s.handle.deps.boot.steps().map((x) => `${x.key}:${x.status}:${x.detail}`)).toEqual(expect.arrayContaining([expect.stringMatching(/^components:ok/)]));
      expect(pulls()).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
