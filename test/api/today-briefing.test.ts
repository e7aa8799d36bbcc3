// The morning briefing's summary in words (GET /api/briefing) against the Ollama fake: when chat is
// ready, the household chat model writes 3 spoken-style sentences from the cached facts only (the
// facts are the whole prompt), kept per member per morning (asked once; another member gets their
// own; the next morning a new one). With the model down, slow, or answering garbage, the briefing
// still answers its facts, with no summary and a sentence saying why. Chat not ready: no request.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { acceptSummary } from '../../server/modules/today/briefing-summary.js';
import { BriefingResponse } from '../../server/modules/today/schema.js';
import { createManualClock } from '../../server/platform/clock.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { startFakeOpenMeteo, type FakeOpenMeteo } from '../fakes/open-meteo.js';
import { startFakeWikimedia, type FakeWikimedia } from '../fakes/wikimedia.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import type { TestClient } from '../harness/client.js';

const SUMMARY = 'Good morning: it is mainly clear in Harbourton at 14 degrees. On this day in 1931 a ferry line opened. That is all for today.';

describe('Today: the briefing’s summary by the household chat model', () => {
  let s: TestServer;
  let meteo: FakeOpenMeteo;
  let wiki: FakeWikimedia;
  let ollama: FakeModelRuntime;
  let kim: TestClient;
  const clock = createManualClock(new Date('2026-05-20T07:00:00'));
  const chats = () => ollama.requests.filter((r) => r.path === '/api/chat');
  const briefing = async (c: TestClient) => {
    const r = await c.get('/api/briefing');
    expect(r.status, r.text).toBe(200);
    return BriefingResponse.parse(r.body);
  };

  beforeAll(async () => {
    [meteo, wiki, ollama] = await Promise.all([startFakeOpenMeteo(), startFakeWikimedia(), startFakeModelRuntime({ chunkDelayMs: 1 })]);
    s = await startTestServer({
      seed: 'household',
      config: { openMeteoUrl: meteo.url, openMeteoGeoUrl: meteo.url, wikipediaUrl: `${wiki.url}/{lang}`, fetchAllowOrigins: [meteo.origin, wiki.origin] },
      overrides: { clock, modelRuntime: createOllamaClient({ baseUrl: ollama.url }), tuning: { briefingSummaryMs: 1500, runtimeLookTtlMs: 0 } },
    });
    const m = await s.admin.post('/api/admin/users', { name: 'Kim', pin: '2468', role: 'member' });
    kim = await s.signIn(m.body.user.id, '2468');
    // the facts: a forecast and this day, fetched once and cached
    await s.admin.put('/api/admin/briefing/location', { name: 'Harbourton', lat: 48.14, lon: 11.58 });
    expect((await s.member.get('/api/weather')).status).toBe(200);
    expect((await s.member.get('/api/on-this-day')).status).toBe(200);
  });
  afterAll(async () => {
    await s?.close();
    await Promise.all([meteo?.close(), wiki?.close(), ollama?.close()]);
  });
  beforeEach(async () => {
    await ollama.setMode('ok');
    ollama.chatReply = SUMMARY;
    ollama.requests.length = 0;
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    await s.handle.deps.db('briefing_summaries').delete();
    // a new morning each test: neither a kept summary nor a remembered failure carries over
    clock.advance(24 * 60 * 60_000);
  });

  it('writes the summary from the facts only, once per member per morning', async () => {
    meteo.requests.length = 0;
    wiki.requests.length = 0;
    const b = await briefing(s.member);
    expect(b.summary).toBe(SUMMARY);
    expect(b.summaryNote).toBeNull();
    expect(b.sentences.length).toBeGreaterThan(0);
    const asked = chats();
    expect(asked).toHaveLength(1);
    const req = asked[0]!.body as FakeChatRequest;
    expect(req.model).toBe(CHAT_MODEL.name);
    expect(req.messages[0]).toMatchObject({ role: 'system', content: expect.stringMatching(/Use only the facts you are given/) });
    // the facts given are the briefing's sentences, and nothing about the member
    const facts = req.messages[1]!.content!;
    for (const sentence of b.sentences) expect(facts).toContain(sentence);
    expect(facts).not.toMatch(/Sam|Alex|Kim/);
    // the briefing itself asks no outside source
    expect(meteo.requests).toHaveLength(0);
    expect(wiki.requests).toHaveLength(0);

    // the same morning: the kept summary, no new request; another member: their own
    expect((await briefing(s.member)).summary).toBe(SUMMARY);
    expect(chats()).toHaveLength(1);
    ollama.chatReply = 'Kim, it is mainly clear at 14 degrees. A ferry line opened on this day in 1931. Have a good day.';
    expect((await briefing(kim)).summary).toMatch(/^Kim, it is mainly clear/);
    expect(chats()).toHaveLength(2);
    expect(await s.handle.deps.db('briefing_summaries').count({ n: '*' }).first()).toMatchObject({ n: 2 });

    // the next morning, a new one (the old row goes)
    clock.advance(24 * 60 * 60_000);
    ollama.chatReply = SUMMARY;
    expect((await briefing(s.member)).summary).toBe(SUMMARY);
    expect(chats()).toHaveLength(3);
  });

  it('keeps only the first 3 sentences of a longer answer', async () => {
    ollama.chatReply = 'One. Two! Three? Four.';
    expect((await briefing(s.member)).summary).toBe('One. Two! Three?');
  });

  it('with the model down: the facts, no summary, and why', async () => {
    await ollama.setMode('down');
    const b = await briefing(s.member);
    expect(b.summary).toBeNull();
    expect(b.summaryNote).toMatch(/^No summary in words: /);
    expect(b.weather).toMatchObject({ location: 'Harbourton' });
    expect(b.sentences[0]).toMatch(/^In Harbourton it is mainly clear/);
    expect(await s.handle.deps.db('briefing_summaries').count({ n: '*' }).first()).toMatchObject({ n: 0 });
  });

  it('with a slow model: the facts within the time budget, no summary; the model is not asked again at once', async () => {
    await ollama.setMode('slow', { slowMs: 5000, only: '/api/chat' });
    const b = await briefing(s.member);
    expect(b.summary).toBeNull();
    expect(b.summaryNote).toBe('No summary in words: the chat model could not be reached or did not answer in time.');
    expect(b.sentences.length).toBeGreaterThan(0);
    await ollama.setMode('ok');
    expect((await briefing(s.member)).summary).toBeNull();
    expect(chats()).toHaveLength(1);
    // ten minutes on, it is asked again
    clock.advance(11 * 60_000);
    expect((await briefing(s.member)).summary).toBe(SUMMARY);
  });

  it('with garbage from the model (a broken stream, or a reply that is not 3 plain sentences): no summary', async () => {
    await ollama.setMode('garbage', { only: '/api/chat' });
    expect(await briefing(s.member)).toMatchObject({ summary: null, summaryNote: expect.stringMatching(/could not be reached/) });
    await ollama.setMode('ok');
    ollama.chatReply = '<html><body>{"summary": "x"}</body></html>';
    expect(await briefing(kim)).toMatchObject({ summary: null, summaryNote: 'No summary in words: the chat model’s answer was not a short summary.' });
    for (const bad of ['', '   ', '- a list\n- of points', '**Weather**: fine.', '{"a":1}']) expect(acceptSummary(bad), bad).toBeNull();
  });

  it('when chat is not ready (the chosen model is gone from Ollama): no request, and says so', async () => {
    const models = ollama.models;
    ollama.models = models.filter((m) => m.name !== CHAT_MODEL.name);
    try {
      const b = await briefing(s.member);
      expect(b.summary).toBeNull();
      expect(b.summaryNote).toBe(`No summary in words: Ollama does not have the chat model ${CHAT_MODEL.name} any more.`);
      expect(chats()).toHaveLength(0);
    } finally {
      ollama.models = models;
    }
  });

  it('fetches tomorrow’s On this day once from 23:00, so the next morning’s briefing has it without the internet', async () => {
    const otd = s.handle.deps.onThisDay;
    clock.set(new Date('2026-06-10T22:30:00'));
    wiki.requests.length = 0;
    expect(await otd.prefetchTomorrow()).toBeNull();
    expect(wiki.requests).toHaveLength(0);
    clock.set(new Date('2026-06-10T23:05:00'));
    expect(await otd.prefetchTomorrow()).toMatchObject({ kind: 'fetched' });
    expect(wiki.requests.map((r) => r.path)).toEqual(['/en/api/rest_v1/feed/onthisday/all/06/11']);
    // kept: the next looks before midnight ask nothing
    clock.set(new Date('2026-06-10T23:50:00'));
    expect(await otd.prefetchTomorrow()).toBeNull();
    expect(wiki.requests).toHaveLength(1);

    await wiki.down();
    try {
      clock.set(new Date('2026-06-11T07:00:00'));
      const b = await briefing(s.member);
      expect(b.date).toBe('06-11');
      expect(b.onThisDay[0]!.text).toMatch(/\(06\/11\)/);
    } finally {
      await wiki.up();
    }
    expect(wiki.requests).toHaveLength(1);
  });
});
