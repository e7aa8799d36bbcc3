// One Plex outage, one answer (issue 30, docs/architecture.md "Adapter failures"): the household's
// media server down, refusing Hearth's token or sending garbage gets the same status, code and
// sentence from the proxies (/img, /stream) as from the library (/recent, /meta), because both go
// through the one mapper (adapter-errors/media-server.ts). A real Hearth against the fake Plex
// (test/fakes/media-server.ts, written from reference/plex.md).
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeMediaServer, type FakeMediaServer } from '../fakes/media-server.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const API = '/api/mediaserver';
const THUMB = '/library/metadata/101/thumb/1735693200';
const PROXY = [`/img?${new URLSearchParams({ path: THUMB, w: '64', h: '96' }).toString()}`, '/stream/101'];
const LIBRARY = ['/recent', '/meta/101'];

describe('a media server outage is one answer from the proxies and the library', () => {
  let fake: FakeMediaServer;
  let s: TestServer;

  beforeAll(async () => {
    fake = await startFakeMediaServer();
    s = await startTestServer({
      seed: 'household',
      config: { fetchAllowOrigins: [fake.url], mediaAccountUrl: fake.accountUrl, mediaDiscoverUrl: fake.discoverUrl, mediaLinkPageUrl: `${fake.url}/auth` },
      overrides: { tuning: { mediaHealthTtlMs: 0, mediaProbeMs: 1_000 } },
    });
    expect((await s.admin.post(`${API}/config`, { mode: 'manual', serverUrl: fake.url, token: fake.tokens.admin })).status).toBe(200);
    // the library answers a linked member (rule 7: an unlinked one gets empty feeds, never an error)
    const pin = await s.member.post(`${API}/auth/pin`);
    fake.approvePin(pin.body.id, 'alice');
    expect((await s.member.post(`${API}/me/link`, { pinId: pin.body.id })).status).toBe(200);
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    fake.reset();
    await fake.setMode('ok');
  });

  /** Status and error of one path, asked by the linked member. */
  async function answer(path: string): Promise<{ status: number; code: string; message: string }> {
    const res = await request(`${s.url}${API}${path}`, { headers: { cookie: s.member.cookie! } });
    const text = await res.body.text();
    const error = (JSON.parse(text) as { error: { code: string; message: string } }).error;
    return { status: res.statusCode, code: error.code, message: error.message };
  }

  async function allAnswers(): Promise<Record<string, { status: number; code: string; message: string }>> {
    const out: Record<string, { status: number; code: string; message: string }> = {};
    for (const path of [...PROXY, ...LIBRARY]) out[path] = await answer(path);
    return out;
  }

  function expectOneAnswer(answers: Record<string, { status: number; code: string; message: string }>, status: number, code: string) {
    for (const [path, a] of Object.entries(answers)) {
      expect({ path, status: a.status, code: a.code }).toEqual({ path, status, code });
      expect(a.message).toBe(Object.values(answers)[0]!.message);
      expect(a.message).not.toMatch(/https?:|127\.0\.0\.1|ECONN|undici|\b[45]\d\d\b/);
    }
  }

  it('the server down: 503 media_server_down everywhere', async () => {
    await fake.setMode('down', { role: 'server' });
    expectOneAnswer(await allAnswers(), 503, 'media_server_down');
  });

  it('the shared token refused: 503 media_server_refused everywhere', async () => {
    fake.revoke(fake.tokens.admin);
    expectOneAnswer(await allAnswers(), 503, 'media_server_refused');
  });

  it('garbage from the server: 502 media_server_error everywhere', async () => {
    await fake.setMode('garbage', { role: 'server' });
    expectOneAnswer(await allAnswers(), 502, 'media_server_error');
  });
});
