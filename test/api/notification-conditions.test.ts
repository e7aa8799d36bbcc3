// Condition notifications: a notification that describes a state of things goes away on its own
// once that state ends, and links to its fix. Setup without the AI models (ended by the models
// being there) and failed downloads (ended by no failed job being left). No timed assertion: the
// test makes the condition end and waits, within its own timeout, for the notification to go.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeFileServer, makeContent } from '../fakes/file-server.js';
import { CHAT_MODEL, EMBEDDING_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import type { TestClient } from '../harness/client.js';
import { waitFor } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

interface Note {
  id: string;
  readAt: string | null;
  payload: Record<string, string>;
}
const notes = async (c: TestClient, kind: string): Promise<Note[]> => ((await c.get('/api/notifications')).body.notifications as Note[]).filter((n) => n.payload.kind === kind);

describe('setup without the AI models', () => {
  let runtime: FakeModelRuntime;
  let s: TestServer;
  beforeAll(async () => {
    runtime = await startFakeModelRuntime({ models: [CHAT_MODEL, EMBEDDING_MODEL] });
    await runtime.setMode('down');
    s = await startTestServer({ seed: 'household', config: { modelRuntimeUrl: runtime.url } });
  });
  afterAll(async () => {
    await s.close();
    await runtime.close();
  });

  it('tells the admins with a link to the fix, and the notification goes once the models are there', async () => {
    const r = await s.admin.post('/api/setup/download', { extras: [] });
    expect(r.status).toBe(200);
    const [note] = await notes(s.admin, 'setup_models_missing');
    expect(note).toBeDefined();
    expect(note!.payload).toMatchObject({ title: 'Setup finished without the AI models', link: '/features', linkLabel: 'Open Features' });
    expect(await notes(s.member, 'setup_models_missing')).toEqual([]);
    // asking again while Ollama is down keeps one notification
    await s.admin.post('/api/setup/download', { extras: [] });
    expect(await notes(s.admin, 'setup_models_missing')).toHaveLength(1);

    // Ollama starts, with models that fill every role: the condition has ended
    await runtime.setMode('ok');
    await waitFor(async () => (await notes(s.admin, 'setup_models_missing')).length === 0, 'the setup notification to go', 20_000);
    expect((await s.admin.get('/api/notifications/unread-count')).body.unreadCount).toBe(0);
  });
});

describe('failed downloads', () => {
  let s: TestServer;
  let files: FakeFileServer;
  beforeAll(async () => {
    files = await new FakeFileServer().start();
    s = await startTestServer({ seed: 'household', config: { fetchAllowOrigins: [files.url] }, overrides: { tuning: { downloadBackoffBaseMs: 5 } } });
  });
  afterAll(async () => {
    await s.close();
    await files.close();
  });
  const status = async () => (await s.admin.get('/api/jobs/status')).body.jobs as Array<{ id: string; label: string; state: string; lastError: string | null }>;

  it('a download that fails for good says why in words, tells the admins once with a link to Downloads, and the notice goes when no failed job is left', async () => {
    const content = makeContent(4096, 7);
    const jobs = [
      // a site that does not resolve: what "getaddrinfo ENOTFOUND huggingface.co" was on an offline computer
      { kind: 'archive', hostClass: 'archive', label: 'Offline archive', target: 'https://hearth-test.invalid/a.zim', destination: 'archives/a.zim' },
      // a file that is not there (yet)
      { kind: 'archive', hostClass: 'archive', label: 'Missing archive', target: `${files.url}/later.zim`, destination: 'archives/later.zim', expectedBytes: content.length },
    ];
    expect((await s.admin.post('/api/admin/queue/jobs', { jobs })).status).toBe(201);
    const failed = await waitFor(async () => {
      const all = await status();
      return all.every((j) => j.state === 'failed') && all;
    }, 'both downloads to fail for good', 30_000);
    const offline = failed.find((j) => j.label === 'Offline archive')!;
    expect(offline.lastError).toMatch(/internet connection/);
    expect(offline.lastError).toMatch(/retry it from Downloads/);
    for (const j of failed) expect(j.lastError).not.toMatch(/ENOTFOUND|getaddrinfo|\.invalid|Could not connect|answered \d{3}/);

    const [note] = await waitFor(async () => {
      const found = await notes(s.admin, 'downloads_failed');
      return found.length === 1 && found[0]!.payload.title === '2 downloads could not finish' && found;
    }, 'one notification about both failures', 15_000);
    expect(note!.payload).toMatchObject({ link: '/downloads', linkLabel: 'Open Downloads' });
    expect(note!.payload.body).toContain('Offline archive');
    expect(note!.payload.body).not.toMatch(/ENOTFOUND|getaddrinfo|\.invalid/);
    expect(await notes(s.member, 'downloads_failed')).toEqual([]);

    // the admin gives up on one (paused, retried, cancelled) and the other's file appears: retried, it finishes
    files.addBuffer('later.zim', content);
    expect((await s.admin.post('/api/admin/queue/pause')).status).toBe(200);
    expect((await s.admin.post(`/api/jobs/${offline.id}/retry`)).status).toBe(200);
    expect((await s.admin.post(`/api/jobs/${offline.id}/cancel`)).status).toBe(200);
    expect((await s.admin.post(`/api/jobs/${failed.find((j) => j.label === 'Missing archive')!.id}/retry`)).status).toBe(200);
    expect((await s.admin.post('/api/admin/queue/resume')).status).toBe(200);
    await waitFor(async () => (await notes(s.admin, 'downloads_failed')).length === 0, 'the failed-downloads notification to go', 20_000);
    // the notice goes once no job has failed (the retried one is queued again); the retry then finishes
    await waitFor(async () => (await status()).map((j) => j.state).sort().join() === 'cancelled,completed', 'the retried download to finish', 20_000);
    expect(await notes(s.admin, 'downloads_failed')).toEqual([]);
  });
});
