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
      expect(status.body.notes.join(' ')).toMatch(/without a Plex account/);
      expect(status.body.notes.join(' ')).toMatch(/managed users/);
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

  it('no Plex token reached an answer or a log line', () => {
    scan.expectNoTokens(fake.allTokens());
  });
});
