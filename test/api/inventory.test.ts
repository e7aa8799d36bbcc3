// The home inventory over HTTP: the household's devices (every member sees and edits every one;
// the adder or an admin deletes), links, service log, warranties on a moved clock, and the routes'
// refusals. Files and photos: inventory-files.test.ts; CSV and export: inventory-transfer.test.ts.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOOKUP_SKIPPED } from '../../server/modules/home-inventory/lookup-service.js';
import { createManualClock } from '../../server/platform/clock.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const SOME_ID = '00000000-0000-4000-8000-000000000000';
const fill = (p: string) => p.replace(/:[A-Za-z]+/g, SOME_ID);

describe('home inventory: devices', () => {
  let s: TestServer;
  // noon, so the household's date is the same in any time zone a test machine is in
  const clock = createManualClock(new Date('2026-03-01T12:00:00Z'));
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', overrides: { clock } });
  });
  afterAll(() => s.close());
  beforeEach(async () => {
    clock.set(new Date('2026-03-01T12:00:00Z'));
    await s.handle.deps.db('home_devices').delete();
    await s.handle.deps.db('notifications').delete();
  });

  const create = async (body: Record<string, unknown>, who: 'admin' | 'member' = 'member') => {
    const r = await s[who].post('/api/home/devices', body);
    expect(r.status, r.text).toBe(201);
    return r.body.device as { id: string; [k: string]: unknown };
  };

  it('answers 401 to anonymous callers on every inventory route', async () => {
    const routes = s.handle.routes.filter((r) => r.path.startsWith('/api/home/'));
    expect(routes.length).toBeGreaterThanOrEqual(20);
    for (const r of routes) {
      // setting the web search address is the one admin route; the rest are every member's
      expect(r.access, `${r.method} ${r.path}`).toBe(r.method === 'put' && r.path === '/api/home/web-search' ? 'admin' : 'user');
      const res = await s.anon.req(r.method.toUpperCase() as 'GET', fill(r.path), r.method === 'get' ? undefined : {});
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
      expect(res.body.error.code).toBe('unauthenticated');
    }
  });

  it('creates a device with its fields, records who added it, and says the web lookup is not set up', async () => {
    const d = await create({
      name: 'Dishwasher',
      brand: 'Bosch',
      model: 'SMS6ZCI49E',
      serialNumber: 'FD 9908 00123',
      category: 'appliance',
      location: 'Kitchen',
      specs: { Voltage: '230 V' },
      purchaseDate: '2025-01-10',
      purchasePrice: 649.5,
      warrantyExpires: '2027-01-10',
      supportUrl: 'https://www.bosch-home.com/support',
    });
    expect(d).toMatchObject({
      name: 'Dishwasher',
      brand: 'Bosch',
      category: 'appliance',
      specs: { Voltage: '230 V' },
      purchasePrice: 649.5,
      warrantyStatus: 'active',
      photoUrl: null,
      hasManual: false,
      manualTextChars: 0,
      canDelete: true,
      createdBy: { id: s.users.member.id, name: 'Sam' },
      files: [],
      links: [],
      serviceLog: [],
      lookupStatus: 'skipped',
      // this test server has no WEB_SEARCH_URL: the lookup says so
      lookupError: LOOKUP_SKIPPED.noSearch,
    });
    const got = await s.admin.get(`/api/home/devices/${d.id}`);
    expect(got.status).toBe(200);
    expect(got.body.device).toMatchObject({ name: 'Dishwasher', createdBy: { name: 'Sam' }, canDelete: true });
  });

  it('lists with q over name, brand, model, category and location, a category filter, and counts per category', async () => {
    await create({ name: 'Dishwasher', brand: 'Bosch', model: 'SMS6', category: 'appliance', location: 'Kitchen' });
    await create({ name: 'Drill', brand: 'Makita', model: 'DHP482', category: 'tool', location: 'Garage' });
    await create({ name: 'Television', brand: 'LG', model: 'OLED55', category: 'electronics', location: 'Living room' });
    const names = async (q: string) => ((await s.member.get(`/api/home/devices${q}`)).body.devices as { name: string }[]).map((d) => d.name);
    expect(await names('')).toEqual(['Dishwasher', 'Drill', 'Television']);
    expect(await names('?q=makita')).toEqual(['Drill']);
    expect(await names('?q=oled')).toEqual(['Television']);
    expect(await names('?q=garage')).toEqual(['Drill']);
    expect(await names('?q=appliance')).toEqual(['Dishwasher']);
    expect(await names('?q=kitchen%20bosch')).toEqual(['Dishwasher']);
    expect(await names('?q=50%25')).toEqual([]);
    expect(await names('?category=tool')).toEqual(['Drill']);
    const r = await s.member.get('/api/home/devices');
    expect(r.body.categories).toEqual({ appliance: 1, electronics: 1, vehicle: 0, tool: 1, furniture: 0, other: 0 });
    expect((await s.member.get('/api/home/devices?category=spaceship')).status).toBe(400);
  });

  it('pages the list in name order: limit and offset, the filter total and the next offset', async () => {
    for (const n of ['Alarm', 'Boiler', 'Cooker', 'Dryer', 'Extractor']) await create({ name: n, location: 'House' });
    const first = await s.member.get('/api/home/devices?limit=2');
    expect(first.body).toMatchObject({ total: 5, nextOffset: 2 });
    expect(first.body.devices.map((d: { name: string }) => d.name)).toEqual(['Alarm', 'Boiler']);
    const last = await s.member.get('/api/home/devices?limit=2&offset=4');
    expect(last.body).toMatchObject({ total: 5, nextOffset: null });
    expect(last.body.devices.map((d: { name: string }) => d.name)).toEqual(['Extractor']);
    const filtered = await s.member.get('/api/home/devices?q=dryer&limit=2');
    expect(filtered.body).toMatchObject({ total: 1, nextOffset: null });
    // the default page is 100, and a page is at most 500
    expect((await s.member.get('/api/home/devices')).body.nextOffset).toBeNull();
    expect((await s.member.get('/api/home/devices?limit=501')).status).toBe(400);
    expect((await s.member.get('/api/home/devices?offset=-1')).status).toBe(400);
  });

  it('lets a member see and edit a device an admin added; clearing a field with an empty string', async () => {
    const d = await create({ name: 'Boiler', brand: 'Vaillant', location: 'Cellar', notes: 'Serviced yearly' }, 'admin');
    const seen = await s.member.get(`/api/home/devices/${d.id}`);
    expect(seen.body.device).toMatchObject({ name: 'Boiler', canDelete: false, createdBy: { name: 'Alex' } });
    const p = await s.member.patch(`/api/home/devices/${d.id}`, { location: 'Utility room', notes: '' });
    expect(p.status, p.text).toBe(200);
    expect(p.body.device).toMatchObject({ location: 'Utility room', notes: null, brand: 'Vaillant' });
    expect((await s.member.patch(`/api/home/devices/${d.id}`, {})).status).toBe(400);
    expect((await s.member.patch(`/api/home/devices/${d.id}`, { name: '' })).status).toBe(400);
    expect((await s.member.patch(`/api/home/devices/${d.id}`, { warrantyExpires: '31/03/2027' })).status).toBe(400);
    expect((await s.member.patch(`/api/home/devices/${d.id}`, { secret: 1 })).status).toBe(400);
  });

  it('starts the lookup on create and when brand or model change, not on other edits', async () => {
    const started: string[] = [];
    const devices = s.handle.deps.home.devices as unknown as { deps: { lookup: { start(actor: unknown, id: string): Promise<string> } } };
    const real = devices.deps.lookup;
    devices.deps.lookup = { start: async (actor, id) => (started.push(id), real.start(actor, id)) };
    try {
      const d = await create({ name: 'Fridge' });
      expect(started).toEqual([d.id]);
      await s.member.patch(`/api/home/devices/${d.id}`, { location: 'Kitchen' });
      expect(started).toHaveLength(1);
      await s.member.patch(`/api/home/devices/${d.id}`, { brand: 'Liebherr' });
      expect(started).toHaveLength(2);
      await s.member.patch(`/api/home/devices/${d.id}`, { brand: 'Liebherr', model: 'CBNd 5723' });
      expect(started).toHaveLength(3);
      await s.member.patch(`/api/home/devices/${d.id}`, { model: 'CBNd 5723', owner: 'Sam' });
      expect(started).toHaveLength(3);
    } finally {
      devices.deps.lookup = real;
    }
  });

  it('refuses bad input with 400 and a sentence, never 500', async () => {
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(200) }, { name: 'A', category: 'boat' }, { name: 'A', purchasePrice: -1 }, { name: 'A', supportUrl: 'javascript:alert(1)' }, { name: 'A', specs: ['x'] }]) {
      const r = await s.member.post('/api/home/devices', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message.length).toBeGreaterThan(10);
    }
    expect((await s.member.post('/api/home/devices', undefined, { raw: '{"name":' })).status).toBe(400);
    expect(await s.handle.deps.db('home_devices').count({ n: '*' }).first()).toEqual({ n: 0 });
  });

  it('answers 404 not_found with a sentence for an unknown device on every device route', async () => {
    const routes = s.handle.routes.filter((r) => r.path.startsWith('/api/home/devices/:id'));
    for (const r of routes) {
      const body = r.method === 'get' || r.method === 'delete' ? undefined : r.path.endsWith('/service') ? { date: '2026-01-01', type: 'repair', description: 'x' } : r.path.endsWith('/links') ? { label: 'x', url: 'https://example.com/' } : r.path.endsWith('set-main-photo') ? { fileId: 'x' } : r.path.endsWith('/comment') ? { comment: 'x' } : r.path.includes('/service/') ? { description: 'y' } : r.path.endsWith('/ask') ? { question: 'How do I descale it?' } : /\/(identify|lookup|generate-specs)$/.test(r.path) ? {} : { name: 'x' };
      // uploads are multipart: checked in inventory-files.test.ts
      if (r.path.endsWith('/files') && r.method === 'post') continue;
      const res = await s.member.req(r.method.toUpperCase() as 'GET', fill(r.path), body);
      expect(res.status, `${r.method} ${r.path}`).toBe(404);
      expect(res.body.error.code, `${r.method} ${r.path}`).toBe('not_found');
      expect(res.body.error.message, `${r.method} ${r.path}`).toMatch(/\w+ \w+ \w+/);
    }
  });

  it('deletes: 403 for a member who did not add it, ok for the adder and for an admin; the folder goes too', async () => {
    const byAdmin = await create({ name: 'Lawn mower' }, 'admin');
    const refused = await s.member.delete(`/api/home/devices/${byAdmin.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect(refused.body.error.message).toMatch(/added this device/);
    expect((await s.member.get(`/api/home/devices/${byAdmin.id}`)).status).toBe(200);

    const byMember = await create({ name: 'Kettle' });
    const dir = path.join(s.dataDir, 'home-inventory', byMember.id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'x.pdf'), '%PDF-1.4');
    expect((await s.member.delete(`/api/home/devices/${byMember.id}`)).status).toBe(204);
    expect(existsSync(dir)).toBe(false);
    expect((await s.member.get(`/api/home/devices/${byMember.id}`)).status).toBe(404);

    const another = await create({ name: 'Toaster' });
    expect((await s.admin.delete(`/api/home/devices/${another.id}`)).status).toBe(204);
    expect((await s.admin.delete(`/api/home/devices/${byAdmin.id}`)).status).toBe(204);
  });

  it('keeps links: add (once per address), list, delete', async () => {
    const d = await create({ name: 'Router' });
    const add = await s.member.post(`/api/home/devices/${d.id}/links`, { category: 'support', label: 'Support', url: 'https://example.com/support' });
    expect(add.status, add.text).toBe(201);
    expect(add.body.link).toMatchObject({ category: 'support', label: 'Support', source: 'user' });
    const again = await s.member.post(`/api/home/devices/${d.id}/links`, { label: 'Same', url: 'https://example.com/support' });
    expect(again.body.link.id).toBe(add.body.link.id);
    expect((await s.member.post(`/api/home/devices/${d.id}/links`, { label: 'Bad', url: 'file:///etc/passwd' })).status).toBe(400);
    expect((await s.member.get(`/api/home/devices/${d.id}/links`)).body.links).toHaveLength(1);
    expect((await s.member.get(`/api/home/devices/${d.id}`)).body.device.links).toHaveLength(1);
    expect((await s.member.delete(`/api/home/devices/${d.id}/links/${add.body.link.id}`)).status).toBe(204);
    expect((await s.member.delete(`/api/home/devices/${d.id}/links/${add.body.link.id}`)).status).toBe(404);
    expect((await s.member.get(`/api/home/devices/${d.id}/links`)).body.links).toEqual([]);
  });

  it('keeps a service log: add, list newest first, edit, delete', async () => {
    const d = await create({ name: 'Boiler' });
    const first = await s.member.post(`/api/home/devices/${d.id}/service`, { date: '2025-10-01', type: 'maintenance', description: 'Yearly service', technician: 'Heat Co', cost: 120 });
    expect(first.status, first.text).toBe(201);
    const second = await s.admin.post(`/api/home/devices/${d.id}/service`, { date: '2026-02-01', type: 'repair', description: 'Replaced the pump' });
    expect(second.status).toBe(201);
    const list = await s.member.get(`/api/home/devices/${d.id}/service`);
    expect(list.body.entries.map((e: { description: string }) => e.description)).toEqual(['Replaced the pump', 'Yearly service']);
    const edit = await s.member.patch(`/api/home/devices/${d.id}/service/${first.body.entry.id}`, { cost: 95, technician: '' });
    expect(edit.body.entry).toMatchObject({ cost: 95, technician: null, description: 'Yearly service' });
    expect((await s.member.post(`/api/home/devices/${d.id}/service`, { date: 'yesterday', type: 'repair', description: 'x' })).status).toBe(400);
    expect((await s.member.post(`/api/home/devices/${d.id}/service`, { date: '2026-01-01', type: 'polish', description: 'x' })).status).toBe(400);
    expect((await s.member.patch(`/api/home/devices/${d.id}/service/${first.body.entry.id}`, {})).status).toBe(400);
    expect((await s.member.delete(`/api/home/devices/${d.id}/service/${second.body.entry.id}`)).status).toBe(204);
    expect((await s.member.patch(`/api/home/devices/${d.id}/service/${second.body.entry.id}`, { cost: 1 })).status).toBe(404);
    expect((await s.member.get(`/api/home/devices/${d.id}`)).body.device.serviceLog).toHaveLength(1);
  });

  it('splits warranties into expiring and expired on today from the clock, with daysLeft', async () => {
    await create({ name: 'Ended last month', warrantyExpires: '2026-02-01' });
    await create({ name: 'Ends today', warrantyExpires: '2026-03-01' });
    await create({ name: 'Ends in 20 days', warrantyExpires: '2026-03-21' });
    await create({ name: 'Ends in 100 days', warrantyExpires: '2026-06-09' });
    await create({ name: 'No warranty' });
    const w = await s.member.get('/api/home/warranties?days=30');
    expect(w.status, w.text).toBe(200);
    expect(w.body).toMatchObject({ today: '2026-03-01', days: 30 });
    expect(w.body.expiring.map((d: { name: string; daysLeft: number }) => [d.name, d.daysLeft])).toEqual([
      ['Ends today', 0],
      ['Ends in 20 days', 20],
    ]);
    expect(w.body.expired.map((d: { name: string; daysLeft: number }) => [d.name, d.daysLeft])).toEqual([['Ended last month', -28]]);
    expect(w.body.expired[0].warrantyStatus).toBe('expired');
    // the default window is 60 days; the clock moves on and the split follows it
    clock.set(new Date('2026-03-22T12:00:00Z'));
    const later = await s.member.get('/api/home/warranties');
    expect(later.body.days).toBe(60);
    expect(later.body.expiring.map((d: { name: string }) => d.name)).toEqual([]);
    expect(later.body.expired.map((d: { name: string }) => d.name)).toEqual(['Ends in 20 days', 'Ends today', 'Ended last month']);
    clock.set(new Date('2026-04-15T12:00:00Z'));
    expect((await s.member.get('/api/home/warranties')).body.expiring.map((d: { name: string }) => d.name)).toEqual(['Ends in 100 days']);
    expect((await s.member.get('/api/home/warranties?days=0')).status).toBe(400);
    expect((await s.member.get('/api/home/warranties?days=abc')).status).toBe(400);
  });
});
