// Setup without the model runtime: the plan says the models wait and suggests none of them, and
// Install queues what needs no runtime, names what it left out and why, and tells the admins.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeFileServer, makeContent, sha256 } from '../fakes/file-server.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const KB = 1024;

async function postSse(url: string, cookie: string, body: unknown): Promise<Array<{ event: string; data: any }>> {
  const res = await request(url, { method: 'POST', headers: { cookie, origin: new URL(url).origin, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.statusCode).toBe(200);
  const text = await res.body.text();
  return text
    .split('\n\n')
    .map((frame) => ({ event: /^event: (.*)$/m.exec(frame)?.[1], data: /^data: (.*)$/m.exec(frame)?.[1] }))
    .filter((f): f is { event: string; data: string } => Boolean(f.event && f.data))
    .map((f) => ({ event: f.event, data: JSON.parse(f.data) }));
}

describe('setup with the model runtime down', () => {
  let files: FakeFileServer;
  let s: TestServer;
  const temp = makeTempDir();
  const library = makeContent(16 * KB, 4);

  beforeAll(async () => {
    files = await new FakeFileServer().start();
    const art = (o: object) => ({ hostClass: 'model_runtime', type: 'model', kind: 'runtime_model', ...o });
    const item = (id: string, name: string, installs: Array<{ id: string; type: string }>) => ({ id, name, description: 'd', diskBytes: 100, ramBytes: 1, sizing: 'fixed', installs });
    const catalog = {
      artifacts: {
        'small:3b': art({ label: 'Small 3B', target: 'small:3b', sizeBytes: 2000 }),
        embed: art({ label: 'Embed', target: 'embed', sizeBytes: 500 }),
        'router:1b': art({ label: 'Router', target: 'router:1b', sizeBytes: 800 }),
        'vision:2b': art({ label: 'Vision', target: 'vision:2b', sizeBytes: 900 }),
        kiwix: { type: 'component', kind: 'component', label: 'Library tools', target: files.addBuffer('kiwix.tgz', library), destination: 'components/kiwix.tgz', sizeBytes: library.length, sha256: sha256(library), hostClass: 'code_host' },
      },
      essentials: { chat: 'chat-base', embeddings: 'embeddings', router: 'router' },
      groups: [
        {
          id: 'chat',
          name: 'Chat',
          base: { id: 'chat-base', name: 'Chat', description: 'd', diskBytes: 0, ramBytes: 0, sizing: 'fits' },
          items: [item('embeddings', 'Search memory', [{ id: 'embed', type: 'model' }]), item('router', 'Quick router', [{ id: 'router:1b', type: 'model' }])],
          categories: [{ id: 'chat-models', name: 'Chat models', items: [{ ...item('chat-small', 'Small chat model', [{ id: 'small:3b', type: 'model' }]), sizing: 'small' }] }],
        },
        { id: 'library', name: 'Library', base: item('library-base', 'Offline library', [{ id: 'kiwix', type: 'component' }]) },
        { id: 'home-inventory', name: 'Home inventory', base: item('home-inventory-base', 'Home inventory', [{ id: 'vision:2b', type: 'model' }]) },
      ],
    };
    const file = path.join(temp.dir, 'features.json');
    writeFileSync(file, JSON.stringify(catalog));
    // the harness points the model runtime at a closed port: it is down
    s = await startTestServer({ seed: 'household', config: { featureCatalogPath: file, fetchAllowOrigins: [files.url] } });
  });
  afterAll(async () => {
    await s.close();
    await files.close();
    temp.remove();
  });

  it('GET /api/setup/catalog says the runtime is not running and suggests no item that installs a model', async () => {
    const r = await s.admin.get('/api/setup/catalog');
    expect(r.status).toBe(200);
    expect(r.body.runtime).toEqual({ running: false, installed: false });
    expect([...r.body.needsRuntime].sort()).toEqual(['chat-small', 'embeddings', 'home-inventory-base', 'router']);
    expect(r.body.recommended).toContain('library-base');
    for (const id of r.body.needsRuntime) expect(r.body.recommended).not.toContain(id);
  });

  it('POST /api/setup/download queues the extras that need no runtime, names the rest and why, and notifies the admins', async () => {
    const events = await postSse(`${s.url}/api/setup/download`, s.admin.cookie!, { extras: ['library-base', 'home-inventory-base'] });
    const done = events.find((e) => e.event === 'done')!;
    expect(done.data).toMatchObject({ queued: 1, notInstalled: ['Small chat model', 'Search memory', 'Quick router', 'Home inventory'] });
    expect(done.data.reason).toMatch(/Ollama/);
    expect(done.data.reason).toMatch(/ollama\.com/);
    expect(events.some((e) => e.event === 'error')).toBe(false);

    const jobs = (await s.admin.get('/api/jobs/status')).body.jobs as Array<{ label: string; kind: string }>;
    expect(jobs.map((j) => j.label)).toEqual(['Library tools']);
    // no model was chosen: nothing to "repair" at the next start
    expect(await s.handle.deps.settings.get('chat_model')).toBeUndefined();

    const bell = (await s.admin.get('/api/notifications')).body.notifications as Array<{ payload: Record<string, string> }>;
    const note = bell.find((n) => n.payload.kind === 'setup_models_missing');
    expect(note?.payload.body).toContain('Home inventory');
    expect(note?.payload.body).toContain('ollama.com');
    expect((await s.member.get('/api/notifications')).body.notifications.some((n: any) => n.payload.kind === 'setup_models_missing')).toBe(false);

    // Check again while Ollama is still down: the same answer, no second notification, no second job
    const again = await postSse(`${s.url}/api/setup/download`, s.admin.cookie!, { extras: ['library-base', 'home-inventory-base'] });
    expect(again.find((e) => e.event === 'done')!.data).toMatchObject({ notInstalled: done.data.notInstalled });
    expect(((await s.admin.get('/api/notifications')).body.notifications as Array<{ payload: Record<string, string> }>).filter((n) => n.payload.kind === 'setup_models_missing')).toHaveLength(1);
    expect((await s.admin.get('/api/jobs/status')).body.jobs.map((j: { label: string }) => j.label)).toEqual(['Library tools']);
  });
});
