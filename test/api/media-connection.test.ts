// The media server's connection over HTTP against the fake Plex (issue 19): GET /status, the shared
// connection an admin sets (GET/POST /config: typed in and checked against the server before it is
// saved, or picked from the servers a PIN-signed account reaches), each member's link through the
// PIN flow (POST /auth/pin, GET /auth/pin/:id, POST /me/link, GET /me, DELETE /me), a revoked token
// and a down server said in sentences, who may ask (401, 403, another member's PIN 404), and no
// Plex token in any answer or log line (the scan runs last).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeMediaServer, type FakeMediaServer } from '../fakes/media-server.js';
import { createTokenScan } from '../harness/media-token-scan.js';
import { CLOSED_URL, startTestServer, type TestServer } from '../harness/start-server.js';

describe('media server connection (/api/mediaserver)', () => {
  let fake: FakeMediaServer;
  let s: TestServer;
  const scan = createTokenScan();

  beforeAll(async () => {
    fake = await startFakeMediaServer();
    s = await startTestServer({
      seed: 'household',
      config: { fetchAllowOrigins: [fake.url], mediaAccountUrl: fake.accountUrl, mediaDiscoverUrl: fake.discoverUrl, mediaLinkPageUrl: `${fake.url}/auth` },
      // every status look asks again; discovery's unreachable candidates give up quickly
      overrides: { tuning: { mediaHealthTtlMs: 0, mediaProbeMs: 1_000 } },
    });
    scan.watch(s);
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const connectManually = () => s.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: fake.url, token: fake.tokens.admin });
  const disconnect = () => s.admin.post('/api/mediaserver/config', { mode: 'disconnect' });

  describe('who may ask', () => {
    it('answers 401 without a session and 403 to a member on the admin routes', async () => {
      expect((await s.anon.get('/api/mediaserver/status')).status).toBe(401);
      expect((await s.anon.get('/api/mediaserver/config')).status).toBe(401);
      expect((await s.member.get('/api/mediaserver/config')).status).toBe(403);
      const r = await s.member.post('/api/mediaserver/config', { mode: 'manual', serverUrl: fake.url, token: fake.tokens.admin });
      expect(r.status).toBe(403);
      expect(fake.log).toEqual([]);
    });

    it('refuses a malformed body with a 400 and its field', async () => {
      const r = await s.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: fake.url });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
      expect((await s.admin.post('/api/mediaserver/config', { mode: 'sideways' })).status).toBe(400);
    });
  });

  describe('not connected', () => {
    it('GET /status says so, with what to do for an admin and for a member, and no error', async () => {
      const member = await s.member.get('/api/mediaserver/status');
      expect(member.status).toBe(200);
      expect(member.body).toMatchObject({ configured: false, reachable: false, serverProblem: null, serverName: null, linked: false, linkRevoked: false, access: 'unknown', isAdmin: false });
      expect(member.body.notes.join(' ')).toMatch(/admin has not connected/);
      const admin = await s.admin.get('/api/mediaserver/status');
      expect(admin.body).toMatchObject({ configured: false, isAdmin: true });
      expect(admin.body.notes.join(' ')).toMatch(/Connect the household’s media server/);
    });

    it('GET /config answers that nothing is set', async () => {
      const r = await s.admin.get('/api/mediaserver/config');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ configured: false, tokenSet: false, serverUrl: null, health: null });
    });
  });

  describe('manual connection', () => {
    it('checks the address and token against the server before saving: a wrong token is a sentence, nothing saved', async () => {
      const r = await s.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: fake.url, token: 'not-a-real-token-123' });
      expect(r.status).toBe(422);
      expect(r.body.error).toEqual({ code: 'media_token_refused', message: expect.stringMatching(/did not accept that token/) });
      expect((await s.admin.get('/api/mediaserver/config')).body.configured).toBe(false);
      // it asked the server, the token in the header only
      expect(fake.log.some((e) => e.path === '/identity')).toBe(true);
      expect(fake.log.filter((e) => e.token).every((e) => e.tokenVia === 'header')).toBe(true);
    });

    it('an address nothing answers at, one that is not Plex, and a refused one are each told plainly', async () => {
      const closed = await s.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: CLOSED_URL, token: fake.tokens.admin });
      expect(closed.status).toBe(422);
      expect(closed.body.error.code).toBe('media_server_unreachable');
      expect(closed.body.error.message).toMatch(/could not reach a media server/);

      await fake.setMode('garbage', { role: 'server' });
      const garbage = await connectManually();
      expect(garbage.status).toBe(422);
      expect(garbage.body.error).toEqual({ code: 'media_not_plex', message: expect.stringMatching(/not a Plex Media Server/) });
      await fake.setMode('ok', { role: 'server' });

      const metadata = await s.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: 'http://169.254.169.254', token: fake.tokens.admin });
      expect(metadata.status).toBe(422);
      expect(metadata.body.error.code).toBe('media_address_refused');
      const ftp = await s.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: 'ftp://nas.local/plex', token: fake.tokens.admin });
      expect(ftp.status).toBe(422);
      expect(ftp.body.error.code).toBe('media_address_invalid');
      const creds = await s.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: 'http://me:secret@192.168.1.20:32400', token: fake.tokens.admin });
      expect(creds.body.error.code).toBe('media_address_invalid');
      expect((await s.admin.get('/api/mediaserver/config')).body.configured).toBe(false);
    });

    it('saves a working address and token, answering whether a token is set but never the token', async () => {
      const r = await connectManually();
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ configured: true, serverUrl: fake.url, serverName: 'Living Room Plex', machineIdentifier: fake.machineIdentifier, source: 'manual', tokenSet: true, health: 'ok', allowMediaDeletion: true });
      expect(r.text).not.toContain(fake.tokens.admin);
      const paths = fake.log.map((e) => e.path);
      expect(paths).toEqual(expect.arrayContaining(['/identity', '/', '/library/sections']));
      const status = await s.member.get('/api/mediaserver/status');
      expect(status.body).toMatchObject({ configured: true, reachable: true, serverProblem: null, serverName: 'Living Room Plex', linked: false });
      // rule 7: feeds answer nothing until the member links, and the notes say so (not "watching works without it")
      expect(status.body.notes.join(' ')).toMatch(/Media shows the household’s films and shows once you link your own Plex account: until then it stays empty for you/);
      expect(status.body.notes.join(' ')).toMatch(/managed users\) cannot link, so Media stays empty for them/);
      expect(status.body.notes.join(' ')).not.toMatch(/without a Plex account|still works/);
      expect(Object.values((await s.member.get('/api/mediaserver/recent')).body as object).flat().filter((v) => v)).toEqual([]);
      await disconnect();
    });

    it('a down server and a revoked server token show as a problem in a sentence, and recover', async () => {
      await connectManually();
      await fake.setMode('down', { role: 'server' });
      const down = await s.member.get('/api/mediaserver/status');
      expect(down.status).toBe(200);
      expect(down.body).toMatchObject({ configured: true, reachable: false });
      expect(down.body.serverProblem).toMatch(/not answering right now/);
      expect((await s.admin.get('/api/mediaserver/config')).body.health).toBe('unreachable');
      await fake.setMode('ok', { role: 'server' });
      expect((await s.member.get('/api/mediaserver/status')).body).toMatchObject({ reachable: true, serverProblem: null });

      fake.revoke(fake.tokens.admin);
      const revoked = await s.member.get('/api/mediaserver/status');
      expect(revoked.body.reachable).toBe(false);
      expect(revoked.body.serverProblem).toMatch(/no longer accepts Hearth’s sign-in. An admin needs to connect it again/);
      expect((await s.admin.get('/api/mediaserver/config')).body.health).toBe('unauthorized');
      await disconnect();
    });

    it('disconnect forgets the connection', async () => {
      await connectManually();
      const r = await disconnect();
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ configured: false, tokenSet: false });
      expect((await s.member.get('/api/mediaserver/status')).body.configured).toBe(false);
    });
  });

  describe('linking a member’s own Plex account (PIN flow)', () => {
    const startPin = async (client = s.member) => {
      const r = await client.post('/api/mediaserver/auth/pin');
      expect(r.status).toBe(201);
      return r.body as { id: number; code: string; linkUrl: string; codePageUrl: string; codePage: string; status: string; expiresAt: string };
    };

    it('a PIN belongs to who asked: shown with its link page, polled waiting then approved, linked, and the token stays on the server', async () => {
      await connectManually();
      const pin = await startPin();
      expect(pin).toMatchObject({ status: 'waiting', code: expect.stringMatching(/^[A-Z0-9]{4}$/) });
      expect(pin.linkUrl.startsWith(`${fake.url}/auth#?`)).toBe(true);
      expect(new URLSearchParams(pin.linkUrl.split('#?')[1]).get('code')).toBe(pin.code);
      // on another device the person types the short page and the 4-character code, not that address
      expect(pin).toMatchObject({ codePageUrl: 'https://plex.tv/link', codePage: 'plex.tv/link' });
      expect(fake.log.filter((e) => e.path === '/api/v2/pins' && e.method === 'POST').every((e) => !new URLSearchParams(e.query).has('strong'))).toBe(true);
      expect((await s.member.get(`/api/mediaserver/auth/pin/${pin.id}`)).body.status).toBe('waiting');
      // another member's PIN is not there for anyone else, for polling or linking
      expect((await s.admin.get(`/api/mediaserver/auth/pin/${pin.id}`)).status).toBe(404);
      expect((await s.admin.post('/api/mediaserver/me/link', { pinId: pin.id })).status).toBe(404);
      const early = await s.member.post('/api/mediaserver/me/link', { pinId: pin.id });
      expect(early.status).toBe(409);
      expect(early.body.error.code).toBe('pin_waiting');

      fake.approvePin(pin.id, 'alice');
      const approved = await s.member.get(`/api/mediaserver/auth/pin/${pin.id}`);
      expect(approved.body.status).toBe('approved');
      const linked = await s.member.post('/api/mediaserver/me/link', { pinId: pin.id });
      expect(linked.status).toBe(200);
      expect(linked.body).toMatchObject({ linked: true, username: 'alice', tokenState: 'valid', serverAccess: true, thumbUrl: null });
      expect((await s.member.get('/api/mediaserver/me')).body).toEqual(linked.body);
      expect((await s.member.get('/api/mediaserver/status')).body).toMatchObject({ linked: true, linkRevoked: false, access: 'yes', notes: [] });
      // the PIN is used up
      expect((await s.member.get(`/api/mediaserver/auth/pin/${pin.id}`)).status).toBe(404);
      // the other parts get the member's own token through the port, never through HTTP
      const userId = s.users.member.id;
      expect(await s.handle.deps.mediaConnection.memberToken(userId)).toBe(fake.tokens.alice);
      expect(await s.handle.deps.mediaConnection.memberServerToken(userId)).toBe(fake.tokens.alice);
      // the admin still has no link of their own
      expect((await s.admin.get('/api/mediaserver/me')).body.linked).toBe(false);

      // one client identifier, made once and kept in app settings, on every plex.tv call
      const id = await s.handle.deps.settings.get<string>('media.clientIdentifier');
      const accountCalls = fake.log.filter((e) => e.role === 'account');
      expect(accountCalls.length).toBeGreaterThan(2);
      expect(new Set(accountCalls.map((e) => e.clientId))).toEqual(new Set([id]));

      const unlinked = await s.member.delete('/api/mediaserver/me');
      expect(unlinked.body).toMatchObject({ linked: false, username: null, tokenState: null });
      expect((await s.member.get('/api/mediaserver/status')).body).toMatchObject({ linked: false, access: 'unknown' });
      expect(await s.handle.deps.mediaConnection.memberToken(userId)).toBeNull();
      await disconnect();
    });

    it('a plex.tv account without access to the household’s server is told so plainly', async () => {
      await connectManually();
      const pin = await startPin(s.admin);
      fake.approvePin(pin.id, 'mallory');
      const linked = await s.admin.post('/api/mediaserver/me/link', { pinId: pin.id });
      expect(linked.body).toMatchObject({ linked: true, username: 'mallory', serverAccess: false });
      const status = await s.admin.get('/api/mediaserver/status');
      expect(status.body).toMatchObject({ linked: true, access: 'no' });
      expect(status.body.notes.join(' ')).toMatch(/Your Plex account \(mallory\) does not have access to the household’s media server/);
      expect(await s.handle.deps.mediaConnection.memberToken(s.users.admin.id)).toBe(fake.tokens.mallory);
      expect(await s.handle.deps.mediaConnection.memberServerToken(s.users.admin.id)).toBeNull();
      await s.admin.delete('/api/mediaserver/me');
      await disconnect();
    });

    it('an expired PIN says so and cannot be linked', async () => {
      const pin = await startPin();
      fake.expirePin(pin.id);
      expect((await s.member.get(`/api/mediaserver/auth/pin/${pin.id}`)).body.status).toBe('expired');
      const r = await s.member.post('/api/mediaserver/me/link', { pinId: pin.id });
      expect(r.status).toBe(409);
      expect(r.body.error).toEqual({ code: 'pin_expired', message: expect.stringMatching(/expired. Start again/) });
      expect((await s.member.get('/api/mediaserver/me')).body.linked).toBe(false);
      expect((await s.member.get('/api/mediaserver/auth/pin/abc')).status).toBe(400);
    });

    it('plex.tv being down is a sentence, not a code', async () => {
      await fake.setMode('down', { role: 'account' });
      const r = await s.member.post('/api/mediaserver/auth/pin');
      expect(r.status).toBe(503);
      expect(r.body.error).toEqual({ code: 'media_account_unavailable', message: expect.stringMatching(/could not be reached/) });
    });

    it('a revoked member token marks the link revoked, and the page is told to link again', async () => {
      await connectManually();
      const pin = await startPin();
      fake.approvePin(pin.id, 'alice');
      await s.member.post('/api/mediaserver/me/link', { pinId: pin.id });
      fake.revoke(fake.tokens.alice);
      const status = await s.member.get('/api/mediaserver/status');
      expect(status.body).toMatchObject({ linked: false, linkRevoked: true });
      expect(status.body.notes.join(' ')).toMatch(/Link it again/);
      expect((await s.member.get('/api/mediaserver/me')).body).toMatchObject({ linked: false, tokenState: 'revoked', username: 'alice' });
      expect(await s.handle.deps.mediaConnection.memberToken(s.users.member.id)).toBeNull();

      // linking again clears it; another part reporting a 401 on the member's token marks it again
      fake.reset();
      const again = await startPin();
      fake.approvePin(again.id, 'alice');
      expect((await s.member.post('/api/mediaserver/me/link', { pinId: again.id })).body.tokenState).toBe('valid');
      await s.handle.deps.mediaConnection.reportMemberUnauthorized(s.users.member.id);
      expect((await s.member.get('/api/mediaserver/status')).body.linkRevoked).toBe(true);
      await s.member.delete('/api/mediaserver/me');
      await disconnect();
    });
  });

  describe('connecting by signing in with Plex (discover)', () => {
    it('the admin’s approved PIN lists the account’s servers, local connections first, each probed; the pick is saved with the token from plex.tv', async () => {
      const pin = (await s.admin.post('/api/mediaserver/auth/pin')).body as { id: number };
      const waiting = await s.admin.post('/api/mediaserver/auth/discover', { pinId: pin.id });
      expect(waiting.status).toBe(409);
      fake.approvePin(pin.id, 'admin');
      const r = await s.admin.post('/api/mediaserver/auth/discover', { pinId: pin.id });
      expect(r.status).toBe(200);
      expect(r.body.account).toBe('admin');
      expect(r.body.servers).toHaveLength(1);
      const server = r.body.servers[0];
      expect(server).toMatchObject({ name: 'Living Room Plex', machineIdentifier: fake.machineIdentifier, owned: true });
      const conns = server.connections as Array<{ uri: string; local: boolean; relay: boolean; secure: boolean; reachable: boolean }>;
      expect(conns.map((c) => c.local)).toEqual([...conns.map((c) => c.local)].sort((a, b) => Number(b) - Number(a)));
      expect(conns.at(-1)!.relay).toBe(true);
      expect(conns.filter((c) => c.reachable).map((c) => c.uri)).toEqual([fake.url]);
      expect(r.text).not.toContain(fake.tokens.admin);

      const unknown = await s.admin.post('/api/mediaserver/config', { mode: 'discover', pinId: pin.id, machineIdentifier: fake.machineIdentifier, uri: 'http://10.0.0.9:32400' });
      expect(unknown.status).toBe(422);
      expect(unknown.body.error.code).toBe('media_connection_unknown');
      const saved = await s.admin.post('/api/mediaserver/config', { mode: 'discover', pinId: pin.id, machineIdentifier: fake.machineIdentifier, uri: fake.url });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ configured: true, source: 'discover', accountName: 'admin', serverUrl: fake.url, serverName: 'Living Room Plex', tokenSet: true });
      expect((await s.member.get('/api/mediaserver/status')).body).toMatchObject({ configured: true, reachable: true });
      const shared = await s.handle.deps.mediaConnection.shared();
      expect(shared).toMatchObject({ token: fake.tokens.admin, machineIdentifier: fake.machineIdentifier, name: 'Living Room Plex' });
      // the admin PIN is used up
      expect((await s.admin.get(`/api/mediaserver/auth/pin/${pin.id}`)).status).toBe(404);
      await disconnect();
    });

    it('uses the admin’s own linked account without a PIN; refuses without either, and to a member', async () => {
      const none = await s.admin.post('/api/mediaserver/auth/discover', {});
      expect(none.status).toBe(409);
      expect(none.body.error.message).toMatch(/Sign in with Plex first/);
      expect((await s.member.post('/api/mediaserver/auth/discover', {})).status).toBe(403);
      expect((await s.anon.post('/api/mediaserver/auth/discover', {})).status).toBe(401);
      const pin = (await s.admin.post('/api/mediaserver/auth/pin')).body as { id: number };
      fake.approvePin(pin.id, 'admin');
      await s.admin.post('/api/mediaserver/me/link', { pinId: pin.id });
      const r = await s.admin.post('/api/mediaserver/auth/discover', {});
      expect(r.status).toBe(200);
      expect(r.body.servers.map((x: { name: string }) => x.name)).toEqual(['Living Room Plex']);
      // a member's PIN is theirs alone, even for an admin's discovery
      const memberPin = (await s.member.post('/api/mediaserver/auth/pin')).body as { id: number };
      fake.approvePin(memberPin.id, 'alice');
      expect((await s.admin.post('/api/mediaserver/auth/discover', { pinId: memberPin.id })).status).toBe(404);
      await s.admin.delete('/api/mediaserver/me');
    });
  });

  it('the token scan itself finds a token in an answer’s body or headers and in a log line', () => {
    const probe = createTokenScan();
    probe.record('a leaky body', { status: 200, headers: {}, text: `{"thumb":"/x?X-Plex-Token=${fake.tokens.bob}"}` });
    probe.record('a leaky header', { status: 302, headers: { location: `http://nas/?X-Plex-Token=${fake.tokens.alice}` } });
    probe.record('a clean answer', { status: 200, headers: {}, body: { ok: true } });
    expect(probe.leaks(fake.allTokens())).toEqual(['a leaky body (body): token Bobb…', 'a leaky header (headers): token Alic…']);
    // the server's own log lines are searched too
    s.handle.deps.logger.info({ note: `leak ${fake.tokens.mallory}` }, 'a line a careless change might write');
    const withLog = createTokenScan();
    withLog.watch(s);
    expect(withLog.leaks([fake.tokens.mallory])).toEqual([expect.stringMatching(/^log line \d+ \(a line a careless change might write\): token Mall…$/)]);
    const at = s.logger.lines.findIndex((l) => l.msg === 'a line a careless change might write');
    s.logger.lines.splice(at, 1);
  });

  it('no Plex token reached an answer or a log line', () => {
    scan.expectNoTokens(fake.allTokens());
  });
});
