import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, type TestResponse } from '../harness/client.js';
import { rawRequest, type RawResponse } from '../harness/raw-http.js';
import { MEMBER, startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { ImageGenStore } from '../../server/modules/image-gen/store.js';

const SOME_ID = '00000000-0000-4000-8000-000000000000';
const LOADER = 'window.__hearthEarly={};';
const fill = (p: string) => p.replace(/:[A-Za-z]+/g, SOME_ID);

/** Every error answer has the one shape, {error: {code, message}}. */
function expectErrorShape(status: number, contentType: unknown, text: string, where: string): void {
  expect(String(contentType), where).toContain('application/json');
  const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
  expect(typeof body.error?.code, where).toBe('string');
  expect(body.error!.code as string, where).toMatch(/^[a-z][a-z0-9_]*$/);
  expect(typeof body.error?.message, where).toBe('string');
  expect((body.error!.message as string).length, where).toBeGreaterThan(0);
  expect(status, where).toBeGreaterThanOrEqual(400);
}

describe('guards and HTTP conventions', () => {
  let s: TestServer;
  let temp: { dir: string; remove(): void };
  beforeAll(async () => {
    temp = makeTempDir('hearth-guards-');
    const webDir = path.join(temp.dir, 'web');
    const docsDir = path.join(temp.dir, 'site', 'docs');
    mkdirSync(webDir, { recursive: true });
    mkdirSync(path.join(docsDir, 'img'), { recursive: true });
    // as the build writes it: the start-up loader inline, its settings in a JSON block (renderer/first-paint.ts)
    writeFileSync(path.join(webDir, 'index.html'), `<!doctype html><title>Hearth</title><div id="root">WEBAPP-INDEX</div>\n<script type="application/json" id="hearth-boot">{"entry":"/assets/index.js"}</script>\n<script>${LOADER}</script>`);
    writeFileSync(path.join(docsDir, 'index.md'), '# Welcome to Hearth\n\nSee the [guide](guide.md).\n');
    writeFileSync(path.join(docsDir, 'guide.md'), '# Guide\n\nHow to do things.\n');
    writeFileSync(path.join(docsDir, 'img', 'dot.txt'), 'a file beside the docs');
    // next to (not inside) the docs folder: must never be reachable through /docs
    writeFileSync(path.join(temp.dir, 'site', 'secret.md'), '# TOP SECRET outside docs\n');
    writeFileSync(path.join(temp.dir, 'secret.md'), '# TOP SECRET two levels up\n');
    s = await startTestServer({ seed: 'household', config: { webDir, docsDir } });
  });
  afterAll(async () => {
    await s.close();
    temp.remove();
  });

  describe('route table', () => {
    it('lists the routes of every feature', () => {
      const keys = s.handle.routes.map((r) => `${r.method.toUpperCase()} ${r.path}`);
      expect(keys).toEqual(expect.arrayContaining(['GET /api/auth/me', 'POST /api/admin/users', 'DELETE /api/admin/users/:id', 'PUT /api/setup/state', 'POST /api/chat/chat/stream', 'GET /api/projects']));
      // the home inventory (its identify/ask and lookup routes are listed by their own parts)
      expect(keys).toEqual(
        expect.arrayContaining([
          'GET /api/home/devices',
          'POST /api/home/devices',
          'GET /api/home/devices/:id',
          'PATCH /api/home/devices/:id',
          'DELETE /api/home/devices/:id',
          'GET /api/home/devices/:id/photo',
          'POST /api/home/devices/:id/set-main-photo',
          'GET /api/home/devices/:id/files',
          'POST /api/home/devices/:id/files',
          'GET /api/home/devices/:id/files/:fid',
          'DELETE /api/home/devices/:id/files/:fid',
          'PATCH /api/home/devices/:id/files/:fileId/comment',
          'GET /api/home/devices/:id/manual',
          'GET /api/home/devices/:id/links',
          'POST /api/home/devices/:id/links',
          'DELETE /api/home/devices/:id/links/:linkId',
          'GET /api/home/devices/:id/service',
          'POST /api/home/devices/:id/service',
          'PATCH /api/home/devices/:id/service/:entryId',
          'DELETE /api/home/devices/:id/service/:entryId',
          'GET /api/home/warranties',
          'POST /api/home/devices/:id/identify',
          'POST /api/home/devices/:id/ask',
          'POST /api/home/devices/:id/lookup',
          'POST /api/home/devices/:id/generate-specs',
          'GET /api/home/devices/:id/maintenance',
          'GET /api/home/export',
          'POST /api/home/import',
        ]),
      );
      // image generation's model hub (admin)
      expect(keys).toEqual(
        expect.arrayContaining([
          'POST /api/admin/image-loras/civitai-search',
          'POST /api/admin/image-loras/civitai-import',
          'GET /api/admin/image-loras/hub-key',
          'PUT /api/admin/image-loras/hub-key',
          'DELETE /api/admin/image-loras/hub-key',
        ]),
      );
      // image generation: each member's studio, and the admin's LoRAs and engine
      expect(keys).toEqual(
        expect.arrayContaining([
          'GET /api/image/status',
          'GET /api/image/loras',
          'GET /api/image/history',
          'GET /api/image/building',
          'POST /api/image/edit',
          'POST /api/image/reference-face',
          'GET /api/image/artifacts/:id/stream',
          'GET /api/image/artifacts/:id',
          'POST /api/image/artifacts/:id/cancel',
          'DELETE /api/image/artifacts/:id',
          'GET /api/admin/image-loras',
          'POST /api/admin/image-loras/import-file',
          'POST /api/admin/image-loras/recover-disk',
          'POST /api/admin/image-loras/categories',
          'PATCH /api/admin/image-loras/categories/:id',
          'DELETE /api/admin/image-loras/categories/:id',
          'PUT /api/admin/image-loras/categories/:id/grants/:userId',
          'GET /api/admin/image-loras/members/:userId',
          'GET /api/admin/image-loras/members/:userId/protections',
          'PATCH /api/admin/image-loras/members/:userId/protections',
          'GET /api/admin/image-loras/:id',
          'PATCH /api/admin/image-loras/:id',
          'DELETE /api/admin/image-loras/:id',
          'PUT /api/admin/image-loras/:id/grants/:userId',
          'GET /api/admin/image-engine',
          'PUT /api/admin/image-engine',
          'GET /api/content',
          'GET /api/admin/content/members/:userId',
          'PUT /api/admin/content/members/:userId',
          'PUT /api/admin/content/archives/:sourceId',
          'GET /api/privacy',
          'POST /api/privacy/adult',
          'DELETE /api/privacy/adult',
          'GET /api/chat/memory',
          'POST /api/chat/memory',
          'DELETE /api/chat/memory/:id',
          'GET /api/admin/memory',
          'PUT /api/admin/memory',
          'GET /api/companions',
          'POST /api/companions/:id/favorite',
          'DELETE /api/companions/:id/favorite',
          'GET /api/admin/companions',
          'POST /api/admin/companions',
          'PATCH /api/admin/companions/:id',
          'DELETE /api/admin/companions/:id',
          'PUT /api/admin/companions/:id/grants/:userId',
          'GET /api/admin/image-engine/logs',
          'POST /api/admin/image-engine/retry',
        ]),
      );
      // the media server's connection (its other parts list their own routes)
      expect(keys).toEqual(expect.arrayContaining(['GET /api/mediaserver/status', 'GET /api/mediaserver/config', 'POST /api/mediaserver/config', 'POST /api/mediaserver/auth/pin', 'GET /api/mediaserver/auth/pin/:id', 'POST /api/mediaserver/auth/discover', 'GET /api/mediaserver/me', 'POST /api/mediaserver/me/link', 'DELETE /api/mediaserver/me']));
      // the media server's private libraries: storage locations and provisioning (admin), a member's own sections
      expect(keys).toEqual(
        expect.arrayContaining([
          'GET /api/admin/storage-locations',
          'POST /api/admin/storage-locations',
          'PATCH /api/admin/storage-locations/:id',
          'DELETE /api/admin/storage-locations/:id',
          'POST /api/admin/storage-locations/:id/check',
          'POST /api/mediaserver/admin/provision',
          'GET /api/mediaserver/admin/library-sections',
          'GET /api/mediaserver/me/library-sections',
          'PATCH /api/mediaserver/me/library-sections',
          'GET /api/mediaserver/me/videos',
          'DELETE /api/mediaserver/me/videos/:id',
          'POST /api/mediaserver/me/uploads',
          'PATCH /api/mediaserver/me/uploads/:id',
          'DELETE /api/mediaserver/me/uploads/:id',
        ]),
      );
      // the media server's library
      expect(keys).toEqual(expect.arrayContaining(['GET /api/mediaserver/recent', 'GET /api/mediaserver/ondeck', 'GET /api/mediaserver/hubs', 'GET /api/mediaserver/sessions', 'GET /api/mediaserver/find', 'GET /api/mediaserver/meta/:ratingKey', 'POST /api/mediaserver/meta/:ratingKey/watched', 'POST /api/mediaserver/meta/:ratingKey/progress', 'POST /api/mediaserver/watchlist']));
      expect(keys).toEqual(expect.arrayContaining(['GET /api/mediaserver/img', 'GET /api/mediaserver/stream/:ratingKey']));
      expect(new Set(keys).size).toBe(keys.length);
    });

    it('every route declares what it answers (a JSON schema, an event stream, bytes or 204)', () => {
      // defineRoutes' types require it; this catches a route table assembled some other way
      const undeclared = s.handle.routes.filter((r) => !r.response).map((r) => `${r.method.toUpperCase()} ${r.path}`);
      expect(undeclared).toEqual([]);
      expect(new Set(s.handle.routes.map((r) => r.response))).toEqual(new Set(['json', 'events', 'bytes', 'empty']));
    });

    it('only the spec\'s list of routes is open without a session', () => {
      const open = s.handle.routes.filter((r) => r.access === 'none').map((r) => `${r.method.toUpperCase()} ${r.path}`);
      expect(open.sort()).toEqual(
        [
          'GET /api/auth/profiles',
          // who the caller's own cookie belongs to, or null: the web app's start, without a 401
          'GET /api/auth/session',
          'POST /api/auth/select',
          'POST /api/auth/verify-pin',
          'GET /api/setup/status',
          'POST /api/setup/admin',
          'GET /api/setup/ollama-status',
          'GET /api/system/ready',
          'GET /api/system/boot',
          // archive view: static archive content, unauthenticated by design (spec, Authentication 4)
          'GET /api/archives/view/:sourceId',
          'GET /api/archives/view/:sourceId/*rest',
          // a reader snapshot's files on a signed, expiring token path: the snapshot is served with
          // CSP sandbox (opaque origin), so its asset requests carry no session cookie
          'GET /api/reader/:id/archive-t/:token/*rest',
          // secure connections (issue 31): a phone needs these before it signs in, to trust Hearth
          'GET /api/system/tls',
          'GET /api/tls/ca.crt',
          'GET /api/tls/ca.mobileconfig',
        ].sort(),
      );
    });

    it('every user and admin route answers 401 unauthenticated without a session', async () => {
      const guarded = s.handle.routes.filter((r) => r.access !== 'none');
      expect(guarded.length).toBeGreaterThan(5);
      for (const r of guarded) {
        const res = await s.anon.req(r.method.toUpperCase() as 'GET', fill(r.path), r.method === 'get' ? undefined : {});
        expect(res.status, `${r.method} ${r.path}`).toBe(401);
        expect(res.body.error.code, `${r.method} ${r.path}`).toBe('unauthenticated');
      }
    });

    it('every admin route answers 403 forbidden to a member', async () => {
      const adminOnly = s.handle.routes.filter((r) => r.access === 'admin');
      expect(adminOnly.length).toBeGreaterThan(3);
      for (const r of adminOnly) {
        const res = await s.member.req(r.method.toUpperCase() as 'GET', fill(r.path), r.method === 'get' ? undefined : {});
        expect(res.status, `${r.method} ${r.path}`).toBe(403);
        expect(res.body.error.code, `${r.method} ${r.path}`).toBe('forbidden');
      }
    });

    it('every route of one member\'s picture answers 404 to another member, the admin included', async () => {
      const id = '11111111-1111-4111-8111-111111111111';
      await new ImageGenStore(s.handle.deps.db).insertArtifact({
        id, userId: s.users.member.id, kind: 'generated', pipeline: 'txt2img', state: 'building', stepCurrent: 0, stepTotal: 25, isAdult: false, prompt: 'a kite',
        finalPrompt: null, negativePrompt: null, style: null, params: {}, loras: [], sourceId: null, error: null, outputPath: null, contentType: null,
        width: null, height: null, bytes: null, createdAt: new Date().toISOString(), startedAt: null, finishedAt: null,
      });
      const own = s.handle.routes.filter((r) => r.path.startsWith('/api/image/artifacts/:id'));
      expect(own.length).toBeGreaterThanOrEqual(4);
      for (const r of own) {
        const res = await s.admin.req(r.method.toUpperCase() as 'GET', r.path.replace(':id', id), r.method === 'get' ? undefined : {});
        expect(res.status, `${r.method} ${r.path}`).toBe(404);
        expect(res.body.error.code, `${r.method} ${r.path}`).toBe('not_found');
      }
      expect((await s.member.get(`/api/image/artifacts/${id}`)).status).toBe(200);
    });
  });

  describe('cross-site requests', () => {
    const EVIL = 'https://evil.example';

    it('refuse a state change with a foreign Origin: 403 bad_origin, and nothing happens', async () => {
      const victim = await s.signIn(s.users.member.id, MEMBER.pin);
      const r = await victim.post('/api/auth/logout', {}, { origin: EVIL });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('bad_origin');
      expect((await victim.get('/api/auth/me')).status).toBe(200);

      const del = await s.admin.delete(`/api/admin/users/${s.users.member.id}`, { origin: EVIL });
      expect(del.body.error.code).toBe('bad_origin');
      expect(await s.handle.deps.db('users').where({ id: s.users.member.id }).first()).toBeDefined();
      const patch = await s.admin.patch(`/api/admin/users/${s.users.member.id}`, { role: 'admin' }, { origin: EVIL });
      expect(patch.body.error.code).toBe('bad_origin');
      const put = await s.admin.put('/api/setup/state', { step: 'x' }, { origin: EVIL });
      expect(put.body.error.code).toBe('bad_origin');
    });

    it('refuse a foreign Origin even without a cookie (login and setup CSRF)', async () => {
      const pin = await s.anon.post('/api/auth/verify-pin', { userId: s.users.member.id, pin: MEMBER.pin }, { origin: EVIL });
      expect(pin.status).toBe(403);
      expect(pin.body.error.code).toBe('bad_origin');
      expect(pin.headers['set-cookie']).toBeUndefined();
      const setup = await s.anon.post('/api/setup/admin', { name: 'Mallory', pin: '1234' }, { origin: EVIL });
      expect(setup.status).toBe(403);
      expect(setup.body.error.code).toBe('bad_origin');
    });

    it.each([
      ['another port on the same host', (url: string) => url.replace(/:(\d+)$/, (_m, p: string) => `:${Number(p) + 1}`)],
      ['https instead of http', (url: string) => url.replace('http:', 'https:')],
      ['a sandboxed page (null)', () => 'null'],
      ['localhost instead of 127.0.0.1', (url: string) => url.replace('127.0.0.1', 'localhost')],
    ])('treat %s as foreign', async (_label, make) => {
      const r = await s.anon.post('/api/auth/select', { userId: s.users.member.id }, { origin: make(s.url) });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('bad_origin');
    });

    it('let same-origin requests and requests without Origin through', async () => {
      expect((await s.anon.post('/api/auth/select', { userId: s.users.member.id })).status).toBe(200); // own Origin
      expect((await s.anon.post('/api/auth/select', { userId: s.users.member.id }, { origin: null })).status).toBe(200);
      const sameSite = await s.anon.post('/api/auth/select', { userId: s.users.member.id }, { origin: null, headers: { 'sec-fetch-site': 'same-origin' } });
      expect(sameSite.status).toBe(200);
    });

    it('refuse Sec-Fetch-Site: cross-site when there is no Origin', async () => {
      const r = await s.anon.post('/api/auth/select', { userId: s.users.member.id }, { origin: null, headers: { 'sec-fetch-site': 'cross-site' } });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('bad_origin');
    });

    it('let reads through whatever their Origin (they change nothing)', async () => {
      const r = await s.member.get('/api/auth/me', { headers: { origin: EVIL } });
      expect(r.status).toBe(200);
    });
  });

  describe('DNS rebinding: a public name that resolves to this computer', () => {
    // The attacker's page is same-origin with its own name: Origin matches Host, SameSite cookies flow.
    const rebound = (host: string) => {
      const port = new URL(s.url).port;
      return { host: `${host}:${port}`, origin: `http://${host}:${port}` };
    };
    const send = (host: string, method: string, p: string, opts: { body?: unknown; cookie?: string } = {}) =>
      rawRequest(s.url, {
        method,
        path: p,
        headers: { ...rebound(host), ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(opts.cookie ? { cookie: opts.cookie } : {}) },
        body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      });

    // another computer's .local name and the router's names are not on Hearth's certificate either (issue 31)
    it.each(['attacker.example', 'hearth.attacker.example', '192.168.1.20.nip.io', 'other-computer.local', 'hearth.lan', 'hearth.home.arpa'])('every /api route answers 403 bad_host through %s, and nothing happens', async (host) => {
      const before = await s.member.get('/api/notifications/unread-count');
      const checks: Array<[string, string, { body?: unknown; cookie?: string }]> = [
        ['GET', '/api/auth/profiles', {}],
        ['POST', '/api/auth/select', { body: { userId: s.users.member.id } }],
        ['POST', '/api/auth/verify-pin', { body: { userId: s.users.member.id, pin: MEMBER.pin } }],
        ['GET', '/api/auth/me', { cookie: s.member.cookie! }],
        ['POST', '/api/notifications', { body: { title: 'rebound', body: 'x', type: 'system' }, cookie: s.admin.cookie! }],
        ['PUT', '/api/setup/state', { body: { step: 'rebound' }, cookie: s.admin.cookie! }],
        ['GET', '/api/reader/export/json', { cookie: s.member.cookie! }],
        ['GET', '/api/system/ready', {}],
        ['GET', '/api/archives/view/wikipedia/A/Main_Page', {}],
        ['GET', '/api/no-such-route', {}],
      ];
      for (const [method, p, opts] of checks) {
        const r = await send(host, method, p, opts);
        expect(r.status, `${method} ${p}`).toBe(403);
        expect(r.json().error.code, `${method} ${p}`).toBe('bad_host');
        expect(r.json().error.message, `${method} ${p}`).toMatch(/Open it at http:\/\/\S+/);
        expect(r.headers['set-cookie'], `${method} ${p}`).toBeUndefined();
      }
      expect((await s.member.get('/api/notifications/unread-count')).body).toEqual(before.body);
    });

    it('the web app and the docs answer a page saying which address to open', async () => {
      for (const p of ['/', '/index.html', '/settings/users', '/docs/', '/docs/guide', '/assets/x.js']) {
        const r = await send('attacker.example', 'GET', p);
        expect(r.status, p).toBe(403);
        expect(String(r.headers['content-type']), p).toContain('text/html');
        expect(r.text, p).toContain('Open Hearth at its own address');
        expect(r.text, p).toMatch(/<a href="http:\/\/[^"]+:\d+\/">/);
        expect(r.text, p).not.toContain('WEBAPP-INDEX');
        expect(r.text, p).not.toContain('Welcome to Hearth');
      }
    });

    it('the names on the certificate in use, and IP addresses, still reach everything', async () => {
      for (const host of ['127.0.0.1', 'localhost', 'my-computer', 'my-computer.local', 'MY-COMPUTER.local.', '192.168.1.20', '[::1]']) {
        const profiles = await send(host, 'GET', '/api/auth/profiles');
        expect(profiles.status, host).toBe(200);
        const pin = await send(host, 'POST', '/api/auth/verify-pin', { body: { userId: s.users.member.id, pin: MEMBER.pin } });
        expect(pin.status, host).toBe(200);
        expect((await send(host, 'GET', '/')).text, host).toContain('WEBAPP-INDEX');
      }
    });
  });

  describe('HTML responses', () => {
    /** CSP with a frame-ancestors that lets no other site frame it, and X-Frame-Options to match. */
    const expectFrameProtected = (r: RawResponse, where: string) => {
      expect(String(r.headers['content-type']), where).toContain('text/html');
      const csp = String(r.headers['content-security-policy'] ?? '');
      expect(csp, where).toMatch(/default-src /);
      expect(csp, where).toMatch(/frame-ancestors '(none|self)'/);
      expect(String(r.headers['x-frame-options'] ?? ''), where).toMatch(/^(DENY|SAMEORIGIN)$/);
      expect(r.headers['x-content-type-options'], where).toBe('nosniff');
    };

    it('every HTML page of the app, the docs and their error pages carries a CSP and frame protection', async () => {
      const port = new URL(s.url).port;
      const pages: Array<[string, { method?: string; host?: string }?]> = [
        ['/'],
        ['/index.html'],
        ['/settings/users'],
        ['/read/wikipedia'],
        ['/docs/'],
        ['/docs/guide'],
        ['/docs/missing-page'],
        ['/docs/%E0%A4%A'],
        ['/%c0%ae'],
        ['/', { method: 'POST' }],
        ['/docs/guide', { method: 'DELETE' }],
        ['/', { host: 'attacker.example' }],
        ['/docs/', { host: 'attacker.example' }],
        ['/api/archives/view/nothing-here/A/x'],
        ['/api/archives/view/wikipedia/%c0%ae'],
      ];
      for (const [p, o = {}] of pages) {
        const r = await rawRequest(s.url, { method: o.method, path: p, headers: o.host ? { host: `${o.host}:${port}` } : undefined });
        const where = `${o.method ?? 'GET'} ${p}${o.host ? ` as ${o.host}` : ''} (${r.status})`;
        expectFrameProtected(r, where);
        // nothing but the archive view may be framed, even by Hearth itself
        if (!p.startsWith('/api/archives/view/')) {
          expect(String(r.headers['content-security-policy']), where).toContain("frame-ancestors 'none'");
          expect(r.headers['x-frame-options'], where).toBe('DENY');
        }
      }
    });

    it('the web app page is the same page, with the same policy, by any of its names', async () => {
      const root = await rawRequest(s.url, { path: '/' });
      const named = await rawRequest(s.url, { path: '/index.html' });
      expect(named.status).toBe(200);
      expect(named.text).toBe(root.text);
      expect(named.headers['content-security-policy']).toBe(root.headers['content-security-policy']);
      expect(String(root.headers['content-security-policy'])).toContain("script-src 'self'");
    });

    // The build inlines one start-up loader in index.html (renderer/first-paint.ts); the policy lets
    // exactly that script run, by its hash, and no other inline script (no 'unsafe-inline').
    it("allows the web app's inline start-up loader by its hash, and no other inline script", async () => {
      const root = await rawRequest(s.url, { path: '/reader' });
      const scriptSrc = String(root.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith('script-src '));
      const hash = createHash('sha256').update(LOADER).digest('base64');
      expect(scriptSrc).toBe(`script-src 'self' 'wasm-unsafe-eval' 'sha256-${hash}'`);
    });
  });

  describe('unknown API paths', () => {
    it.each(['GET', 'POST', 'PUT', 'DELETE'] as const)('%s answers 404 no_route as JSON', async (method) => {
      for (const p of ['/api/nope', '/api/auth/nope/deeper', '/api', '/api/']) {
        const r = await s.admin.req(method, p, method === 'GET' || method === 'DELETE' ? undefined : {});
        expect(r.status, `${method} ${p}`).toBe(404);
        expect(r.body.error.code, `${method} ${p}`).toBe('no_route');
        expect(typeof r.body.error.message).toBe('string');
      }
    });

    it('answer 404 no_route to anonymous callers too, never the web app', async () => {
      const r = await s.anon.get('/api/not-a-route', { headers: { accept: 'text/html' } });
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('no_route');
      expect(r.text).not.toContain('WEBAPP-INDEX');
    });
  });

  describe('bodies', () => {
    it('malformed JSON is 400 invalid_request', async () => {
      for (const raw of ['{"userId":', '{userId: "x"}', "{'userId':'x'}", '', '\u0000']) {
        const r = await s.anon.post('/api/auth/select', undefined, { raw });
        expect(r.status, JSON.stringify(raw)).toBe(400);
        expect(r.body.error.code).toBe('invalid_request');
      }
    });

    it('wrong types are 400 invalid_request with details [{path, message}]', async () => {
      const r = await s.anon.post('/api/auth/verify-pin', { userId: 42, pin: ['1', '2'] });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
      expect(r.body.error.details).toEqual(
        expect.arrayContaining([
          { path: 'userId', message: expect.any(String) },
          { path: 'pin', message: expect.any(String) },
        ]),
      );
    });

    it('a body over 1 MB is 413 payload_too_large, with or without a session', async () => {
      const big = { userId: 'x'.repeat(1024 * 1024 + 10) };
      const anon = await s.anon.post('/api/auth/select', big);
      expect(anon.status).toBe(413);
      expect(anon.body.error.code).toBe('payload_too_large');
      const admin = await s.admin.post('/api/admin/users', { name: 'Big', pin: '1234', avatar: 'x'.repeat(1024 * 1024 + 10) });
      expect(admin.status).toBe(413);
      expect(admin.body.error.code).toBe('payload_too_large');
      // just under the limit is parsed (and then refused by the schema, not the size)
      const under = await s.anon.post('/api/auth/select', { userId: 'x'.repeat(1000 * 1000) });
      expect(under.status).toBe(400);
      expect(under.body.error.code).toBe('invalid_request');
    });
  });

  describe('fuzz', () => {
    it('never answers 500 and always answers errors as {error: {code, message}}', async () => {
      const admin = s.admin;
      const member = s.member;
      const anon = s.anon;
      const memberId = s.users.member.id;
      const weirdJson: unknown[] = [
        null, [], [1, 2, 3], 'a string', 123, true, {}, { userId: null }, { userId: {} }, { userId: [] }, { userId: 'x'.repeat(100_000) },
        { userId: '💥🔥\u202e\u200b' }, { userId: '../../etc/passwd' }, { userId: "' OR 1=1 --" }, { userId: '%E0%A4%A' },
        { __proto__: { role: 'admin' } }, JSON.parse('{"__proto__": {"role": "admin"}, "constructor": {"prototype": {"x": 1}}}'),
        { userId: memberId, pin: '🔥🔥🔥🔥' }, { userId: memberId, pin: 'x'.repeat(100_000) }, { userId: memberId, pin: null }, { userId: memberId, pin: 1234 },
      ];
      const userBodies: unknown[] = [
        ...weirdJson,
        { name: 'Zoë 🦊', pin: '1234' }, { name: 'שלום', pin: '4321' }, { name: '\u200b', pin: '1234' }, { name: '\u0000', pin: '1234' },
        { name: '🦊'.repeat(30), pin: '1234' }, { name: 123, pin: '1234' }, { name: 'Ok', pin: 1234 }, { name: 'Ok', pin: '1234', role: 'root' },
        { name: 'Ok', pin: '1234', role: ['admin'] }, { name: { first: 'a' }, pin: '1234' }, { name: 'Ok', pin: '1234', avatar: 'x'.repeat(5000) },
      ];
      const results: Array<{ where: string; status: number; contentType: unknown; text: string }> = [];
      const record = (where: string, r: TestResponse | RawResponse) => results.push({ where, status: r.status, contentType: r.headers['content-type'], text: r.text });

      for (const body of weirdJson) {
        record(`select ${JSON.stringify(body)?.slice(0, 60)}`, await anon.post('/api/auth/select', undefined, { raw: JSON.stringify(body) }));
        record(`verify-pin ${JSON.stringify(body)?.slice(0, 60)}`, await anon.post('/api/auth/verify-pin', undefined, { raw: JSON.stringify(body) }));
        record(`setup/state ${JSON.stringify(body)?.slice(0, 60)}`, await admin.put('/api/setup/state', undefined, { raw: JSON.stringify(body) }));
      }
      for (const body of userBodies) {
        record(`create ${JSON.stringify(body)?.slice(0, 60)}`, await admin.post('/api/admin/users', undefined, { raw: JSON.stringify(body) }));
        record(`patch ${JSON.stringify(body)?.slice(0, 60)}`, await admin.patch(`/api/admin/users/${memberId}`, undefined, { raw: JSON.stringify(body) }));
      }
      // deep nesting, odd bytes, odd content types
      const rawBodies: Array<[string, Record<string, string>]> = [
        ['['.repeat(100_000), {}],
        ['{"a":'.repeat(50_000), {}],
        [Buffer.from([0xff, 0xfe, 0xfd, 0x7b]).toString('latin1'), {}],
        ['userId=x&pin=1234', { 'content-type': 'application/x-www-form-urlencoded' }],
        ['userId=x', { 'content-type': 'text/plain' }],
        ['--b\r\nContent-Disposition: form-data; name="userId"\r\n\r\nx\r\n--b--', { 'content-type': 'multipart/form-data; boundary=b' }],
        ['{"userId":"x"}', { 'content-type': 'application/json; charset=utf-16' }],
        ['{"userId":"x"}', { 'content-type': 'application/json; charset=klingon' }],
        ['{"userId":"x"}', { 'content-type': 'application/json', 'content-encoding': 'gzip' }],
        ['{"userId":"x"}', { 'content-type': 'application/json', 'content-encoding': 'zstd-from-mars' }],
        ['{"userId":"x"}', { 'content-type': '' }],
        ['{"userId":"x"}', { 'content-type': '*/*; ;;' }],
      ];
      for (const [raw, headers] of rawBodies) {
        record(`raw select ${raw.slice(0, 20)} ${JSON.stringify(headers)}`, await anon.post('/api/auth/select', undefined, { raw, headers: { 'content-type': 'application/json', ...headers } }));
        record(`raw create ${raw.slice(0, 20)} ${JSON.stringify(headers)}`, await admin.post('/api/admin/users', undefined, { raw, headers: { 'content-type': 'application/json', ...headers } }));
      }
      // paths the URL parser would refuse or rewrite: sent byte for byte
      const paths = [
        '/api/admin/users/%E0%A4%A', '/api/admin/users/%', '/api/admin/users/%ZZ', '/api/admin/users/%00', '/api/admin/users/..%2f..%2fauth%2fme',
        `/api/admin/users/${'%F0%9F%A6%8A'.repeat(50)}`, `/api/admin/users/${'x'.repeat(5000)}`, '/api/%E0%A4%A', '/api/auth/%', '/api/auth/me%00',
        '/api/auth/profiles?a[b][c]=1&__proto__[x]=1&a=%E0%A4%A', '/api/auth/profiles?%', '/api//auth//profiles', '/api/./auth/../auth/me', '/api/auth/me/',
      ];
      const cookie = admin.cookie!;
      for (const p of paths) {
        for (const method of ['GET', 'PATCH', 'DELETE', 'POST']) {
          const headers: Record<string, string> = { cookie, origin: s.url };
          let body: string | undefined;
          if (method === 'PATCH' || method === 'POST') {
            headers['content-type'] = 'application/json';
            body = '{"name":"Fuzz"}';
          }
          record(`${method} ${p.slice(0, 80)}`, await rawRequest(s.url, { method, path: p, headers, body }));
        }
      }
      // cookies that are not ours
      for (const c of ['session=%E0%A4%A', `session=${'x'.repeat(5000)}`, 'session=a; session=b', 'session', '=; ;;', 'session="unterminated']) {
        record(`cookie ${c.slice(0, 30)}`, await new TestClient(s.url, c).get('/api/auth/me'));
      }
      // methods nobody registered
      for (const method of ['OPTIONS', 'PROPFIND', 'TRACE']) {
        record(`${method} /api/auth/me`, await rawRequest(s.url, { method, path: '/api/auth/me', headers: { cookie } }));
      }
      // a member poking at admin routes with junk
      record('member junk patch', await member.patch(`/api/admin/users/${'%E0%A4%A'}`, undefined, { raw: '[' }));

      expect(results.length).toBeGreaterThan(150);
      for (const r of results) {
        expect(r.status, `${r.where}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
        if (r.status >= 400) expectErrorShape(r.status, r.contentType, r.text, r.where);
      }
      // and nothing reached the error log as a server failure
      expect(s.logger.lines.filter((l) => l.msg === 'request failed')).toEqual([]);
      expect((await s.admin.get('/api/auth/me')).status).toBe(200);
    });
  });

  describe('the web app and the docs', () => {
    it('non-API paths fall back to index.html', async () => {
      for (const p of ['/', '/settings/users', '/chat/123?x=1', '/deep/nested/client/route']) {
        const r = await s.anon.get(p);
        expect(r.status, p).toBe(200);
        expect(String(r.headers['content-type'])).toContain('text/html');
        expect(r.text).toContain('WEBAPP-INDEX');
      }
    });

    it('/api paths never fall back to index.html', async () => {
      for (const p of ['/api/nothing', '/api/auth/me', '/api/admin/users']) {
        const r = await s.anon.get(p, { headers: { accept: 'text/html' } });
        expect(r.status).toBeGreaterThanOrEqual(400);
        expect(r.text).not.toContain('WEBAPP-INDEX');
        expect(String(r.headers['content-type'])).toContain('application/json');
      }
    });

    it('serves the docs as HTML pages', async () => {
      const index = await s.anon.get('/docs/');
      expect(index.status).toBe(200);
      expect(String(index.headers['content-type'])).toContain('text/html');
      expect(index.text).toContain('Welcome to Hearth');
      expect(index.text).toContain('href="guide"'); // .md links become page links
      const guide = await s.anon.get('/docs/guide');
      expect(guide.status).toBe(200);
      expect(guide.text).toContain('How to do things.');
      expect((await s.anon.get('/docs/img/dot.txt')).text).toBe('a file beside the docs');
      expect((await s.anon.get('/docs/missing-page')).status).toBe(404);
    });

    it.each([
      '/docs/..%2fsecret.md',
      '/docs/..%2fsecret',
      '/docs/..%2f..%2fsecret.md',
      '/docs/..%2f..%2f..%2f..%2f..%2f..%2fetc/passwd',
      '/docs/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/docs/%2e%2e%2fsecret.md',
      '/docs/%2e%2e/secret.md',
      '/docs/../secret.md',
      '/docs/..%5csecret.md',
      '/docs/..%5c..%5csecret.md',
      '/docs/..\\secret.md',
      '/docs/img/..%2f..%2fsecret.md',
      '/docs/%2fetc%2fpasswd',
      '/docs//etc/passwd',
      '/docs/C:%5cWindows%5cwin.ini',
      '/docs/guide.md%00.txt',
      '/docs/%00',
      '/docs/%E0%A4%A',
      '/docs/..%252fsecret.md',
    ])('refuses traversal %s with 404', async (p) => {
      const r = await rawRequest(s.url, { path: p });
      expect(r.status).toBe(404);
      expect(r.text).not.toContain('TOP SECRET');
      expect(r.text).not.toContain('root:');
    });

    it.each(['/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd', '/%c0%ae', '/settings/%E0%A4%A', '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2fsecret.md', '/a/%00'])(
      'answers a bad escape or traversal on the web app %s with a 404 page, not index.html',
      async (p) => {
        const r = await rawRequest(s.url, { path: p });
        expect(r.status).toBe(404);
        expect(String(r.headers['content-type'])).toContain('text/html');
        expect(r.text).not.toContain('WEBAPP-INDEX');
        expect(r.text).not.toContain('TOP SECRET');
      },
    );

    it.each(['/api/archives/view/wikipedia/%c0%ae%c0%ae/%c0%ae%c0%ae/catalog/v2/entries', '/api/archives/view/%c0%ae', '/api/archives/view/wikipedia/A/%E0%A4%A'])(
      'answers a bad escape on the archive view %s with its 404 page',
      async (p) => {
        const r = await rawRequest(s.url, { path: p });
        expect(r.status).toBe(404);
        expect(String(r.headers['content-type'])).toContain('text/html');
        expect(r.text).toContain('Page not found');
      },
    );
  });
});
