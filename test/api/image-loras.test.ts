// The household's LoRAs over HTTP: import-file (streamed, capped with nothing left behind, a
// .safetensors header read for trigger words and base family), recover-disk, admin edits and
// categories, default-deny grants per LoRA and per category, 409 adult_lora_blocked, members'
// protections (admin only, never one's own), and what GET /api/image/loras shows each member.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISK_RESERVE_BYTES } from '../../server/platform/disk.js';
import { postForm } from '../harness/multipart.js';
import { damagedSafetensors, PICKLE_BYTES, safetensorsFile } from '../harness/safetensors.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const safetensors = (metadata: Record<string, string>): Buffer => safetensorsFile(metadata);

const MAX = 64 * 1024;

describe('image LoRAs', () => {
  let s: TestServer;
  let lorasDir: string;
  /** The free space the server reads (a figure, so no test fills a real disk). */
  let freeBytes = 1024 ** 4;
  const importFile = (filename: string, bytes: Buffer, client = () => s.admin) => postForm(s.url, client(), '/api/admin/image-loras/import-file', [{ name: 'file', filename, type: 'application/octet-stream', bytes }]);

  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', overrides: { diskFree: async () => freeBytes, tuning: { signInRequestsPerMinute: 10_000, setupRequestsPerMinute: 10_000, runtimeLookTtlMs: 0, imageLoraMaxBytes: MAX } } });
    lorasDir = path.join(s.dataDir, 'image-engine', 'models', 'loras');
  });
  afterAll(async () => {
    await s.close();
  });

  it('imports a .safetensors file: streamed into the loras folder, trigger words and base family from its header', async () => {
    const file = safetensors({ 'modelspec.trigger_phrase': 'pxl style, 8bit', ss_base_model_version: 'sdxl_base_v1-0', 'modelspec.title': 'Pixel World' });
    const res = await importFile('pixel-world.safetensors', file);
    expect(res.status).toBe(201);
    expect(res.body.lora).toMatchObject({ name: 'Pixel World', filePath: 'pixel-world.safetensors', triggerTokens: ['pxl style', '8bit'], baseFamilies: ['sdxl'], fileExists: true, fileBytes: file.length, enabled: true, isAdult: false });
    expect(existsSync(path.join(lorasDir, 'pixel-world.safetensors'))).toBe(true);
    // the same name again is a clear conflict, and leaves the first one alone
    const again = await importFile('pixel-world.safetensors', file);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('lora_exists');
  });

  it('refuses a file over the cap with 413 and leaves nothing behind', async () => {
    const before = readdirSync(lorasDir).sort();
    const res = await importFile('huge.safetensors', Buffer.alloc(MAX + 1024, 1));
    expect(res.status).toBe(413);
    expect(res.body.error.message).toMatch(/larger than/);
    expect(readdirSync(lorasDir).sort()).toEqual(before);
  });

  it('refuses a file the data disk cannot hold beside its reserve with 507 and a sentence, and keeps nothing', async () => {
    const before = readdirSync(lorasDir).sort();
    freeBytes = DISK_RESERVE_BYTES + 10_000;
    const res = await importFile('roomy.safetensors', Buffer.alloc(40_000, 1));
    freeBytes = 1024 ** 4;
    expect(res.status).toBe(507);
    expect(res.body.error).toMatchObject({ code: 'not_enough_disk', message: expect.stringMatching(/^This LoRA file needs 40 KB but only 10 KB is free on the data disk\. Free some space and try again\.$/) });
    expect(readdirSync(lorasDir).sort()).toEqual(before);
    // with room, the same file is taken
    expect((await importFile('roomy.safetensors', safetensors({ 'modelspec.title': 'Roomy' }))).status).toBe(201);
  });

  it('refuses other file kinds and damaged headers with a sentence, and keeps nothing', async () => {
    const before = readdirSync(lorasDir).sort();
    const wrong = await importFile('notes.txt', Buffer.from('hello'));
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/ends in \.safetensors/);
    const broken = await importFile('broken.safetensors', Buffer.from('not a safetensors file at all'));
    expect(broken.status).toBe(422);
    expect(broken.body.error.code).toBe('invalid_safetensors');
    for (const [what, bytes] of Object.entries({ ...damagedSafetensors(), 'a pickle named .safetensors': PICKLE_BYTES })) {
      const damaged = await importFile('damaged.safetensors', bytes);
      expect(damaged.status, what).toBe(422);
      expect(damaged.body.error, what).toMatchObject({ code: 'invalid_safetensors', message: expect.stringMatching(/not a LoRA Hearth can read/) });
    }
    const notForm = await s.admin.post('/api/admin/image-loras/import-file', { file: 'x' });
    expect(notForm.status).toBe(400);
    expect(readdirSync(lorasDir).sort()).toEqual(before);
  });

  it('refuses pickle formats (.ckpt, .pt, .pth, .bin) with a sentence and keeps nothing; a member may not import', async () => {
    const before = readdirSync(lorasDir).sort();
    for (const name of ['old-style.ckpt', 'old-style.pt', 'old-style.PTH', 'pytorch_lora_weights.bin']) {
      const res = await importFile(name, PICKLE_BYTES);
      expect(res.status, name).toBe(422);
      expect(res.body.error, name).toEqual({ code: 'pickle_lora_refused', message: expect.stringMatching(/can run code.*\.safetensors/) });
    }
    expect(readdirSync(lorasDir).sort()).toEqual(before);
    const member = await importFile('mine.safetensors', safetensors({}), () => s.member);
    expect(member.status).toBe(403);
  });

  it('recover-disk registers files in the loras folder that have no row, once', async () => {
    writeFileSync(path.join(lorasDir, 'copied-by-hand.safetensors'), safetensors({ ss_output_name: 'hand_copy', ss_base_model_version: 'sd_v1' }));
    writeFileSync(path.join(lorasDir, 'readme.txt'), 'not a LoRA');
    const res = await s.admin.post('/api/admin/image-loras/recover-disk');
    expect(res.status).toBe(200);
    expect(res.body.registered.map((l: { filePath: string }) => l.filePath)).toEqual(['copied-by-hand.safetensors']);
    expect(res.body.registered[0]).toMatchObject({ name: 'hand_copy', baseFamilies: ['sd15'] });
    expect((await s.admin.post('/api/admin/image-loras/recover-disk')).body.registered).toEqual([]);
  });

  describe('grants, protections and what members see', () => {
    let plain: string;
    let adult: string;
    let missing: string;
    let category: string;

    beforeAll(async () => {
      plain = (await importFile('castle.safetensors', safetensors({ 'modelspec.title': 'Castles' }))).body.lora.id;
      adult = (await importFile('grown-up.safetensors', safetensors({ 'modelspec.title': 'Grown up' }))).body.lora.id;
      missing = (await importFile('gone.safetensors', safetensors({ 'modelspec.title': 'Gone' }))).body.lora.id;
      expect((await s.admin.patch(`/api/admin/image-loras/${adult}`, { isAdult: true })).status).toBe(200);
      rmSync(path.join(lorasDir, 'gone.safetensors'));
      const cat = await s.admin.post('/api/admin/image-loras/categories', { name: 'Fantasy' });
      expect(cat.status).toBe(201);
      category = cat.body.category.id;
    });

    const memberSees = async () => ((await s.member.get('/api/image/loras')).body.loras as { id: string }[]).map((l) => l.id);

    it('a member sees no LoRA until one is granted (default deny); an admin sees every enabled one whose file exists, adult ones only in the adult state', async () => {
      expect(await memberSees()).toEqual([]);
      const adminSees = async () => ((await s.admin.get('/api/image/loras')).body.loras as { id: string }[]).map((l) => l.id);
      expect(await adminSees()).toContain(plain);
      expect(await adminSees()).not.toContain(adult);
      expect((await s.admin.post('/api/privacy/adult', { pin: '1234' })).status).toBe(200);
      expect(await adminSees()).toEqual(expect.arrayContaining([plain, adult]));
      expect(await adminSees()).not.toContain(missing);
      await s.admin.delete('/api/privacy/adult');
      const admin = await s.admin.get('/api/admin/image-loras');
      expect(admin.body.loras.find((l: { id: string }) => l.id === missing)).toMatchObject({ fileExists: false });
    });

    it('a direct grant shows the LoRA; off and null take it away again', async () => {
      const on = await s.admin.put(`/api/admin/image-loras/${plain}/grants/${s.users.member.id}`, { state: 'on' });
      expect(on.status).toBe(200);
      expect(on.body.loras).toEqual([{ loraId: plain, state: 'on' }]);
      expect(await memberSees()).toEqual([plain]);
      await s.admin.put(`/api/admin/image-loras/${plain}/grants/${s.users.member.id}`, { state: 'off' });
      expect(await memberSees()).toEqual([]);
      const cleared = await s.admin.put(`/api/admin/image-loras/${plain}/grants/${s.users.member.id}`, { state: null });
      expect(cleared.body.loras).toEqual([]);
    });

    it('a category grant shows its LoRAs while the category is enabled; a LoRA\'s own off wins; a missing file never shows', async () => {
      await s.admin.patch(`/api/admin/image-loras/${plain}`, { categoryId: category });
      await s.admin.patch(`/api/admin/image-loras/${missing}`, { categoryId: category });
      expect((await s.admin.put(`/api/admin/image-loras/categories/${category}/grants/${s.users.member.id}`, { state: 'on' })).status).toBe(200);
      expect(await memberSees()).toEqual([plain]);
      const seen = (await s.member.get('/api/image/loras')).body.loras[0];
      expect(seen.category).toEqual({ id: category, name: 'Fantasy' });
      expect(seen).not.toHaveProperty('filePath');
      await s.admin.patch(`/api/admin/image-loras/categories/${category}`, { enabled: false });
      expect(await memberSees()).toEqual([]);
      await s.admin.patch(`/api/admin/image-loras/categories/${category}`, { enabled: true });
      await s.admin.put(`/api/admin/image-loras/${plain}/grants/${s.users.member.id}`, { state: 'off' });
      expect(await memberSees()).toEqual([]);
      await s.admin.put(`/api/admin/image-loras/${plain}/grants/${s.users.member.id}`, { state: null });
      // a disabled LoRA is nobody's
      await s.admin.patch(`/api/admin/image-loras/${plain}`, { enabled: false });
      expect(await memberSees()).toEqual([]);
      await s.admin.patch(`/api/admin/image-loras/${plain}`, { enabled: true });
      expect(await memberSees()).toEqual([plain]);
    });

    it('granting an adult LoRA, or a category holding one, to a protected member is 409 adult_lora_blocked', async () => {
      const direct = await s.admin.put(`/api/admin/image-loras/${adult}/grants/${s.users.member.id}`, { state: 'on' });
      expect(direct.status).toBe(409);
      expect(direct.body.error.code).toBe('adult_lora_blocked');
      const adultCat = (await s.admin.post('/api/admin/image-loras/categories', { name: 'Grown-ups' })).body.category.id;
      await s.admin.patch(`/api/admin/image-loras/${adult}`, { categoryId: adultCat });
      const viaCategory = await s.admin.put(`/api/admin/image-loras/categories/${adultCat}/grants/${s.users.member.id}`, { state: 'on' });
      expect(viaCategory.status).toBe(409);
      expect(viaCategory.body.error.code).toBe('adult_lora_blocked');
      // turning a grant off is always allowed
      expect((await s.admin.put(`/api/admin/image-loras/${adult}/grants/${s.users.member.id}`, { state: 'off' })).status).toBe(200);
      expect(await memberSees()).not.toContain(adult);
    });

    it('protections: defaults for everyone, set by an admin only, never by oneself', async () => {
      const url = `/api/admin/image-loras/members/${s.users.member.id}/protections`;
      expect((await s.admin.get(url)).body).toEqual({ uncensoredImages: false, blockAdultLoras: true });
      expect((await s.member.patch(url, { uncensoredImages: true })).status).toBe(403);
      expect((await s.member.get(url)).status).toBe(403);
      const own = await s.admin.patch(`/api/admin/image-loras/members/${s.users.admin.id}/protections`, { uncensoredImages: true });
      expect(own.status).toBe(403);
      expect(own.body.error.code).toBe('own_protections');
      const lifted = await s.admin.patch(url, { blockAdultLoras: false });
      expect(lifted.body).toEqual({ uncensoredImages: false, blockAdultLoras: false });
      // now the adult LoRA may be granted
      expect((await s.admin.put(`/api/admin/image-loras/${adult}/grants/${s.users.member.id}`, { state: 'on' })).status).toBe(200);
      // granted, at adult: usable only once the member turns the adult state on with their PIN
      expect(await memberSees()).not.toContain(adult);
      expect((await s.member.post('/api/privacy/adult', { pin: '5678' })).status).toBe(200);
      expect(await memberSees()).toContain(adult);
      // protections back on: the adult LoRA disappears whatever the grant says
      await s.admin.patch(url, { blockAdultLoras: true });
      expect(await memberSees()).not.toContain(adult);
      const grants = await s.admin.get(`/api/admin/image-loras/members/${s.users.member.id}`);
      expect(grants.body).toMatchObject({ userId: s.users.member.id, protections: { blockAdultLoras: true } });
    });

    it('bad input and unknown targets are 4xx with a sentence', async () => {
      const nobody = '00000000-0000-4000-8000-000000000000';
      expect((await s.admin.put(`/api/admin/image-loras/${plain}/grants/${nobody}`, { state: 'on' })).status).toBe(404);
      expect((await s.admin.put(`/api/admin/image-loras/${nobody}/grants/${s.users.member.id}`, { state: 'on' })).status).toBe(404);
      expect((await s.admin.put(`/api/admin/image-loras/${plain}/grants/${s.users.member.id}`, { state: 'maybe' })).status).toBe(400);
      expect((await s.admin.patch(`/api/admin/image-loras/${plain}`, { minWeight: 2, maxWeight: 1 })).status).toBe(400);
      expect((await s.admin.patch(`/api/admin/image-loras/${plain}`, { categoryId: nobody })).status).toBe(400);
      expect((await s.admin.patch(`/api/admin/image-loras/${plain}`, { filePath: '../../etc/passwd' })).status).toBe(400);
      expect((await s.admin.post('/api/admin/image-loras/categories', { name: 'fantasy' })).status).toBe(409);
      expect((await s.admin.patch(`/api/admin/image-loras/categories/${nobody}`, { name: 'x' })).status).toBe(404);
      expect((await s.admin.patch(`/api/admin/image-loras/members/${nobody}/protections`, { uncensoredImages: true })).status).toBe(404);
    });

    it('categories sort by their order; deleting one keeps its LoRAs; deleting a LoRA removes its file', async () => {
      const a = (await s.admin.post('/api/admin/image-loras/categories', { name: 'Animals', sortOrder: 0 })).body.category;
      await s.admin.patch(`/api/admin/image-loras/categories/${category}`, { sortOrder: 50 });
      const list = (await s.admin.get('/api/admin/image-loras')).body.categories as { id: string; name: string; loraCount: number; hasAdult: boolean }[];
      expect(list[0]!.id).toBe(a.id);
      expect(list.at(-1)!.id).toBe(category);
      expect(list.find((c) => c.name === 'Grown-ups')).toMatchObject({ hasAdult: true, loraCount: 1 });
      expect((await s.admin.delete(`/api/admin/image-loras/categories/${category}`)).status).toBe(204);
      expect((await s.admin.get(`/api/admin/image-loras/${plain}`)).body.lora.category).toBeNull();
      expect((await s.admin.delete(`/api/admin/image-loras/${plain}`)).status).toBe(204);
      expect(existsSync(path.join(lorasDir, 'castle.safetensors'))).toBe(false);
      expect((await s.admin.get(`/api/admin/image-loras/${plain}`)).status).toBe(404);
    });
  });

  it('the engine admin keeps the folder in app settings, and the loras folder follows it', async () => {
    const install = path.join(s.dataDir, 'comfy');
    mkdirSync(path.join(install, 'models', 'loras'), { recursive: true });
    const put = await s.admin.put('/api/admin/image-engine', { installDir: install, checkpoint: 'dreamshaper_8.safetensors' });
    expect(put.status).toBe(200);
    expect(put.body.config).toMatchObject({ installDir: install, python: null, externalUrl: null, checkpoint: 'dreamshaper_8.safetensors' });
    expect(put.body.status).toMatchObject({ configured: true, checkpoint: 'dreamshaper_8.safetensors' });
    expect((await s.member.put('/api/admin/image-engine', { installDir: '/tmp' })).status).toBe(403);
    expect((await s.admin.put('/api/admin/image-engine', { installDir: 42 })).status).toBe(400);
    const res = await importFile('in-comfy.safetensors', safetensors({}));
    expect(res.status).toBe(201);
    expect(existsSync(path.join(install, 'models', 'loras', 'in-comfy.safetensors'))).toBe(true);
    const logs = await s.admin.get('/api/admin/image-engine/logs?lines=20');
    expect(logs.status).toBe(200);
    expect(logs.body.lines.length).toBeLessThanOrEqual(20);
    expect((await s.admin.get('/api/admin/image-engine/logs?lines=0')).status).toBe(400);
  });
});
