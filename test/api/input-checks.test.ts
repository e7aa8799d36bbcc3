// Inputs no schema should have to think about: text that is not well-formed Unicode (lone UTF-16
// surrogates) and JSON nested deeper than the server handles. Both are 400 invalid_request naming
// the field, on every route, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../server/http/validate.js';
import { rawRequest } from '../harness/raw-http.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const SOME_ID = '00000000-0000-4000-8000-000000000000';

/** `{"a":{"a":…{"a":1}}}` nested `depth` objects deep. */
function nestedObject(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

describe('input checks', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
  });
  afterAll(() => s.close());

  describe('lone UTF-16 surrogates', () => {
    it('a member name with a lone surrogate is 400 invalid_request naming the field, every time', async () => {
      for (let i = 0; i < 2; i++) {
        // JSON.stringify keeps a lone surrogate as the escape \udaaa, as an attacker would send it
        const r = await s.admin.post('/api/admin/users', { name: '\udaaa', pin: '1234' });
        expect(r.status, `attempt ${i + 1}`).toBe(400);
        expect(r.body.error.code).toBe('invalid_request');
        expect(r.body.error.details).toEqual([{ path: 'name', message: expect.stringContaining('not valid Unicode') }]);
        expect(r.body.error.message).toMatch(/^The request is not valid \(name\)/);
      }
      expect(s.logger.lines.filter((l) => l.msg === 'request failed')).toEqual([]);
    });

    it('two names differing only in a lone surrogate cannot both be created (nor renamed into)', async () => {
      expect((await s.admin.post('/api/admin/users', { name: 'Z\udc00', pin: '1234' })).status).toBe(400);
      expect((await s.admin.post('/api/admin/users', { name: 'Z\udc01', pin: '1234' })).status).toBe(400);
      const rename = await s.admin.patch(`/api/admin/users/${s.users.member.id}`, { name: 'Sam\ud800' });
      expect(rename.status).toBe(400);
      const names = (await s.admin.get('/api/admin/users')).body.users.map((u: { name: string }) => u.name);
      expect(names.some((n: string) => n.startsWith('Z') || n.includes('\ufffd'))).toBe(false);
    });

    it('surrogate pairs (emoji) are fine', async () => {
      const r = await s.admin.post('/api/admin/users', { name: 'Fox 🦊', pin: '1234' });
      expect(r.status).toBe(201);
      expect(r.body.user.name).toBe('Fox 🦊');
    });

    it('is checked deep inside free-form JSON, in keys as well as values', async () => {
      const inValue = await s.admin.put('/api/setup/state', { step: 2, choices: { list: ['ok', 'bad\udfff'] } });
      expect(inValue.status).toBe(400);
      expect(inValue.body.error.details).toEqual([{ path: 'choices.list.1', message: expect.any(String) }]);
      const inKey = await s.admin.put('/api/setup/state', { ['k\ud83d']: 1 });
      expect(inKey.status).toBe(400);
      expect(inKey.body.error.code).toBe('invalid_request');
      const payload = await s.admin.post('/api/notifications', { type: 'system', payload: { title: '\udaaa' } });
      expect(payload.status).toBe(400);
      expect(payload.body.error.details[0].path).toBe('payload.title');
    });

    it('query strings and route parameters with broken escapes are 400, not 500', async () => {
      // %ED%A0%80 is a surrogate encoded as UTF-8, which is not valid UTF-8
      for (const path of ['/api/reader?q=%ED%A0%80', `/api/admin/users/%ED%A0%80`, '/api/reader?q=%uD800']) {
        const method = path.startsWith('/api/admin/users/') ? 'PATCH' : 'GET';
        const r = await rawRequest(s.url, {
          method,
          path,
          headers: { cookie: s.admin.cookie!, origin: s.url, 'content-type': 'application/json' },
          body: method === 'PATCH' ? '{"name":"X"}' : undefined,
        });
        expect(r.status, path).toBeLessThan(500);
      }
    });
  });

  describe('deeply nested JSON', () => {
    it('5,000 levels on POST /api/notifications and PUT /api/setup/state is 400 invalid_request', async () => {
      const deep = nestedObject(5000);
      const notification = await s.admin.post('/api/notifications', undefined, { raw: `{"type":"system","payload":${deep}}` });
      expect(notification.status).toBe(400);
      expect(notification.body.error.code).toBe('invalid_request');
      expect(notification.body.error.message).toContain(`${MAX_JSON_DEPTH} levels`);
      // arrays: two bytes a level, under the wizard state's 16 KB limit
      const state = await s.admin.put('/api/setup/state', undefined, { raw: `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}` });
      expect(state.status).toBe(400);
      expect(state.body.error.code).toBe('invalid_request');
      expect(s.logger.lines.filter((l) => l.msg === 'request failed')).toEqual([]);
    });

    it(`${MAX_JSON_DEPTH} levels are accepted, one more is not`, async () => {
      // the body itself is the first level
      expect((await s.admin.put('/api/setup/state', undefined, { raw: nestedObject(MAX_JSON_DEPTH) })).status).toBe(200);
      expect((await s.admin.put('/api/setup/state', undefined, { raw: nestedObject(MAX_JSON_DEPTH + 1) })).status).toBe(400);
    });

    it('no route answers 500 to a 5,000-deep body', async () => {
      const bodies = [nestedObject(5000), '['.repeat(5000) + ']'.repeat(5000)];
      const failures: string[] = [];
      for (const route of s.handle.routes.filter((r) => r.method !== 'get')) {
        const path = route.path.replace(/:[A-Za-z]+/g, SOME_ID);
        for (const body of bodies) {
          const r = await rawRequest(s.url, {
            method: route.method.toUpperCase(),
            path,
            headers: { cookie: s.admin.cookie!, origin: s.url, 'content-type': 'application/json' },
            body,
          });
          if (r.status >= 500) failures.push(`${route.method} ${route.path}: ${r.status} ${r.text.slice(0, 120)}`);
        }
      }
      expect(failures).toEqual([]);
      expect(s.logger.lines.filter((l) => l.msg === 'request failed')).toEqual([]);
    });
  });
});
