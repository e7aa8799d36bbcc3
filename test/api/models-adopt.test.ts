// Models already in the model runtime before Hearth chose any (Ollama installed and used on its own
// first): Hearth adopts the best installed model for each role nobody chose, says so, and no page
// calls a model "not installed" that the runtime has.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeaturePlan, type CatalogItemView } from '../../server/modules/features/schema.js';
import { ToolsResponse } from '../../server/modules/tools/schema.js';
import { startFakeModelRuntime, type FakeModel, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { ask } from '../harness/chat.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const model = (name: string, sizeBytes: number, capabilities: FakeModel['capabilities'], family = 'llama'): FakeModel => ({ name, family, parameterSize: '1B', quantization: 'Q4_K_M', sizeBytes, capabilities });
// the four models a household pulled with `ollama pull` before installing Hearth
const ALREADY = [
  model('qwen2.5:7b', 4_683_087_332, ['completion', 'tools'], 'qwen2'),
  model('llama3.2:3b', 2_019_393_189, ['completion', 'tools']),
  model('llama3.2:1b', 1_321_098_329, ['completion', 'tools']),
  model('nomic-embed-text:latest', 274_302_450, ['embedding'], 'nomic-bert'),
];

describe('models the runtime already had', () => {
  let runtime: FakeModelRuntime;
  let s: TestServer;

  beforeAll(async () => {
    runtime = await startFakeModelRuntime({ models: [...ALREADY], pullable: [] });
    s = await startTestServer({ seed: 'household', config: { modelRuntimeUrl: runtime.url } });
  });
  afterAll(async () => {
    await s.close();
    await runtime.close();
  });

  it('adopts the best installed model for each role nobody chose, and GET /api/models says which were adopted', async () => {
    const r = await s.admin.get('/api/models');
    expect(r.status).toBe(200);
    // chat: the largest that fits this machine and can use tools; search: the embedding model; router: the catalog's own small model
    expect(r.body.chosen).toEqual({ chat: 'qwen2.5:7b', embeddings: 'nomic-embed-text:latest', router: 'llama3.2:1b', vision: null });
    expect(r.body.adopted).toEqual(['chat', 'embeddings', 'router']);
    const roles = Object.fromEntries((r.body.models as Array<{ name: string; roles: string[] }>).map((m) => [m.name, m.roles]));
    expect(roles).toMatchObject({ 'qwen2.5:7b': ['chat'], 'llama3.2:1b': ['router'], 'nomic-embed-text:latest': ['embeddings'] });
  });

  it('Features reports the items whose models the runtime has as installed, and chat as ready', async () => {
    const plan = FeaturePlan.parse((await s.admin.get('/api/admin/features')).body);
    const byId: Record<string, CatalogItemView> = Object.fromEntries(plan.groups.flatMap((g) => [g.base, ...g.items, ...g.categories.flatMap((c) => c.items)]).map((i) => [i.id, i]));
    for (const id of ['chat-medium', 'chat-small', 'embeddings', 'router']) expect(byId[id], id).toMatchObject({ installed: true, available: true });
    expect(byId['chat-large']).toMatchObject({ installed: false });
    expect(byId['chat-base']).toMatchObject({ available: true, unavailableReason: null });
    expect(plan.essentials.chat).toMatchObject({ installed: true });
  });

  it('the Home checklist, chat readiness and the chat tools say the models are there, naming the adopted ones', async () => {
    const list = (await s.admin.get('/api/setup/checklist')).body as { items: Array<{ key: string; done: boolean; detail: string; fix: { path: string } | null }> };
    const models = list.items.find((i) => i.key === 'models')!;
    expect(models.done).toBe(true);
    expect(models.detail).toContain('qwen2.5:7b');
    expect(models.detail).not.toMatch(/not installed|No AI models/i);
    expect(models.fix?.path).toBe('/admin/models');
    expect((await s.member.get('/api/reader/ai-status')).body).toMatchObject({ available: true });
    const tools = ToolsResponse.parse((await s.member.get('/api/tools')).body).tools;
    const chatTools = tools.filter((t) => t.id === 'reader_search' || t.id === 'chat');
    expect(chatTools.length).toBeGreaterThan(0);
    for (const t of chatTools) expect(t.unavailableReason ?? '', t.id).not.toMatch(/not installed/i);
  });

  it('chat answers a member who names no model, with the adopted one', async () => {
    const a = await ask(s.member, { message: 'Hello there, who are you?' });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.get('conversation')).toMatchObject({ model: 'qwen2.5:7b' });
    expect(a.names.at(-1)).toBe('done');
  });

  it('an admin choosing a model for a role makes it the household choice, no longer adopted', async () => {
    const r = await s.admin.post('/api/models/select', { role: 'chat', model: 'llama3.2:3b' });
    expect(r.status).toBe(200);
    expect(r.body.chosen.chat).toBe('llama3.2:3b');
    expect(r.body.adopted).toEqual(['embeddings', 'router']);
  });
});

describe('a runtime with no model for a role', () => {
  it('adopts what fits and leaves the rest unchosen, saying so', async () => {
    const runtime = await startFakeModelRuntime({ models: [model('nomic-embed-text:latest', 274_302_450, ['embedding'], 'nomic-bert')], pullable: [] });
    const s = await startTestServer({ seed: 'household', config: { modelRuntimeUrl: runtime.url } });
    try {
      const r = await s.admin.get('/api/models');
      expect(r.body.chosen).toEqual({ chat: null, embeddings: 'nomic-embed-text:latest', router: null, vision: null });
      expect(r.body.adopted).toEqual(['embeddings']);
      expect((await s.member.get('/api/reader/ai-status')).body).toMatchObject({ available: false, unavailableReason: 'No chat model is installed yet.' });
    } finally {
      await s.close();
      await runtime.close();
    }
  });
});
