// The chat tools archive_search and reader_search, called as chat calls them (run with checked
// arguments, ground with a whole question), against the fixture archives on the real kiwix-serve
// and a real Reader store with items on both sides of the privacy boundary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserActor } from '../../server/actor.js';
import { ArchiveSearchArgs, createArchiveSearchTool } from '../../server/modules/archives/chat-tool.js';
import { ChatToolRegistry, toolSpec, type ChatToolContext } from '../../server/modules/chat/tool-registry.js';
import { createReaderSearchTool, ReaderSearchArgs } from '../../server/modules/reader/chat-tool.js';
import { fixtureCatalog, installFixtureArchives } from '../harness/archives.js';
import type { TestClient } from '../harness/client.js';
import { freePort } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { buildTestZims, kiwixServeOnPath, type TestZims } from '../harness/zims.js';

describe('chat tools', () => {
  const temp = makeTempDir();
  let zims: TestZims;
  let s: TestServer;
  let kim: TestClient;
  let kimId: string;

  const actorOf = (u: { id: string; name: string; role: 'admin' | 'member' }): UserActor => ({ kind: 'user', id: u.id, name: u.name, role: u.role, sessionId: 'test' });
  const ctx = (actor: UserActor): ChatToolContext => ({ actor, signal: new AbortController().signal });
  const archiveTool = () => createArchiveSearchTool({ archives: s.handle.deps.archives });
  const readerTool = () => createReaderSearchTool({ items: s.handle.deps.reader.items });

  beforeAll(async () => {
    zims = buildTestZims();
    s = await startTestServer({
      seed: 'household',
      config: { archiveCatalogPath: fixtureCatalog(temp.dir, zims), archiveServerPort: await freePort(), kiwixServePath: kiwixServeOnPath() },
    });
    await installFixtureArchives(s, zims, temp.dir);
    const m = await s.admin.post('/api/admin/users', { name: 'Kim', pin: '2468', role: 'member' });
    kimId = m.body.user.id;
    kim = await s.signIn(kimId, '2468');
    const add = async (c: TestClient, title: string, url: string) => expect((await c.post('/api/reader', { url, title, type: 'live' })).status).toBe(201);
    await add(s.member, 'Lasagne recipe from grandma', 'https://example.org/sam-lasagne');
    await add(kim, 'Kim secret lasagne notes', 'https://example.org/kim-lasagne');
    expect((await s.admin.post('/api/admin/reader', { url: 'https://example.org/household-recipes', title: 'Household recipe book' })).status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await s?.close();
    zims?.remove();
    temp.remove();
  });

  it('register as chat tools with function names, budgets and JSON schemas of their arguments', () => {
    const registry = new ChatToolRegistry().register(archiveTool(), readerTool());
    for (const t of registry.all()) {
      expect(t.timeoutMs).toBeGreaterThan(0);
      expect(t.timeoutMs).toBeLessThanOrEqual(5000);
      expect(t.ground).toBeTypeOf('function');
      const spec = toolSpec(t);
      expect(spec.function.parameters).toMatchObject({ type: 'object', required: ['query'], properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 10 } } });
    }
    expect(registry.all().map((t) => t.id)).toEqual(['archive_search', 'reader_search']);
    // a call's arguments are checked against the schema
    expect(ArchiveSearchArgs.safeParse({ query: 'heater', limit: 11 }).success).toBe(false);
    expect(ReaderSearchArgs.safeParse({ query: '' }).success).toBe(false);
    expect(ReaderSearchArgs.safeParse({ query: 'x', limit: 0 }).success).toBe(false);
  });

  describe('archive_search', () => {
    it('answers with the top articles, a short snippet each and a link into the archive viewer', async () => {
      const r = await archiveTool().run({ query: 'water heater', limit: 3 }, ctx(actorOf(s.users.member)));
      expect(r.sources.length).toBeGreaterThan(0);
      expect(r.sources.length).toBeLessThanOrEqual(3);
      expect(r.sources[0]).toMatchObject({ type: 'archive', title: 'Water heater', url: '/read/fixturepedia/A/Water_heater' });
      for (const src of r.sources) {
        expect(src.url).toMatch(/^\/read\/fixture(pedia|books)\//);
        if (src.snippet) expect(src.snippet.length).toBeLessThanOrEqual(241);
      }
      expect(r.content).toContain('1. Water heater (Fixturepedia) /read/fixturepedia/A/Water_heater');
      // the model's context is small
      expect(r.content.length).toBeLessThan(1500);
      expect(r.summary).toBe(`Looked up "water heater" in the archives: ${r.sources.length} ${r.sources.length === 1 ? 'article' : 'articles'}`);
    });

    it('defaults to three articles and says so when nothing is found', async () => {
      expect((await archiveTool().run({ query: 'water' }, ctx(actorOf(s.users.member)))).sources).toHaveLength(3);
      const none = await archiveTool().run({ query: 'zyxwvut' }, ctx(actorOf(s.users.member)));
      expect(none).toEqual({ content: 'Nothing was found in the offline archives for "zyxwvut".', summary: 'Looked up "zyxwvut" in the archives: nothing found', sources: [] });
    });

    it('grounds a whole question by its key words', async () => {
      const r = await archiveTool().ground!('How does a thermostat work in my house?', ctx(actorOf(s.users.member)));
      expect(r.sources.map((x) => x.title)).toContain('Thermostat');
      expect(r.content).toContain('/read/fixturepedia/A/Thermostat');
    });
  });

  describe('reader_search', () => {
    it("finds the caller's own and the household items, never another member's", async () => {
      const sam = await readerTool().run({ query: 'lasagne' }, ctx(actorOf(s.users.member)));
      expect(sam.sources.map((x) => x.title)).toEqual(['Lasagne recipe from grandma']);
      expect(sam.sources[0]!.url).toMatch(/^\/reader\/[\w-]+$/);
      expect(sam.content).not.toContain('Kim');
      const kims = await readerTool().run({ query: 'lasagne' }, ctx({ kind: 'user', id: kimId, name: 'Kim', role: 'member', sessionId: 'x' }));
      expect(kims.sources.map((x) => x.title)).toEqual(['Kim secret lasagne notes']);
      // an admin sees only their own and the household's too
      const admin = await readerTool().run({ query: 'lasagne recipe' }, ctx(actorOf(s.users.admin)));
      expect(admin.sources.map((x) => x.title)).toEqual(['Household recipe book']);
      expect(admin.summary).toBe('Looked up "lasagne recipe" in the Reader: 1 item');
    });

    it('grounds a whole question by any of its key words', async () => {
      const r = await readerTool().ground!('What was in that recipe I saved?', ctx(actorOf(s.users.member)));
      expect(r.sources.map((x) => x.title).sort()).toEqual(['Household recipe book', 'Lasagne recipe from grandma']);
      const none = await readerTool().run({ query: 'zyxwvut' }, ctx(actorOf(s.users.member)));
      expect(none).toEqual({ content: 'Nothing saved in the Reader matches "zyxwvut".', summary: 'Looked up "zyxwvut" in the Reader: nothing found', sources: [] });
    });
  });

  // last: it stops the archive server
  it('archive_search fails with a sentence while the archive server is stopped', async () => {
    await s.handle.deps.archives.stop();
    await expect(archiveTool().run({ query: 'heater' }, ctx(actorOf(s.users.member)))).rejects.toThrow(/^The offline archives cannot be searched right now\. .*archive server/i);
  });
});
