// POST /api/auth/pin: a member changes their own PIN (issue 29 item 25). Signed in only; the
// current PIN is checked like a sign-in and a wrong one counts toward the same lock (5 wrong PINs
// for the profile on this device, whether at sign-in or here); bad input is a 400 with a sentence.
// A weak new PIN (1234, 0000, a repeated or counting pattern) is saved, and the answer says so,
// as do the admin's member edit and the first admin's setup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../harness/client.js';
import { REAL_PIN_COST, startTestServer, type TestServer } from '../harness/start-server.js';

describe('POST /api/auth/pin', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', config: REAL_PIN_COST });
  });
  afterAll(() => s.close());

  /** A new member, signed in on two browsers. */
  async function newMember(name: string, pin: string) {
    const created = await s.admin.post('/api/admin/users', { name, pin });
    expect(created.status).toBe(201);
    const id = created.body.user.id as string;
    return { id, phone: await s.signIn(id, pin), laptop: await s.signIn(id, pin) };
  }

  it('answers 401 unauthenticated without a session', async () => {
    const r = await s.anon.post('/api/auth/pin', { currentPin: '5678', newPin: '8642' });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('unauthenticated');
  });

  it('changes the PIN: the new one signs in, the old one no longer does, and the other browsers are signed out', async () => {
    const { id, phone, laptop } = await newMember('Changer', '2468');
    const r = await phone.post('/api/auth/pin', { currentPin: '2468', newPin: '8031' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ ok: true, weakPin: false });
    expect((await s.anon.post('/api/auth/verify-pin', { userId: id, pin: '2468' })).status).toBe(401);
    expect((await s.anon.post('/api/auth/verify-pin', { userId: id, pin: '8031' })).status).toBe(200);
    expect((await phone.get('/api/auth/me')).status).toBe(200);
    expect((await laptop.get('/api/auth/me')).status).toBe(401);
  });

  it('a wrong current PIN is 401 invalid_pin, changes nothing, and counts toward the sign-in lock of this device', async () => {
    const { id, phone } = await newMember('Guessed', '3579');
    for (let i = 0; i < 3; i++) {
      const r = await phone.post('/api/auth/pin', { currentPin: '0000', newPin: '8031' });
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('invalid_pin');
      expect(r.body.error.message).toBe(`That is not your current PIN. ${4 - i} ${4 - i === 1 ? 'try' : 'tries'} left on this device before a 5-minute lock.`);
    }
    // the fourth wrong PIN at sign-in, from the same device, continues the same count
    const signIn = await s.anon.post('/api/auth/verify-pin', { userId: id, pin: '0000' });
    expect(signIn.status).toBe(401);
    expect(signIn.body.error.message).toMatch(/1 try left on this device/);
    const fifth = await phone.post('/api/auth/pin', { currentPin: '1111', newPin: '8031' });
    expect(fifth.status).toBe(429);
    expect(fifth.body.error.code).toBe('locked_out');
    expect(fifth.headers['retry-after']).toBe('300');
    // locked: the right current PIN is refused too, and so is signing in from this device
    expect((await phone.post('/api/auth/pin', { currentPin: '3579', newPin: '8031' })).status).toBe(429);
    expect((await s.anon.post('/api/auth/verify-pin', { userId: id, pin: '3579' })).status).toBe(429);
    // nothing changed
    expect((await s.admin.post(`/api/admin/users/${id}/unlock`)).status).toBe(200);
    expect((await s.anon.post('/api/auth/verify-pin', { userId: id, pin: '3579' })).status).toBe(200);
  });

  it('parallel wrong current PINs cannot get past the lock', async () => {
    const { phone } = await newMember('Parallel', '4826');
    const results = await Promise.all(Array.from({ length: 8 }, () => phone.post('/api/auth/pin', { currentPin: '0000', newPin: '8031' })));
    expect(results.map((r) => r.status).sort()).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
  });

  it('answers 400 with a sentence for bad input, without counting it as a wrong PIN', async () => {
    const { phone } = await newMember('Careful', '5791');
    const bad: unknown[] = [
      {},
      { currentPin: '5791' },
      { currentPin: '5791', newPin: '12' },
      { currentPin: '5791', newPin: '123456789' },
      { currentPin: '5791', newPin: 'abcd' },
      { currentPin: 5791, newPin: '8031' },
      { currentPin: '5791', newPin: 8031 },
      { currentPin: 'x'.repeat(100), newPin: '8031' },
    ];
    for (const body of bad) {
      const r = await phone.post('/api/auth/pin', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
      expect(typeof r.body.error.message).toBe('string');
    }
    expect((await phone.post('/api/auth/pin', undefined, { raw: '{"currentPin":' })).status).toBe(400);
    // none of them counted: five tries are still left
    const wrong = await phone.post('/api/auth/pin', { currentPin: '0000', newPin: '8031' });
    expect(wrong.body.error.message).toMatch(/4 tries left/);
  });

  it('saves a weak PIN and says it is easy to guess', async () => {
    const { id, phone } = await newMember('Simple', '6284');
    const r = await phone.post('/api/auth/pin', { currentPin: '6284', newPin: '1111' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, weakPin: true });
    expect((await s.anon.post('/api/auth/verify-pin', { userId: id, pin: '1111' })).status).toBe(200);
  });

  it('the admin’s member edit and new members say whether the PIN set is weak', async () => {
    const created = await s.admin.post('/api/admin/users', { name: 'Weak Start', pin: '0000' });
    expect(created.status).toBe(201);
    expect(created.body.weakPin).toBe(true);
    const id = created.body.user.id;
    const strong = await s.admin.patch(`/api/admin/users/${id}`, { pin: '8031' });
    expect(strong.status).toBe(200);
    expect(strong.body.weakPin).toBe(false);
    const weak = await s.admin.patch(`/api/admin/users/${id}`, { pin: '4321' });
    expect(weak.body.weakPin).toBe(true);
    // a change without a PIN says nothing about it
    const renamed = await s.admin.patch(`/api/admin/users/${id}`, { name: 'Weak Start 2' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).not.toHaveProperty('weakPin');
  });
});

describe('POST /api/setup/admin', () => {
  it('creates the first admin with a weak PIN and says so', async () => {
    const s = await startTestServer({ seed: 'empty' });
    try {
      const r = await new TestClient(s.url).post('/api/setup/admin', { name: 'First', pin: '1234' });
      expect(r.status).toBe(201);
      expect(r.body.weakPin).toBe(true);
    } finally {
      await s.close();
    }
  });
});
