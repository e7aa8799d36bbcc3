// Issue 32, the safety envelope's first part: each member's content dials (GET /api/content, the
// admin's GET/PUT /api/admin/content/members/:userId: an area tighter than the level, never looser,
// 422), the defaults (teen; the first admin adult), the image protections read from and written to
// the dials (their old routes answer the same), their migration from image_member_protections, and
// the PIN-gated adult state of a session (/api/privacy: 30 minutes, adults only, a wrong PIN counts
// toward the sign-in lock of the device, DELETE and signing out end it).
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../server/db/connection.js';
import { defaultMigrationsDir, runMigrations } from '../../server/db/migrate.js';
import { createManualClock } from '../../server/platform/clock.js';
import { TestClient } from '../harness/client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const NOBODY = '00000000-0000-4000-8000-000000000000';
const MINUTE = 60_000;

describe('content dials and the adult state', () => {
  const clock = createManualClock(new Date('2026-12-03T08:00:00Z'));
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', overrides: { clock } });
  });
  afterAll(() => s.close());

  async function newMember(name: string, pin: string) {
    const r = await s.admin.post('/api/admin/users', { name, pin });
    expect(r.status, r.text).toBe(201);
    const id = r.body.user.id as string;
    return { id, client: await s.signIn(id, pin) };
  }
  const dialsUrl = (id: string) => `/api/admin/content/members/${id}`;
  const protectionsUrl = (id: string) => `/api/admin/image-loras/members/${id}/protections`;

  it('signed in only; the admin routes are for admins; an unknown member is 404', async () => {
    for (const url of ['/api/content', '/api/privacy', dialsUrl(s.users.member.id)]) expect((await s.anon.get(url)).status, url).toBe(401);
    expect((await s.anon.post('/api/privacy/adult', { pin: '5678' })).status).toBe(401);
    expect((await s.anon.delete('/api/privacy/adult')).status).toBe(401);
    expect((await s.member.get(dialsUrl(s.users.member.id))).status).toBe(403);
    expect((await s.member.put(dialsUrl(s.users.member.id), { level: 'adult' })).status).toBe(403);
    expect((await s.admin.get(dialsUrl(NOBODY))).status).toBe(404);
    expect((await s.admin.put(dialsUrl(NOBODY), { level: 'child' })).status).toBe(404);
  });

  it('a new member is at teen everywhere; the first admin is adult', async () => {
    expect((await s.member.get('/api/content')).body).toEqual({ level: 'teen', chat: 'teen', images: 'teen', media: 'teen', archives: 'teen', adultState: false });
    expect((await s.admin.get('/api/content')).body).toMatchObject({ level: 'adult', images: 'adult', media: 'adult' });
    const fresh = await newMember('Fresh', '2468');
    expect((await s.admin.get(dialsUrl(fresh.id))).body).toEqual({ userId: fresh.id, level: 'teen', chat: null, images: null, media: null, archives: null });
    // a second admin is a member like any other: teen until an admin says otherwise
    const second = await s.admin.post('/api/admin/users', { name: 'Second Admin', pin: '8642', role: 'admin' });
    expect((await s.admin.get(dialsUrl(second.body.user.id))).body.level).toBe('teen');
  });

  it('an admin sets a level and tighter areas; a looser area is 422 with a sentence and writes nothing', async () => {
    const kid = await newMember('Kid', '1357');
    const set = await s.admin.put(dialsUrl(kid.id), { level: 'teen', images: 'child' });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ userId: kid.id, level: 'teen', chat: null, images: 'child', media: null, archives: null });
    expect((await kid.client.get('/api/content')).body).toEqual({ level: 'teen', chat: 'teen', images: 'child', media: 'teen', archives: 'teen', adultState: false });

    const looser = await s.admin.put(dialsUrl(kid.id), { level: 'child', media: 'teen' });
    expect(looser.status).toBe(422);
    expect(looser.body.error.code).toBe('area_looser_than_level');
    expect(looser.body.error.message).toBe("Media cannot be looser than the member's level (child). Choose child or tighter, or raise the level.");
    expect((await s.admin.get(dialsUrl(kid.id))).body).toMatchObject({ level: 'teen', images: 'child', media: null });

    // PUT replaces: an area left out follows the level again
    expect((await s.admin.put(dialsUrl(kid.id), { level: 'child' })).body).toMatchObject({ level: 'child', images: null });
    expect((await kid.client.get('/api/content')).body).toMatchObject({ level: 'child', images: 'child', chat: 'child' });

    for (const bad of [{ level: 'kid' }, {}, { level: 'teen', music: 'child' }, { level: 'teen', chat: 'grown-up' }]) {
      const r = await s.admin.put(dialsUrl(kid.id), bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(typeof r.body.error.message).toBe('string');
    }
    expect((await s.admin.get(`/api/admin/content/members/not-an-id`)).status).toBe(400);
  });

  it('nobody changes their own dials (another admin can)', async () => {
    const own = await s.admin.put(dialsUrl(s.users.admin.id), { level: 'child' });
    expect(own.status).toBe(403);
    expect(own.body.error.code).toBe('own_content');
    expect((await s.admin.get('/api/content')).body.level).toBe('adult');
  });

  it('the image protections read from the dials, and their old route writes to them', async () => {
    const pat = await newMember('Pat', '9753');
    // teen: the safety prefix on, adult LoRAs blocked (the old defaults)
    expect((await s.admin.get(protectionsUrl(pat.id))).body).toEqual({ uncensoredImages: false, blockAdultLoras: true });
    await s.admin.put(dialsUrl(pat.id), { level: 'adult' });
    expect((await s.admin.get(protectionsUrl(pat.id))).body).toEqual({ uncensoredImages: true, blockAdultLoras: false });
    await s.admin.put(dialsUrl(pat.id), { level: 'adult', images: 'teen' });
    expect((await s.admin.get(protectionsUrl(pat.id))).body).toEqual({ uncensoredImages: false, blockAdultLoras: false });
    expect((await s.admin.get(`/api/admin/image-loras/members/${pat.id}`)).body.protections).toEqual({ uncensoredImages: false, blockAdultLoras: false });

    // the old route: blocking adult LoRAs takes an adult down to teen; unblocking raises to adult, pictures kept family-safe
    expect((await s.admin.patch(protectionsUrl(pat.id), { blockAdultLoras: true })).body).toEqual({ uncensoredImages: false, blockAdultLoras: true });
    expect((await s.admin.get(dialsUrl(pat.id))).body).toMatchObject({ level: 'teen', images: 'teen' });
    expect((await s.admin.patch(protectionsUrl(pat.id), { blockAdultLoras: false })).body).toEqual({ uncensoredImages: false, blockAdultLoras: false });
    expect((await s.admin.get(dialsUrl(pat.id))).body).toMatchObject({ level: 'adult', images: 'teen' });
    expect((await s.admin.patch(protectionsUrl(pat.id), { uncensoredImages: true })).body).toEqual({ uncensoredImages: true, blockAdultLoras: false });
    expect((await s.admin.get(dialsUrl(pat.id))).body).toMatchObject({ level: 'adult', images: null });
    // uncensored pictures with adult LoRAs blocked has no place in the dials
    const conflict = await s.admin.patch(protectionsUrl(pat.id), { uncensoredImages: true, blockAdultLoras: true });
    expect(conflict.status).toBe(422);
    expect(conflict.body.error.code).toBe('protections_conflict');
    expect((await s.admin.get(dialsUrl(pat.id))).body.level).toBe('adult');
  });

  describe('the adult state', () => {
    it('is not for a member below adult, whatever the PIN', async () => {
      const r = await s.member.post('/api/privacy/adult', { pin: '5678' });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('adult_state_not_allowed');
      expect((await s.member.get('/api/privacy')).body).toEqual({ adultState: false, until: null });
    });

    it('the right PIN turns it on for this session for 30 minutes; it runs out, DELETE ends it', async () => {
      const robin = await newMember('Robin', '4826');
      await s.admin.put(dialsUrl(robin.id), { level: 'adult' });
      const other = await s.signIn(robin.id, '4826');
      const on = await robin.client.post('/api/privacy/adult', { pin: '4826' });
      expect(on.status, on.text).toBe(200);
      const until = new Date(clock.now().getTime() + 30 * MINUTE).toISOString();
      expect(on.body).toEqual({ adultState: true, until });
      expect((await robin.client.get('/api/privacy')).body).toEqual({ adultState: true, until });
      expect((await robin.client.get('/api/content')).body.adultState).toBe(true);
      // this session only: the member's other browser is not in it
      expect((await other.get('/api/privacy')).body.adultState).toBe(false);

      clock.advance(29 * MINUTE);
      expect((await robin.client.get('/api/privacy')).body.adultState).toBe(true);
      clock.advance(2 * MINUTE);
      expect((await robin.client.get('/api/privacy')).body).toEqual({ adultState: false, until: null });

      await robin.client.post('/api/privacy/adult', { pin: '4826' });
      const off = await robin.client.delete('/api/privacy/adult');
      expect(off.body).toEqual({ adultState: false, until: null });
      expect((await robin.client.get('/api/privacy')).body.adultState).toBe(false);

      // an admin lowering the level ends it at once
      await robin.client.post('/api/privacy/adult', { pin: '4826' });
      await s.admin.put(dialsUrl(robin.id), { level: 'teen' });
      expect((await robin.client.get('/api/privacy')).body.adultState).toBe(false);
      await s.admin.put(dialsUrl(robin.id), { level: 'adult' });
      expect((await robin.client.get('/api/privacy')).body.adultState).toBe(false);
    });

    it('signing out ends it', async () => {
      const lee = await newMember('Lee', '7391');
      await s.admin.put(dialsUrl(lee.id), { level: 'adult' });
      expect((await lee.client.post('/api/privacy/adult', { pin: '7391' })).body.adultState).toBe(true);
      const rows = () => s.handle.deps.db('content_adult_states').where({ user_id: lee.id }).count<{ n: number }[]>({ n: '*' });
      expect((await rows())[0]!.n).toBe(1);
      expect((await lee.client.post('/api/auth/logout')).status).toBe(200);
      expect((await rows())[0]!.n).toBe(0);
      expect((await lee.client.get('/api/privacy')).status).toBe(401);
    });

    it('a wrong PIN is 401 and counts toward the same per-device lock as signing in', async () => {
      const jo = await newMember('Jo', '6284');
      await s.admin.put(dialsUrl(jo.id), { level: 'adult' });
      for (let i = 0; i < 3; i++) {
        const r = await jo.client.post('/api/privacy/adult', { pin: '0000' });
        expect(r.status).toBe(401);
        expect(r.body.error.code).toBe('invalid_pin');
      }
      // the fourth wrong PIN at sign-in, from the same device, continues the same count
      const signIn = await new TestClient(s.url).post('/api/auth/verify-pin', { userId: jo.id, pin: '0000' });
      expect(signIn.status).toBe(401);
      expect(signIn.body.error.message).toMatch(/1 try left on this device/);
      const fifth = await jo.client.post('/api/privacy/adult', { pin: '1111' });
      expect(fifth.status).toBe(429);
      expect(fifth.body.error.code).toBe('locked_out');
      // locked: the right PIN is refused too, here and at sign-in
      expect((await jo.client.post('/api/privacy/adult', { pin: '6284' })).status).toBe(429);
      expect((await new TestClient(s.url).post('/api/auth/verify-pin', { userId: jo.id, pin: '6284' })).status).toBe(429);
      expect((await jo.client.get('/api/privacy')).body.adultState).toBe(false);
      // bad input is 400, never a PIN try
      expect((await jo.client.post('/api/privacy/adult', {})).status).toBe(400);
      clock.advance(10 * MINUTE);
    });
  });
});

describe('the migration of the image protections into the dials', () => {
  it('reads back the same protections, and makes the earliest admin adult', async () => {
    const temp = makeTempDir('hearth-content-migration-');
    const all = defaultMigrationsDir();
    const before = path.join(temp.dir, 'before');
    mkdirSync(before);
    const mine = readdirSync(all).find((f) => f.includes('_create_content_dials.'))!;
    for (const f of readdirSync(all).filter((x) => x < mine)) symlinkSync(path.join(all, f), path.join(before, f));
    const db = createDb(path.join(temp.dir, 'h.db'));
    try {
      await runMigrations(db, before);
      const at = '2026-12-01T00:00:00.000Z';
      const user = (id: string, role: string, createdAt = at) => ({ id, name: id, role, pin_hash: 'x', created_at: createdAt, updated_at: createdAt });
      await db('users').insert([user('first', 'admin', '2026-11-01T00:00:00.000Z'), user('later', 'admin'), user('plain', 'member'), user('lifted', 'member'), user('open', 'member'), user('odd', 'member')]);
      const p = (id: string, uncensored: boolean, block: boolean) => ({ user_id: id, uncensored_images: uncensored, block_adult_loras: block, updated_at: at });
      await db('image_member_protections').insert([p('lifted', false, false), p('open', true, false), p('odd', true, true), p('plain', false, true)]);

      await runMigrations(db, all);
      const dials = await db('content_dials').select('user_id', 'level', 'images').orderBy('user_id');
      expect(dials).toEqual([
        { user_id: 'first', level: 'adult', images: null },
        { user_id: 'lifted', level: 'adult', images: 'teen' },
        // uncensored pictures while adult LoRAs were blocked: the safer reading
        { user_id: 'odd', level: 'teen', images: null },
        { user_id: 'open', level: 'adult', images: null },
        { user_id: 'plain', level: 'teen', images: null },
      ]);
      expect(await db.schema.hasTable('image_member_protections')).toBe(false);
    } finally {
      await db.destroy();
      temp.remove();
    }
  });

  it("a household's first admin is adult as they are created (the trigger), later ones are not", async () => {
    const temp = makeTempDir('hearth-content-trigger-');
    const db = createDb(path.join(temp.dir, 'h.db'));
    try {
      await runMigrations(db);
      const at = '2026-12-03T00:00:00.000Z';
      await db('users').insert({ id: 'a1', name: 'a1', role: 'admin', pin_hash: 'x', created_at: at, updated_at: at });
      await db('users').insert({ id: 'a2', name: 'a2', role: 'admin', pin_hash: 'x', created_at: at, updated_at: at });
      expect(await db('content_dials').select('user_id', 'level')).toEqual([{ user_id: 'a1', level: 'adult' }]);
    } finally {
      await db.destroy();
      temp.remove();
    }
  });
});
