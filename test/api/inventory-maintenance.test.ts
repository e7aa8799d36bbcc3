// Maintenance drafts: intervals read from a manual's sentences, dated from the service log or today,
// over GET /api/home/devices/:id/maintenance (nothing written; the member confirms by adding a
// service entry).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../server/platform/clock.js';
import { intervalIn, maintenanceFrom } from '../../server/modules/home-inventory/maintenance-service.js';
import { HomeInventoryStore, type ServiceRecord } from '../../server/modules/home-inventory/store.js';
import { insertDevice } from '../fixtures/inventory/devices.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const MANUAL = `Care and cleaning

Replace the water filter every 6 months, or sooner if the water tastes odd. Descale the machine every 3 months.
Clean the lint filter after every use. Have the appliance inspected by a technician once a year.
The warranty lasts every bit of two years. Safety: never open the casing.`;

const entry = (date: string, description: string): ServiceRecord => ({ id: date, deviceId: 'd', date, type: 'maintenance', description, technician: null, cost: null, createdBy: null, createdAt: date });

describe('maintenance drafts', () => {
  it('reads intervals in words and numbers', () => {
    expect(intervalIn('Replace it every 6 months')).toMatchObject({ interval: 'every 6 months', intervalDays: 180 });
    expect(intervalIn('descale every three weeks')).toMatchObject({ intervalDays: 21 });
    expect(intervalIn('check it once a year')).toMatchObject({ interval: 'once a year', intervalDays: 365 });
    expect(intervalIn('wash it weekly')).toMatchObject({ intervalDays: 7 });
    expect(intervalIn('Clean the lint filter after every use')).toMatchObject({ interval: 'after every use', intervalDays: null });
    expect(intervalIn('Keep it dry')).toBeNull();
  });

  it('turns the manual\'s tasks into suggestions dated from the last matching entry, or today', () => {
    const s = maintenanceFrom(MANUAL, [entry('2026-05-01', 'Replaced the water filter'), entry('2025-01-01', 'Changed filter')], '2026-11-25');
    expect(s.map(({ description, interval, intervalDays, dueDate }) => ({ description, interval, intervalDays, dueDate }))).toEqual([
      { description: 'Replace the water filter', interval: 'every 6 months', intervalDays: 180, dueDate: '2026-10-28' },
      { description: 'Descale the machine', interval: 'every 3 months', intervalDays: 90, dueDate: '2026-11-25' },
      { description: 'Clean the lint filter', interval: 'after every use', intervalDays: null, dueDate: null },
      { description: 'Have the appliance inspected by a technician', interval: 'once a year', intervalDays: 365, dueDate: '2026-11-25' },
    ]);
    expect(s[0]!.quote).toBe('Replace the water filter every 6 months, or sooner if the water tastes odd.');
    expect(new Set(s.map((x) => x.id)).size).toBe(4);
    expect(maintenanceFrom('', [], '2026-11-25')).toEqual([]);
  });

  describe('over HTTP', () => {
    let s: TestServer;
    let store: HomeInventoryStore;
    beforeAll(async () => {
      s = await startTestServer({ seed: 'household', overrides: { clock: createManualClock(new Date('2026-11-25T12:00:00')) } });
      store = new HomeInventoryStore(s.handle.deps.db);
    });
    afterAll(() => s?.close());

    it('answers any signed-in member with the drafts, writing nothing', async () => {
      const d = await insertDevice(store, { manualText: MANUAL });
      await store.insertService({ ...entry('2026-09-01', 'Descaled'), id: 'e1', deviceId: d.id });
      const r = await s.member.get(`/api/home/devices/${d.id}/maintenance`);
      expect(r.status).toBe(200);
      expect(r.body.suggestions).toHaveLength(4);
      expect(r.body.suggestions[1]).toMatchObject({ description: 'Descale the machine', dueDate: '2026-11-30' });
      expect(r.body.suggestions[0].dueDate).toBe('2026-11-25');
      expect(await store.listService(d.id)).toHaveLength(1);
      const bare = await insertDevice(store, { manualText: null });
      expect((await s.member.get(`/api/home/devices/${bare.id}/maintenance`)).body).toEqual({ suggestions: [] });
      expect((await s.member.get('/api/home/devices/nope/maintenance')).status).toBe(404);
      expect((await s.anon.get(`/api/home/devices/${d.id}/maintenance`)).status).toBe(401);
    });
  });
});
