import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HardwareProfile } from '../../server/platform/hardware.js';
import { FakeFileServer, makeContent, sha256 } from '../fakes/file-server.js';
import { pullable, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { request } from 'undici';
import { waitFor } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const GB = 1024 ** 3;
const KB = 1024;


/** POSTs and reads the whole SSE answer (the server ends the stream after done or error). */
async function postSse(url: string, cookie: string, body: unknown): Promise<Array<{ event: string; data: unknown }>> {
  const res = await request(url, { method: 'POST', headers: { cookie, origin: new URL(url).origin, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.statusCode).toBe(200);
  expect(String(res.headers['content-type'])).toContain('text/event-stream');
  const text = await res.body.text();
  return text
    .split('\n\n')
    .map((frame) => ({ event: /^event: (.*)$/m.exec(frame)?.[1], data: /^data: (.*)$/m.exec(frame)?.[1] }))
    .filter((f): f is { event: string; data: string } => Boolean(f.event && f.data))
    .map((f) => ({ event: f.event, data: JSON.parse(f.data) as unknown }));
}

const hardware: HardwareProfile = {
  platform: 'linux',
  arch: 'x64',
  cpu: { brand: 'Test CPU', cores: 4 },
  memoryBytes: 16 * GB,
  gpus: [],
  appleSiliconGeneration: null,
  diskFreeBytes: 200 * GB,
};

describe('features, setup plan and essentials install', () => {
  let files: FakeFileServer;
  let runtime: FakeModelRuntime;
  let s: TestServer;
  const temp = makeTempDir();
  const engine = makeContent(64 * KB, 1);
  const nodes = makeContent(32 * KB, 2);
  const checkpoint = makeContent(256 * KB, 3);

  beforeAll(async () => {
    files = await new FakeFileServer().start();
    runtime = await startFakeModelRuntime({ pullable: [pullable('small:3b', 2000), pullable('medium:7b', 4000), pullable('embed:latest', 500), pullable('router:1b', 800)], chunkDelayMs: 2 });
    const art = (o: object) => ({ hostClass: 'model_runtime', type: 'model', kind: 'runtime_model', ...o });
    const catalog = {
      artifacts: {
        'small:3b': art({ label: 'Small 3B', target: 'small:3b', sizeBytes: 2000 }),
        'medium:7b': art({ label: 'Medium 7B', target: 'medium:7b', sizeBytes: 4000 }),
        embed: art({ label: 'Embed', target: 'embed', sizeBytes: 500 }),
        'router:1b': art({ label: 'Router', target: 'router:1b', sizeBytes: 800 }),
        engine: { type: 'component', kind: 'component', label: 'Engine', target: files.addBuffer('engine.tgz', engine), destination: 'components/engine.tgz', sizeBytes: engine.length, sha256: sha256(engine), hostClass: 'code_host' },
        nodes: { type: 'component', kind: 'component', label: 'Nodes', target: files.addBuffer('nodes.tgz', nodes), destination: 'components/nodes.tgz', sizeBytes: nodes.length, hostClass: 'code_host', requires: ['engine'] },
        ckpt: { type: 'model', kind: 'model', label: 'Checkpoint', target: files.addBuffer('ckpt.safetensors', checkpoint), destination: 'models/ckpt.safetensors', sizeBytes: checkpoint.length, hostClass: 'model_hub', requires: ['engine', 'nodes'] },
      },
      essentials: { chat: 'chat-base', embeddings: 'embeddings', router: 'router' },
      groups: [
        {
          id: 'chat',
          name: 'Chat',
          base: { id: 'chat-base', name: 'Chat', description: 'd', diskBytes: 0, ramBytes: 0, sizing: 'fits' },
          items: [
            { id: 'embeddings', name: 'Embeddings', description: 'd', diskBytes: 500, ramBytes: 1, sizing: 'fixed', installs: [{ id: 'embed', type: 'model' }] },
            { id: 'router', name: 'Router', description: 'd', diskBytes: 800, ramBytes: 1, sizing: 'fixed', installs: [{ id: 'router:1b', type: 'model' }] },
          ],
          categories: [
            {
              id: 'chat-models',
              name: 'Chat models',
              items: [
                { id: 'chat-small', name: 'Small', description: 'd', diskBytes: 2000, ramBytes: 4 * GB, sizing: 'small', installs: [{ id: 'small:3b', type: 'model' }] },
                { id: 'chat-medium', name: 'Medium', description: 'd', diskBytes: 4000, ramBytes: 8 * GB, sizing: 'medium', installs: [{ id: 'medium:7b', type: 'model' }] },
              ],
            },
          ],
        },
        {
          id: 'images',
          name: 'Images',
          base: { id: 'images-base', name: 'Image engine', description: 'd', diskBytes: 1, ramBytes: 1, sizing: 'fixed', installs: [{ id: 'engine', type: 'component' }, { id: 'nodes', type: 'component' }] },
          categories: [{ id: 'image-models', name: 'Models', items: [{ id: 'images-ckpt', name: 'Checkpoint', description: 'd', diskBytes: 1, ramBytes: 1, sizing: 'small', requires: ['images-base'], installs: [{ id: 'ckpt', type: 'model' }] }] }],
        },
      ],
    };
    const file = path.join(temp.dir, 'features.json');
    writeFileSync(file, JSON.stringify(catalog));
    s = await startTestServer({
      seed: 'household',
      config: { featureCatalogPath: file, fetchAllowOrigins: [files.url], modelRuntimeUrl: runtime.url },
      overrides: { hardware: async () => hardware, tuning: { downloadBackoffBaseMs: 20, downloadStallTimeoutMs: 2000 } },
    });
  });
  afterAll(async () => {
    await s.close();
    await files.close();
    await runtime.close();
    temp.remove();
  });

  it('GET /api/setup/catalog fits the chat model to the machine and sizes the plan (admin only)', async () => {
    expect((await s.member.get('/api/setup/catalog')).status).toBe(403);
    const r = await s.admin.get('/api/setup/catalog');
    expect(r.status).toBe(200);
    expect(r.body.essentials.chat).toMatchObject({ id: 'chat-medium', fitsBudget: true, installed: false });
    expect(r.body.essentials.embeddings.id).toBe('embeddings');
    expect(r.body.budget.runsOn).toBe('cpu');
    expect(r.body.disk).toMatchObject({ freeBytes: 200 * GB, essentialsBytes: 4000 + 500 + 800, fits: true });
    expect(r.body.groups.map((g: any) => g.id)).toEqual(['chat', 'images']);
  });

  it('POST /api/setup/download installs the essentials with live progress, then queues the extras', async () => {
    const events = await postSse(`${s.url}/api/setup/download`, s.admin.cookie!, { extras: ['images-ckpt'] });
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('plan');
    expect(names.at(-1)).toBe('done');
    expect(events.at(-1)!.data).toEqual({ queued: 3 });
    const progress = events.filter((e) => e.event === 'progress').map((e) => e.data as any);
    expect(progress.some((p) => p.state === 'running' || p.bytesDone > 0)).toBe(true);
    expect(progress.filter((p) => p.state === 'completed').map((p) => p.label).sort()).toEqual(expect.arrayContaining(['Embed', 'Medium 7B', 'Router']));
    // the essentials are now the chosen models, installed in the runtime
    expect(await s.handle.deps.settings.get('chat_model')).toBe('medium:7b');
    expect(await s.handle.deps.settings.get('embedding_model')).toBe('embed');
    expect(runtime.models.map((m) => m.name)).toEqual(expect.arrayContaining(['medium:7b', 'embed:latest', 'router:1b']));
    const flags = (await s.member.get('/api/app-features')).body.features;
    expect(flags).toMatchObject({ 'chat-base': true, 'chat-medium': true, embeddings: true, router: true });
    expect(await s.handle.deps.settings.get('setup.pending_extras')).toBeUndefined();

    // extras: the checkpoint waits for the engine and its nodes, which were queued first
    const jobs: any[] = await waitFor(async () => {
      const list: any[] = (await s.admin.get('/api/jobs/status')).body.jobs;
      return ['Engine', 'Nodes', 'Checkpoint'].every((l) => list.find((j) => j.label === l)?.state === 'completed') && list;
    }, 'the engine, nodes and checkpoint jobs to complete', 20_000, 50);
    const byLabel = Object.fromEntries(jobs.map((j) => [j.label, j]));
    expect(byLabel.Checkpoint.state).toBe('completed');
    expect(byLabel.Nodes.requires).toEqual([byLabel.Engine.id]);
    expect(byLabel.Checkpoint.requires.sort()).toEqual([byLabel.Engine.id, byLabel.Nodes.id].sort());
    expect(new Date(byLabel.Checkpoint.startedAt).getTime()).toBeGreaterThanOrEqual(new Date(byLabel.Nodes.finishedAt).getTime());
    expect(existsSync(path.join(s.dataDir, 'models/ckpt.safetensors'))).toBe(true);
    expect((await s.member.get('/api/app-features')).body.features).toMatchObject({ 'images-base': true, 'images-ckpt': true });
  });

  it('queues no model while the model runtime is down, and says which were left out', async () => {
    const before = (await s.admin.get('/api/jobs/status')).body.jobs.length;
    await runtime.setMode('down');
    try {
      const events = await postSse(`${s.url}/api/setup/download`, s.admin.cookie!, { extras: [] });
      expect(events.at(-1)).toMatchObject({ event: 'done', data: { queued: 0, notInstalled: ['Medium', 'Embeddings', 'Router'] } });
      expect((await s.admin.get('/api/jobs/status')).body.jobs.length).toBe(before);
    } finally {
      await runtime.setMode('ok');
    }
  });

  it('the feature flags can be toggled by admins only; unknown ids are 404', async () => {
    expect((await s.member.put('/api/app-features/images-ckpt', { enabled: false })).status).toBe(403);
    const off = await s.admin.put('/api/app-features/images-ckpt', { enabled: false });
    expect(off.status).toBe(200);
    expect(off.body.features['images-ckpt']).toBe(false);
    expect(await s.handle.deps.settings.get('features.flags')).toMatchObject({ 'images-ckpt': false });
    expect((await s.admin.put('/api/app-features/nope', { enabled: true })).status).toBe(404);
    expect((await s.admin.put('/api/app-features/images-ckpt', { enabled: 'no' })).status).toBe(400);
  });

  it('POST /api/jobs/enqueue skips what is installed; unknown items are 404', async () => {
    const r = await s.admin.post('/api/jobs/enqueue', { items: ['images-ckpt'] });
    expect(r.status).toBe(202);
    expect(r.body.jobs).toEqual([]);
    expect((await s.admin.post('/api/jobs/enqueue', { items: ['nope'] })).status).toBe(404);
    expect((await s.member.post('/api/jobs/enqueue', { items: ['images-ckpt'] })).status).toBe(403);
  });

  it('boot reconciles a component that went missing by handing it back to the queue', async () => {
    rmSync(path.join(s.dataDir, 'models/ckpt.safetensors'));
    const dataDir = s.dataDir;
    await s.handle.close();
    const again = await startTestServer({
      dataDir,
      config: { featureCatalogPath: path.join(temp.dir, 'features.json'), fetchAllowOrigins: [files.url], modelRuntimeUrl: runtime.url },
      overrides: { hardware: async () => hardware, tuning: { downloadBackoffBaseMs: 20 } },
    });
    try {
      const step = again.handle.deps.boot.steps().find((x) => x.key === 'components')!;
      expect(step.status).toBe('warn');
      expect(step.detail).toContain('ckpt');
      await waitFor(() => existsSync(path.join(dataDir, 'models/ckpt.safetensors')), 'the checkpoint to be downloaded after the restart', 10_000, 50);
      expect(sha256(readFileSync(path.join(dataDir, 'models/ckpt.safetensors')))).toBe(sha256(checkpoint));
    } finally {
      await again.handle.close();
    }
  });
});

describe('boot repair of a missing essential', () => {
  it('pulls a chosen chat model the runtime lost, reporting repair progress, while boot waits', async () => {
    const runtime = await startFakeModelRuntime({ pullable: [pullable('lost:3b', 5000)], chunkDelayMs: 2 });
    const temp = makeTempDir();
    try {
      const first = await startTestServer({ dataDir: temp.dir, config: { modelRuntimeUrl: runtime.url } });
      await first.handle.deps.settings.set('chat_model', 'lost:3b');
      await first.handle.close();

      const s = await startTestServer({ dataDir: temp.dir, config: { modelRuntimeUrl: runtime.url } });
      try {
        const step = s.handle.deps.boot.steps().find((x) => x.key === 'chat-model')!;
        expect(step.status).toBe('ok');
        expect(step.detail).toContain('downloaded again');
        const repairs = s.handle.deps.boot.channel.events().filter((e) => e.event === 'repair').map((e) => e.data as any);
        expect(repairs.length).toBeGreaterThan(1);
        expect(repairs.at(-1)).toMatchObject({ key: 'chat-model', completed: 5000, total: 5000 });
        expect(runtime.models.map((m) => m.name)).toContain('lost:3b');
        // boot finished only after the repair
        const events = s.handle.deps.boot.channel.events().map((e) => e.event);
        expect(events.lastIndexOf('repair')).toBeLessThan(events.indexOf('done'));
      } finally {
        await s.handle.close();
      }
    } finally {
      await runtime.close();
      temp.remove();
    }
  });
});

describe('setup extras when the wizard is closed mid-install', () => {
  it('queues the chosen extras once the essentials finish, with no stream open', async () => {
    const runtime = await startFakeModelRuntime({ pullable: [pullable('small:3b', 2000), pullable('embed:latest', 500), pullable('router:1b', 800)], chunkDelayMs: 20 });
    const files = await new FakeFileServer().start();
    const temp = makeTempDir();
    const art = (o: object) => ({ hostClass: 'model_runtime', type: 'model', kind: 'runtime_model', ...o });
    const extra = makeContent(16 * KB, 9);
    const catalog = {
      artifacts: {
        'small:3b': art({ label: 'Small', target: 'small:3b', sizeBytes: 2000 }),
        embed: art({ label: 'Embed', target: 'embed', sizeBytes: 500 }),
        'router:1b': art({ label: 'Router', target: 'router:1b', sizeBytes: 800 }),
        extra: { type: 'component', kind: 'component', label: 'Extra', target: files.addBuffer('extra.bin', extra), destination: 'components/extra.bin', sizeBytes: extra.length, hostClass: 'code_host' },
      },
      essentials: { chat: 'chat-base', embeddings: 'embeddings', router: 'router' },
      groups: [
        {
          id: 'chat',
          name: 'Chat',
          base: { id: 'chat-base', name: 'Chat', description: 'd', diskBytes: 0, ramBytes: 0, sizing: 'fits' },
          items: [
            { id: 'embeddings', name: 'E', description: 'd', diskBytes: 500, ramBytes: 1, sizing: 'fixed', installs: [{ id: 'embed', type: 'model' }] },
            { id: 'router', name: 'R', description: 'd', diskBytes: 800, ramBytes: 1, sizing: 'fixed', installs: [{ id: 'router:1b', type: 'model' }] },
          ],
          categories: [{ id: 'chat-models', name: 'Chat models', items: [{ id: 'chat-small', name: 'Small', description: 'd', diskBytes: 2000, ramBytes: 1, sizing: 'small', installs: [{ id: 'small:3b', type: 'model' }] }] }],
        },
        { id: 'maps', name: 'Maps', base: { id: 'maps-base', name: 'Maps', description: 'd', diskBytes: 1, ramBytes: 1, sizing: 'fixed', installs: [{ id: 'extra', type: 'component' }] } },
      ],
    };
    const file = path.join(temp.dir, 'features.json');
    writeFileSync(file, JSON.stringify(catalog));
    const s = await startTestServer({ seed: 'household', config: { featureCatalogPath: file, fetchAllowOrigins: [files.url], modelRuntimeUrl: runtime.url } });
    try {
      // open the install stream and walk away as soon as it has started
      const res = await request(`${s.url}/api/setup/download`, { method: 'POST', headers: { cookie: s.admin.cookie!, origin: s.url, 'content-type': 'application/json' }, body: JSON.stringify({ extras: ['maps-base'] }) });
      expect(res.statusCode).toBe(200);
      res.body.destroy();
      await waitFor(() => existsSync(path.join(s.dataDir, 'components/extra.bin')), 'the extra to finish downloading without its stream', 15_000, 50);
      expect(sha256(readFileSync(path.join(s.dataDir, 'components/extra.bin')))).toBe(sha256(extra));
      // the file lands first; the queue's completion then turns the feature on (its listener runs after the rename)
      await waitFor(async () => (await s.member.get('/api/app-features')).body.features['maps-base'] === true, 'the extra feature to be on', 15_000, 50);
      expect(await s.handle.deps.settings.get('setup.pending_extras')).toBeUndefined();
      expect((await s.member.get('/api/app-features')).body.features).toMatchObject({ 'chat-base': true, 'maps-base': true });
    } finally {
      await s.close();
      await files.close();
      await runtime.close();
      temp.remove();
    }
  });
});
