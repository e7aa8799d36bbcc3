import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('harness', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
  });
  afterAll(() => s.close());

  it('signs in the seeded household', async () => {
    const me = await s.member.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ name: 'Sam', role: 'member' });
  });
});
