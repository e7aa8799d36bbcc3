// Change monitoring against the real server with the fake capture engine and a manual clock:
// which items are due, the daily default, the one notification a change sends (to the owner
// only), and what never notifies (unchanged text, alerts off, a challenge page, the baseline).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../server/platform/clock.js';
import { MONITOR_TASK, type ReaderMonitor } from '../../server/modules/reader/monitor.js';
import { FakeCaptureEngine } from '../fakes/capture-engine.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import type { TestClient } from '../harness/client.js';
import { waitFor } from '../harness/net.js';

const MIN = 60_000;
const clock = createManualClock(new Date('2026-03-02T08:00:00Z'));
const engine = new FakeCaptureEngine();
let server: TestServer;
let monitor: ReaderMonitor;
let n = 0;

/** A monitored item whose baseline capture has finished. */
async function monitored(client: TestClient, body: Record<string, unknown> = {}, text = 'First version of the page.') {
  const url = `https://news${++n}.example.org/story`;
  engine.setPage(url, { title: `Story ${n}`, text, siteName: `News ${n}` });
  const r = await client.post('/api/reader', { url, type: 'offline', autoUpdate: true, alertOnChange: true, ...body });
  expect(r.status, r.text).toBe(201);
  const id = r.body.item.id as string;
  await waitFor(async () => {
    const g = await client.get(`/api/reader/${id}`);
    return g.body.item?.archiveState === 'ready' && g.body.item;
  }, 'baseline capture', 5000);
  return { id, url };
}

const notificationsOf = async (client: TestClient) => (await client.get('/api/notifications')).body.notifications as Array<{ type: string; payload: Record<string, unknown>; userId: string }>;
const changesOf = async (client: TestClient, id: string) => (await client.get(`/api/reader/${id}/changes`)).body.changes as Array<{ changed: boolean }>;

describe('reader change monitor', () => {
  beforeAll(async () => {
    server = await startTestServer({ seed: 'household', overrides: { clock, captureEngine: engine } });
    monitor = server.handle.deps.readerMonitor;
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    // Every test starts with no monitored item due: earlier tests' items are switched off.
    await server.handle.deps.db('reader_items').update({ auto_update: false });
    await server.handle.deps.db('notifications').delete();
  });
  afterEach(() => {
    clock.advance(1000);
  });

  it('is registered with the scheduler as a named task', () => {
    expect(MONITOR_TASK).toBe('reader.monitor');
    expect(() => server.handle.deps.scheduler.every(MONITOR_TASK, 1000, () => {})).toThrow(/already exists/);
  });

  it('a baseline capture never notifies; an item is due only after its interval', async () => {
    const { id } = await monitored(server.member, { autoUpdateIntervalMins: 60 });
    expect(await monitor.dueItemIds()).toEqual([]);
    clock.advance(59 * MIN);
    expect(await monitor.dueItemIds()).toEqual([]);
    clock.advance(1 * MIN);
    expect(await monitor.dueItemIds()).toEqual([id]);
    expect(await notificationsOf(server.member)).toEqual([]);
  });

  it('no interval means daily', async () => {
    const { id } = await monitored(server.member, { autoUpdateIntervalMins: null });
    clock.advance(23 * 60 * MIN);
    expect(await monitor.dueItemIds()).toEqual([]);
    clock.advance(60 * MIN);
    expect(await monitor.dueItemIds()).toEqual([id]);
  });

  it('never-checked items are due at once, oldest check first', async () => {
    const a = await monitored(server.member, { autoUpdateIntervalMins: 30 });
    clock.advance(10 * MIN);
    const b = await monitored(server.member, { autoUpdateIntervalMins: 30 });
    await server.handle.deps.db('reader_items').where({ id: b.id }).update({ last_checked_at: null });
    clock.advance(30 * MIN);
    expect(await monitor.dueItemIds()).toEqual([b.id, a.id]);
  });

  it('an item whose baseline capture is still queued or running is left to the capture queue', async () => {
    const url = `https://news${++n}.example.org/story`;
    engine.setPage(url, { text: 'Slow page.' });
    engine.hold();
    const started = engine.nextStart();
    const r = await server.member.post('/api/reader', { url, type: 'offline', autoUpdate: true, alertOnChange: true });
    await started; // fetching now
    const before = engine.calls.length;
    expect(await monitor.tick()).toEqual({ checked: 0, changed: 0, notified: 0, failed: 0 });
    engine.release();
    await waitFor(async () => (await server.member.get(`/api/reader/${r.body.item.id}`)).body.item.archiveState === 'ready', 'baseline', 5000);
    expect(engine.calls.length - before).toBe(0);
  });

  it('changed text: exactly one system notification, to the owner only, naming the item and linking to it', async () => {
    const { id, url } = await monitored(server.member, { autoUpdateIntervalMins: 60 });
    engine.setPage(url, { title: `Story ${n}`, text: 'Second version: the council changed its mind.', siteName: `News ${n}` });
    clock.advance(61 * MIN);
    const before = engine.calls.length;
    expect(await monitor.tick()).toEqual({ checked: 1, changed: 1, notified: 1, failed: 0 });
    expect(engine.calls.length - before).toBe(1);
    expect(engine.calls.at(-1)!.url).toBe(url);

    const mine = await notificationsOf(server.member);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ type: 'system', userId: server.users.member.id });
    expect(mine[0]!.payload).toMatchObject({ kind: 'reader_change', itemId: id, title: `“Story ${n}” changed`, link: `/reader/${id}` });
    expect(String(mine[0]!.payload.body)).toContain(`News ${n}`);
    expect(String(mine[0]!.payload.body)).toContain(`/reader/${id}`);
    // The admin sees admin-targeted rows too; none were made.
    expect(await notificationsOf(server.admin)).toEqual([]);

    const item = (await server.member.get(`/api/reader/${id}`)).body.item;
    expect(item.contentText).toContain('Second version');
    expect(item.contentChangedAt).toBe(clock.now().toISOString());
    expect(item.lastCheckedAt).toBe(clock.now().toISOString());
    expect((await changesOf(server.member, id))[0]).toMatchObject({ changed: true });

    // Checked just now: the next tick does nothing.
    expect(await monitor.tick()).toEqual({ checked: 0, changed: 0, notified: 0, failed: 0 });
    expect(await notificationsOf(server.member)).toHaveLength(1);
  });

  it('unchanged text: checked, no notification', async () => {
    const { id } = await monitored(server.member, { autoUpdateIntervalMins: 15 });
    clock.advance(15 * MIN);
    expect(await monitor.tick()).toEqual({ checked: 1, changed: 0, notified: 0, failed: 0 });
    expect(await notificationsOf(server.member)).toEqual([]);
    const item = (await server.member.get(`/api/reader/${id}`)).body.item;
    expect(item.lastCheckedAt).toBe(clock.now().toISOString());
    expect(item.contentChangedAt).toBeNull();
  });

  it('alertOnChange off: the change is recorded but nobody is notified', async () => {
    const { id, url } = await monitored(server.member, { autoUpdateIntervalMins: 15, alertOnChange: false });
    engine.setPage(url, { text: 'Quietly edited.' });
    clock.advance(15 * MIN);
    expect(await monitor.tick()).toEqual({ checked: 1, changed: 1, notified: 0, failed: 0 });
    expect(await notificationsOf(server.member)).toEqual([]);
    expect((await server.member.get(`/api/reader/${id}`)).body.item.contentChangedAt).toBe(clock.now().toISOString());
  });

  it('a challenge page is not a change: no notification, content kept, retried later', async () => {
    const { id, url } = await monitored(server.member, { autoUpdateIntervalMins: 30 });
    engine.fail(url, 'challenge');
    clock.advance(30 * MIN);
    expect(await monitor.tick()).toEqual({ checked: 1, changed: 0, notified: 0, failed: 1 });
    expect(await notificationsOf(server.member)).toEqual([]);
    const item = (await server.member.get(`/api/reader/${id}`)).body.item;
    expect(item.contentText).toBe('First version of the page.');
    expect(item.archiveState).toBe('failed');
    expect(item.archiveError).toMatch(/bot check/);
    expect(item.contentChangedAt).toBeNull();
    expect((await changesOf(server.member, id)).filter((c) => c.changed)).toEqual([]);

    // Not hammered every tick: due again after its interval.
    clock.advance(5 * MIN);
    expect(await monitor.dueItemIds()).toEqual([]);
    clock.advance(25 * MIN);
    expect(await monitor.dueItemIds()).toEqual([id]);
    engine.clearFailure(url);
    expect(await monitor.tick()).toEqual({ checked: 1, changed: 0, notified: 0, failed: 0 });
    expect((await server.member.get(`/api/reader/${id}`)).body.item.archiveState).toBe('ready');
  });

  it('only its owner hears about an item; other members’ items notify them, not the first', async () => {
    const mine = await monitored(server.member, { autoUpdateIntervalMins: 15 });
    const theirs = await monitored(server.admin, { autoUpdateIntervalMins: 15 });
    engine.setPage(theirs.url, { title: 'Admin story', text: 'Changed for the admin.' });
    clock.advance(15 * MIN);
    expect(await monitor.tick()).toMatchObject({ checked: 2, changed: 1, notified: 1 });
    expect(await notificationsOf(server.member)).toEqual([]);
    const adminRows = await notificationsOf(server.admin);
    expect(adminRows).toHaveLength(1);
    expect(adminRows[0]).toMatchObject({ userId: server.users.admin.id, payload: { itemId: theirs.id } });
    expect(mine.id).not.toBe(theirs.id);
  });

  it('an item deleted while the poll runs is skipped without error or notification', async () => {
    const a = await monitored(server.member, { autoUpdateIntervalMins: 15 });
    const b = await monitored(server.member, { autoUpdateIntervalMins: 15 });
    engine.setPage(a.url, { text: 'A changed.' });
    engine.setPage(b.url, { text: 'B changed.' });
    clock.advance(15 * MIN);
    engine.hold();
    const started = engine.nextStart();
    const tick = monitor.tick();
    const first = await started;
    // Delete the item being captured and the one waiting behind it.
    for (const id of [a.id, b.id]) expect((await server.member.delete(`/api/reader/${id}`)).status).toBe(204);
    engine.release();
    const result = await tick;
    expect(first.url === a.url || first.url === b.url).toBe(true);
    expect(result.notified).toBe(0);
    expect(result.changed).toBe(0);
    expect(await notificationsOf(server.member)).toEqual([]);
  });

  it('ticks never overlap: a second call while one runs shares it', async () => {
    const { url } = await monitored(server.member, { autoUpdateIntervalMins: 15 });
    engine.setPage(url, { text: 'Changed once more.' });
    clock.advance(15 * MIN);
    engine.hold();
    const started = engine.nextStart();
    const before = engine.calls.length;
    const t1 = monitor.tick();
    await started;
    const t2 = monitor.tick();
    engine.release();
    const [r1, r2] = await Promise.all([t1, t2]);
    expect(r1).toBe(r2);
    expect(engine.calls.length - before).toBe(1);
    expect(await notificationsOf(server.member)).toHaveLength(1);
  });
});
