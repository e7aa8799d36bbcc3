// The warranty reminder sweep on a moved clock: 30 and 7 days before the end, once each, to the
// device's adder (or the admins when the adder is gone); an edit that keeps the date sends nothing
// again, a new date may.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateDeviceBody } from '../../server/modules/home-inventory/schema.js';
import { newDeviceRecord } from '../../server/modules/home-inventory/service.js';
import { createManualClock } from '../../server/platform/clock.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { HomeInventoryStore } from '../../server/modules/home-inventory/store.js';

describe('home inventory: warranty reminders', () => {
  let s: TestServer;
  const clock = createManualClock(new Date('2026-03-01T12:00:00Z'));
  const day = (d: string) => clock.set(new Date(`${d}T12:00:00Z`));
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', overrides: { clock } });
  });
  afterAll(() => s.close());

  const reminders = async () =>
    ((await s.handle.deps.db('notifications').orderBy('created_at')) as { user_id: string | null; type: string; payload: string }[]).map((n) => ({ userId: n.user_id, type: n.type, ...JSON.parse(n.payload) }));

  it('sends the 30-day and the 7-day reminder once each, and again only for a new date', async () => {
    const d = (await s.member.post('/api/home/devices', { name: 'Dishwasher', warrantyExpires: '2026-04-30' })).body.device;
    const sweep = () => s.handle.deps.home.warranties.sweep();
    expect((await sweep()).sent).toBe(0);
    day('2026-03-31');
    expect((await sweep()).sent).toBe(1);
    expect(await reminders()).toEqual([
      expect.objectContaining({ userId: s.users.member.id, type: 'system', kind: 'warranty_reminder', deviceId: d.id, name: 'Dishwasher', warrantyExpires: '2026-04-30', daysLeft: 30, title: 'The warranty on “Dishwasher” ends in 30 days' }),
    ]);
    expect((await sweep()).sent).toBe(0);
    day('2026-04-05');
    expect((await sweep()).sent).toBe(0);
    // an edit that keeps the date sends nothing again
    await s.admin.patch(`/api/home/devices/${d.id}`, { warrantyExpires: '2026-04-30', location: 'Kitchen' });
    expect((await sweep()).sent).toBe(0);
    day('2026-04-23');
    expect((await sweep()).sent).toBe(1);
    expect((await reminders()).at(-1)).toMatchObject({ daysLeft: 7, deviceId: d.id });
    day('2026-04-25');
    expect((await sweep()).sent).toBe(0);
    // a new end date (an extended warranty) is reminded again
    // (through the store: the test sessions have expired on the moved clock)
    await new HomeInventoryStore(s.handle.deps.db).updateDevice(d.id, { warrantyExpires: '2026-05-20' });
    expect((await sweep()).sent).toBe(1);
    expect((await reminders()).at(-1)).toMatchObject({ daysLeft: 25, warrantyExpires: '2026-05-20' });
    day('2026-06-01');
    expect((await sweep()).sent).toBe(0);
    expect(await reminders()).toHaveLength(3);
  });

  it('goes to the admins (user_id null) when the adder is gone, and a late first look sends only the 7-day one', async () => {
    await s.handle.deps.db('notifications').delete();
    day('2026-07-01');
    const d = newDeviceRecord('kettle-0001', CreateDeviceBody.parse({ name: 'Kettle', warrantyExpires: '2026-07-05' }), null, clock.now().toISOString());
    await new HomeInventoryStore(s.handle.deps.db).insertDevice(d);
    expect((await s.handle.deps.home.warranties.sweep()).sent).toBe(1);
    expect(await reminders()).toEqual([expect.objectContaining({ userId: null, deviceId: d.id, daysLeft: 4 })]);
    expect((await s.handle.deps.home.warranties.sweep()).sent).toBe(0);
  });
});
