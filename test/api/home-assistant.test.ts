// Home Assistant control over HTTP against the fake (issue 37): the admin's connection (checked
// before it is saved, the token never answered or logged), the kept-open WebSocket (its diffs in
// memory, a reconnect after the fake drops the socket, a revoked token as auth_failed with a
// sentence), exposure and each member's rights (403), guarded entities (409 without confirm, a deny
// member and a child's default), Home Assistant refusing (422), down or slow (503), the stream of
// allowed entities only, and the activity log. The token scan runs last.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EntitiesResponse } from '../../server/modules/home-assistant/schema.js';
import { startFakeHomeAssistant, type FakeHomeAssistant } from '../fakes/home-assistant.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { ask } from '../harness/chat.js';
import { createTokenScan } from '../harness/media-token-scan.js';
import { until } from '../harness/net.js';
import { connectSse } from '../harness/sse-client.js';
import { CLOSED_URL, startTestServer, type TestServer } from '../harness/start-server.js';

const WRONG_TOKEN = 'not-the-right-token-0000000000';

describe('Home Assistant control (/api/home-assistant, /api/admin/home-assistant)', () => {
  let fake: FakeHomeAssistant;
  let runtime: FakeModelRuntime;
  let s: TestServer;
  const scan = createTokenScan();

  beforeAll(async () => {
    fake = await startFakeHomeAssistant();
    runtime = await startFakeModelRuntime();
    // no fetchAllowOrigins: the admin-set address is let through the guard as a home-network origin
    s = await startTestServer({
      seed: 'household',
      config: { modelRuntimeUrl: runtime.url },
      overrides: { tuning: { homeAssistantTimeoutMs: 600, homeAssistantBackoffMs: { base: 20, max: 200 }, homeAssistantPingMs: 150 } },
    });
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    scan.watch(s);
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
    await runtime?.close();
  });

  const connect = () => s.admin.put('/api/admin/home-assistant/connection', { url: fake.url, token: fake.token });
  const entityIds = (body: EntitiesResponse) => body.areas.flatMap((a) => a.entities.map((e) => e.id)).sort();
  const act = (who: TestServer['member'], id: string, body: unknown) => who.post(`/api/home-assistant/entities/${id}/action`, body);
  const setChild = (child: boolean) => s.admin.put(`/api/admin/content/members/${s.users.member.id}`, { level: child ? 'child' : 'teen' });
  const setRights = (body: unknown) => s.admin.put(`/api/admin/home-assistant/members/${s.users.member.id}`, body);

  describe('who may ask', () => {
    it('answers 401 without a session and 403 to a member on the admin routes', async () => {
      for (const path of ['/api/home-assistant/entities', '/api/home-assistant/stream', '/api/admin/home-assistant/connection', '/api/admin/home-assistant/activity']) expect((await s.anon.get(path)).status).toBe(401);
      expect((await act(s.anon, 'light.kitchen', { service: 'turn_on' })).status).toBe(401);
      for (const path of ['/connection', '/exposed', '/members', '/activity']) expect((await s.member.get(`/api/admin/home-assistant${path}`)).status).toBe(403);
      expect((await s.member.put('/api/admin/home-assistant/connection', { url: fake.url, token: fake.token })).status).toBe(403);
      expect((await s.member.put('/api/admin/home-assistant/exposed', { entityIds: ['light.kitchen'] })).status).toBe(403);
      expect((await s.member.put(`/api/admin/home-assistant/members/${s.users.member.id}`, { allowed: 'all-exposed', guarded: 'confirm' })).status).toBe(403);
      expect(fake.log).toEqual([]);
    });
  });

  describe('not connected', () => {
    it('says so, with what to do, and refuses an action with 503 and a sentence', async () => {
      const c = await s.admin.get('/api/admin/home-assistant/connection');
      expect(c.body).toEqual({ url: null, tokenSet: false, connected: false, status: 'not_set', version: null, entityCount: 0, error: null });
      const m = await s.member.get('/api/home-assistant/entities');
      expect(m.body).toEqual({ status: 'not_set', message: expect.stringMatching(/Ask an admin to connect it/), areas: [] });
      const a = await act(s.member, 'light.kitchen', { service: 'turn_on' });
      expect(a.status).toBe(503);
      expect(a.body.error).toEqual({ code: 'home_assistant_unavailable', message: expect.stringMatching(/^Home Assistant is not answering/) });
      expect((await s.member.get('/api/home-assistant/favourites')).body).toEqual({ status: 'not_set', message: expect.stringMatching(/Ask an admin/), entities: [] });
      expect((await s.member.put('/api/home-assistant/favourites', { entityIds: ['light.kitchen'] })).status).toBe(503);
      expect(await s.handle.deps.db('home_assistant_favourites').count({ n: '*' }).first()).toEqual({ n: 0 });
    });
  });

  describe('PUT /connection checks before saving', () => {
    it('refuses bad input with 400 and its field', async () => {
      expect((await s.admin.put('/api/admin/home-assistant/connection', { url: fake.url })).status).toBe(400);
      expect((await s.admin.put('/api/admin/home-assistant/connection', { url: 'ftp://x', token: fake.token })).status).toBe(400);
      expect((await s.admin.put('/api/admin/home-assistant/connection', { url: fake.url, token: 'short' })).body.error.code).toBe('invalid_request');
    });

    it('a wrong token, nothing at the address, or something that is not Home Assistant: 422 sentences, nothing saved', async () => {
      const wrong = await s.admin.put('/api/admin/home-assistant/connection', { url: fake.url, token: WRONG_TOKEN });
      expect(wrong.status).toBe(422);
      expect(wrong.body.error).toEqual({ code: 'home_assistant_token_refused', message: expect.stringMatching(/did not accept that access token/) });
      const closed = await s.admin.put('/api/admin/home-assistant/connection', { url: CLOSED_URL, token: fake.token });
      expect(closed.body.error.code).toBe('home_assistant_unreachable');
      fake.garbage = true;
      const garbage = await s.admin.put('/api/admin/home-assistant/connection', { url: fake.url, token: fake.token });
      fake.garbage = false;
      expect(garbage.body.error).toEqual({ code: 'home_assistant_not_found', message: expect.stringMatching(/not as Home Assistant does/) });
      expect((await s.admin.get('/api/admin/home-assistant/connection')).body.status).toBe('not_set');
      expect(await s.handle.deps.db('home_assistant_connection').count({ n: '*' }).first()).toEqual({ n: 0 });
    });

    it('an address with a user name or a path is refused before anything is asked', async () => {
      fake.log.length = 0;
      const r = await s.admin.put('/api/admin/home-assistant/connection', { url: `http://user:pw@${new URL(fake.url).host}`, token: fake.token });
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body.error)).toMatch(/user name or password/);
      expect((await s.admin.put('/api/admin/home-assistant/connection', { url: `${fake.url}/lovelace/0`, token: fake.token })).status).toBe(400);
      expect(fake.log).toEqual([]);
    });

    it('connects: REST and auth_ok checked, the socket kept open with every entity in memory, the token never answered', async () => {
      const r = await connect();
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ url: fake.url, tokenSet: true, connected: true, status: 'connected', version: '2025.1.0', entityCount: fake.states.size, error: null });
      expect(fake.log).toEqual(expect.arrayContaining(['GET /api/', 'ws auth_ok', 'ws subscribe_entities', 'ws config/area_registry/list']));
      expect(fake.openSockets()).toBe(1);
    });
  });

  describe('exposure and rights', () => {
    it('nothing is exposed until the admin picks; the admin list shows every entity with its guarded default', async () => {
      expect((await s.member.get('/api/home-assistant/entities')).body).toEqual({ status: 'connected', message: null, areas: [] });
      const list = await s.admin.get('/api/admin/home-assistant/exposed');
      expect(list.body.entities).toHaveLength(fake.states.size);
      expect(list.body.entities.find((e: { id: string }) => e.id === 'cover.garage')).toMatchObject({ exposed: false, guarded: true, guardedByDefault: true, area: 'Hall' });
      expect(list.body.entities.find((e: { id: string }) => e.id === 'cover.living_room_blind')).toMatchObject({ guardedByDefault: false });
    });

    it('exposed entities are grouped by area, trimmed; a child by default sees no guarded entity', async () => {
      const r = await s.admin.put('/api/admin/home-assistant/exposed', {
        entityIds: ['light.kitchen', 'sensor.kitchen_temperature', 'light.living_room', 'lock.front_door', 'cover.garage', 'switch.porch', 'switch.kettle'],
        guarded: ['switch.kettle'],
      });
      expect(r.body).toEqual({ exposed: expect.any(Array), guarded: ['switch.kettle'] });
      const m = await s.member.get('/api/home-assistant/entities');
      EntitiesResponse.parse(m.body);
      expect(m.body.areas.map((a: { id: string | null; name: string }) => [a.id, a.name])).toEqual([
        ['hall', 'Hall'],
        ['kitchen', 'Kitchen'],
        ['living_room', 'Living room'],
        [null, 'Other'],
      ]);
      const kitchen = m.body.areas[1].entities;
      expect(kitchen.map((e: { id: string }) => e.id)).toEqual(['switch.kettle', 'light.kitchen', 'sensor.kitchen_temperature']);
      expect(kitchen[1]).toEqual({ id: 'light.kitchen', name: 'Kitchen light', domain: 'light', state: 'off', attributes: { brightness: null, supported_color_modes: ['brightness'] }, guarded: false, services: ['turn_on', 'turn_off', 'toggle'] });
      expect(m.body.areas[0].entities.map((e: { id: string; guarded: boolean }) => [e.id, e.guarded])).toEqual([
        ['lock.front_door', true],
        ['cover.garage', true],
      ]);

      await setChild(true);
      try {
        const child = await s.member.get('/api/home-assistant/entities');
        expect(entityIds(child.body)).toEqual(['light.kitchen', 'light.living_room', 'sensor.kitchen_temperature', 'switch.porch']);
        const members = await s.admin.get('/api/admin/home-assistant/members');
        expect(members.body.members.find((x: { userId: string }) => x.userId === s.users.member.id)).toMatchObject({ allowed: 'all-exposed', guarded: 'deny', child: true, custom: false });
        const unlock = await act(s.member, 'lock.front_door', { service: 'unlock', confirm: true });
        expect(unlock.status).toBe(403);
        expect(unlock.body.error.code).toBe('not_allowed');
      } finally {
        await setChild(false);
      }
    });

    it('an allowed list narrows what a member sees and may use; an unknown member is 404', async () => {
      const r = await setRights({ allowed: ['light.kitchen', 'lock.front_door', 'climate.living_room'], guarded: 'confirm' });
      expect(r.body.member).toMatchObject({ allowed: ['climate.living_room', 'light.kitchen', 'lock.front_door'], guarded: 'confirm', custom: true });
      try {
        // climate.living_room is allowed but not exposed: still unseen
        expect(entityIds((await s.member.get('/api/home-assistant/entities')).body)).toEqual(['light.kitchen', 'lock.front_door']);
        const r2 = await act(s.member, 'light.living_room', { service: 'turn_off' });
        expect(r2.status).toBe(403);
        expect((await act(s.member, 'climate.living_room', { service: 'set_temperature', data: { temperature: 22 } })).status).toBe(403);
        expect(fake.calls).toEqual([]);
      } finally {
        await setRights({ allowed: 'all-exposed', guarded: 'confirm' });
      }
      expect((await s.admin.put('/api/admin/home-assistant/members/4f7c1a9e-3b1d-4c1e-9d1a-000000000000', { allowed: 'all-exposed', guarded: 'deny' })).status).toBe(404);
      expect((await setRights({ allowed: 'everything', guarded: 'deny' })).status).toBe(400);
    });
  });

  describe('actions', () => {
    it('turns a light on through the socket and answers its new state', async () => {
      const r = await act(s.member, 'light.kitchen', { service: 'turn_on', data: { brightness_pct: 40 } });
      expect(r.status).toBe(200);
      expect(r.body.entity).toMatchObject({ id: 'light.kitchen', state: 'on', attributes: { brightness: 102 } });
      expect(fake.calls.at(-1)).toEqual({ via: 'ws', domain: 'light', service: 'turn_on', data: { brightness_pct: 40 }, entityIds: ['light.kitchen'] });
    });

    it('a guarded action needs confirm (409), then runs; a deny member is refused even with confirm', async () => {
      const before = fake.calls.length;
      const r = await act(s.member, 'lock.front_door', { service: 'unlock' });
      expect(r.status).toBe(409);
      expect(r.body.error).toMatchObject({ code: 'confirmation_required', message: expect.stringMatching(/Front door is a guarded device/) });
      expect((await act(s.member, 'switch.kettle', { service: 'turn_on' })).status).toBe(409);
      expect(fake.calls.length).toBe(before);
      const ok = await act(s.member, 'lock.front_door', { service: 'unlock', confirm: true });
      expect(ok.body.entity).toMatchObject({ state: 'unlocked', guarded: true });
      await setRights({ allowed: 'all-exposed', guarded: 'deny' });
      try {
        const denied = await act(s.member, 'lock.front_door', { service: 'lock', confirm: true });
        expect(denied.status).toBe(403);
      } finally {
        await setRights({ allowed: 'all-exposed', guarded: 'confirm' });
      }
    });

    it('refuses a service the domain does not offer (422), data naming another entity (400), an unexposed entity (403)', async () => {
      const before = fake.calls.length;
      const sensor = await act(s.member, 'sensor.kitchen_temperature', { service: 'turn_on' });
      expect(sensor.status).toBe(422);
      expect(sensor.body.error.code).toBe('service_not_offered');
      expect((await act(s.member, 'light.kitchen', { service: 'turn_on', data: { entity_id: 'lock.front_door' } })).status).toBe(400);
      expect((await act(s.member, 'light.kitchen', { service: 'turn_on', extra: 1 })).status).toBe(400);
      expect((await act(s.member, 'Light.Kitchen', { service: 'turn_on' })).status).toBe(400);
      expect((await act(s.member, 'alarm_control_panel.house', { service: 'alarm_disarm', confirm: true })).status).toBe(403);
      expect(fake.calls.length).toBe(before);
    });

    it('Home Assistant refusing is 422; no answer in time is 503 with a sentence', async () => {
      fake.refuse.add('switch.turn_on');
      const refused = await act(s.member, 'switch.porch', { service: 'turn_on' });
      fake.refuse.clear();
      expect(refused.status).toBe(422);
      expect(refused.body.error).toEqual({ code: 'home_assistant_refused', message: expect.stringMatching(/refused that action/) });
      fake.slowMs = 2_000;
      const slow = await act(s.member, 'switch.porch', { service: 'turn_on' });
      fake.slowMs = 0;
      expect(slow.status).toBe(503);
      expect(slow.body.error).toEqual({ code: 'home_assistant_unavailable', message: expect.stringMatching(/did not answer within 10 seconds/) });
    });

    it('every action asked for is in the activity log an admin reads', async () => {
      expect((await s.member.get('/api/admin/home-assistant/activity')).status).toBe(403);
      const r = await s.admin.get('/api/admin/home-assistant/activity');
      const rows = r.body.entries.map((e: { userName: string; entityId: string; service: string; outcome: string; source: string }) => `${e.userName} ${e.entityId} ${e.service} ${e.outcome} ${e.source}`);
      expect(rows).toEqual(
        expect.arrayContaining([
          'Sam light.kitchen turn_on done app',
          'Sam lock.front_door unlock done app',
          'Sam lock.front_door lock denied app',
          'Sam switch.porch turn_on refused app',
          'Sam switch.porch turn_on unavailable app',
        ]),
      );
      expect(r.body.entries[0].at).toMatch(/^\d{4}-\d\d-\d\dT/);
    });
  });

  describe('favourites (the home screen widget)', () => {
    const favIds = async (who: TestServer['member']) => ((await who.get('/api/home-assistant/favourites')).body.entities as Array<{ id: string }>).map((e) => e.id);

    it('a member pins devices they may see, in their order; private to them; 401 without a session', async () => {
      expect((await s.anon.get('/api/home-assistant/favourites')).status).toBe(401);
      expect((await s.anon.put('/api/home-assistant/favourites', { entityIds: [] })).status).toBe(401);
      expect(await favIds(s.member)).toEqual([]);
      const r = await s.member.put('/api/home-assistant/favourites', { entityIds: ['lock.front_door', 'light.kitchen', 'lock.front_door'] });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: 'connected', message: null });
      expect(r.body.entities.map((e: { id: string; guarded: boolean }) => [e.id, e.guarded])).toEqual([
        ['lock.front_door', true],
        ['light.kitchen', false],
      ]);
      expect(r.body.entities[1]).toMatchObject({ name: 'Kitchen light', services: ['turn_on', 'turn_off', 'toggle'] });
      // another member's favourites are theirs alone
      expect(await favIds(s.admin)).toEqual([]);
    });

    it('refuses a device the member may not see (403), bad ids (400) and too many (400), keeping the list', async () => {
      const notExposed = await s.member.put('/api/home-assistant/favourites', { entityIds: ['light.kitchen', 'alarm_control_panel.house'] });
      expect(notExposed.status).toBe(403);
      expect(notExposed.body.error.code).toBe('not_allowed');
      expect((await s.member.put('/api/home-assistant/favourites', { entityIds: ['Light.Kitchen'] })).status).toBe(400);
      expect((await s.member.put('/api/home-assistant/favourites', { entityIds: Array.from({ length: 25 }, (_, i) => `light.l${i}`) })).status).toBe(400);
      expect((await s.member.put('/api/home-assistant/favourites', {})).status).toBe(400);
      expect(await favIds(s.member)).toEqual(['lock.front_door', 'light.kitchen']);
    });

    it('only what the member may still see is returned: a deny member loses the lock, which comes back with the right', async () => {
      await setRights({ allowed: 'all-exposed', guarded: 'deny' });
      try {
        expect(await favIds(s.member)).toEqual(['light.kitchen']);
        expect((await s.member.put('/api/home-assistant/favourites', { entityIds: ['lock.front_door'] })).status).toBe(403);
      } finally {
        await setRights({ allowed: 'all-exposed', guarded: 'confirm' });
      }
      expect(await favIds(s.member)).toEqual(['lock.front_door', 'light.kitchen']);
    });
  });

  describe('chat tool home_control', () => {
    const ctx = () => ({ actor: { kind: 'user' as const, id: s.users.member.id, name: 'Sam', role: 'member' as const, sessionId: 'chat-test' }, signal: new AbortController().signal });
    const tool = () => s.handle.deps.chatTools.get('home_control')!;

    it('reads what the member may see, acts on an ordinary device, and never operates a guarded one', async () => {
      const read = await tool().run({}, ctx());
      expect(read.content).toContain('Kitchen light (light.kitchen)');
      expect(read.content).toContain('Front door (lock.front_door): unlocked [guarded');
      expect(read.content).not.toContain('alarm_control_panel.house');
      const before = fake.calls.length;
      const unlock = await tool().run({ entity: 'Front door', service: 'lock' }, ctx());
      expect(unlock.content).toMatch(/guarded device, so chat does not operate it.*button/);
      expect(unlock.action).toEqual({ kind: 'home_action', entityId: 'lock.front_door', service: 'lock', data: {}, label: 'Lock Front door' });
      const kettle = await tool().run({ entity: 'switch.kettle', service: 'turn_on' }, ctx());
      expect(kettle.content).toMatch(/guarded device/);
      expect(kettle.action).toMatchObject({ entityId: 'switch.kettle', service: 'turn_on' });
      // a service the device does not offer is neither run nor proposed
      const odd = await tool().run({ entity: 'Front door', service: 'turn_on' }, ctx());
      expect(odd.content).toMatch(/cannot turn on/);
      expect(odd.action).toBeUndefined();
      expect(fake.calls.length).toBe(before);
      expect(fake.states.get('lock.front_door')?.state).toBe('unlocked');
      const done = await tool().run({ entity: 'kitchen light', service: 'turn_on', brightness_pct: 20 }, ctx());
      expect(done.content).toMatch(/^Done\. - Kitchen light \(light\.kitchen\): on, brightness 20%/);
      expect(fake.calls.at(-1)).toMatchObject({ domain: 'light', service: 'turn_on', data: { brightness_pct: 20 } });
      const log = (await s.admin.get('/api/admin/home-assistant/activity')).body.entries[0];
      expect(log).toMatchObject({ userName: 'Sam', entityId: 'light.kitchen', service: 'turn_on', source: 'chat', outcome: 'done' });
      expect((await tool().run({ entity: 'House alarm' }, ctx())).content).toBe('No device the member may see matches "House alarm".');
    });

    it('in a chat answer, a guarded action comes as a button the member confirms; a deny member gets none', async () => {
      expect((await s.admin.put('/api/tools/home_control/enabled', { enabled: true })).status).toBe(200);
      runtime.toolScript = (req) => (req.messages.at(-1)?.role === 'user' ? [{ function: { name: 'home_control', arguments: { entity: 'front door', service: 'lock' } } }] : null);
      try {
        const before = fake.calls.length;
        const a = await ask(s.member, { message: 'Lock the front door' });
        expect(a.status).toBe(200);
        const result = a.get('tool_result');
        expect(result).toMatchObject({ name: 'home_control', status: 'ok', action: { kind: 'home_action', entityId: 'lock.front_door', service: 'lock', label: 'Lock Front door' } });
        expect(fake.calls.length).toBe(before);
        // the proposal is kept with the answer, so the button is there when the chat is opened again
        const conv = (await s.member.get(`/api/chat/conversations/${a.get('conversation').id}`)).body.conversation;
        expect(conv.messages.at(-1).toolCalls[0].action).toEqual(result.action);
        // the button's request: the member's confirmation, their rights checked again
        const pressed = await act(s.member, result.action.entityId, { service: result.action.service, data: result.action.data, confirm: true });
        expect(pressed.status).toBe(200);
        expect(pressed.body.entity).toMatchObject({ id: 'lock.front_door', state: 'locked' });

        await setRights({ allowed: 'all-exposed', guarded: 'deny' });
        try {
          const denied = await ask(s.member, { message: 'Unlock the front door' });
          expect(denied.get('tool_result')).toMatchObject({ name: 'home_control', status: 'ok' });
          expect(denied.get('tool_result').action).toBeUndefined();
          expect(denied.get('tool_result').summary).toMatch(/no such device/);
          // a stale button from before is refused by the server
          expect((await act(s.member, 'lock.front_door', { service: 'unlock', confirm: true })).status).toBe(403);
        } finally {
          await setRights({ allowed: 'all-exposed', guarded: 'confirm' });
        }
      } finally {
        runtime.toolScript = null;
      }
    });
  });

  describe('live', () => {
    it('the stream carries changes of the entities the member may see, and nothing else', async () => {
      await setRights({ allowed: 'all-exposed', guarded: 'deny' });
      const sse = await connectSse(s.url, '/api/home-assistant/stream', { cookie: s.member.cookie! });
      try {
        expect(sse.status).toBe(200);
        await sse.waitFor((e) => e.event === 'status' && e.data.status === 'connected');
        fake.setState('alarm_control_panel.house', 'disarmed'); // not exposed
        fake.setState('lock.front_door', 'unlocked'); // guarded, the member is deny
        fake.setState('switch.kettle', 'on'); // guarded by the admin's pick
        fake.setState('light.living_room', 'off', { friendly_name: 'Living room lamp', brightness: null });
        const ev = await sse.waitFor((e) => e.event === 'entity');
        expect(ev.data.entity).toMatchObject({ id: 'light.living_room', state: 'off' });
        fake.setState('light.kitchen', 'off');
        await sse.waitFor((e) => e.event === 'entity' && e.data.entity.id === 'light.kitchen');
        const ids = sse.events.filter((e) => e.event === 'entity').map((e) => e.data.entity.id);
        expect(ids).toEqual(['light.living_room', 'light.kitchen']);
      } finally {
        sse.close();
        await setRights({ allowed: 'all-exposed', guarded: 'confirm' });
      }
    });

    it('reconnects after Home Assistant drops the socket, and applies changes made meanwhile', async () => {
      const auths = fake.authCount();
      fake.dropSockets();
      fake.setState('light.kitchen', 'on', { friendly_name: 'Kitchen light', brightness: 200 });
      await until(async () => fake.authCount() > auths && (await s.admin.get('/api/admin/home-assistant/connection')).body.connected, 'the reconnect');
      await until(async () => (await s.member.get('/api/home-assistant/entities')).body.areas.flatMap((a: { entities: Array<{ id: string; state: string }> }) => a.entities).find((e: { id: string }) => e.id === 'light.kitchen')?.state === 'on', 'the change from the snapshot');
      const r = await act(s.member, 'light.kitchen', { service: 'turn_off' });
      expect(r.body.entity.state).toBe('off');
    });

    it('notices a socket that stops answering without closing (no pong in time), and reconnects', async () => {
      const auths = fake.authCount();
      fake.muteSockets();
      await until(async () => fake.authCount() > auths && (await s.admin.get('/api/admin/home-assistant/connection')).body.connected, 'the reconnect after a missing pong');
      expect(fake.log).toContain('ws ping');
      fake.setState('switch.porch', 'on');
      await until(async () => (await s.member.get('/api/home-assistant/entities')).body.areas.flatMap((a: { entities: Array<{ id: string; state: string }> }) => a.entities).find((e: { id: string }) => e.id === 'switch.porch')?.state === 'on', 'a change on the new socket');
      const r = await act(s.member, 'switch.porch', { service: 'turn_off' });
      expect(r.body.entity.state).toBe('off');
    });

    it('a revoked token shows as auth_failed with a sentence, and is not retried', async () => {
      fake.revokeToken();
      await until(async () => (await s.admin.get('/api/admin/home-assistant/connection')).body.status === 'auth_failed', 'auth_failed');
      const c = await s.admin.get('/api/admin/home-assistant/connection');
      expect(c.body).toMatchObject({ connected: false, status: 'auth_failed', error: expect.stringMatching(/no longer accepts the access token/) });
      const a = await act(s.member, 'light.kitchen', { service: 'turn_on' });
      expect(a.status).toBe(503);
      const m = await s.member.get('/api/home-assistant/entities');
      expect(m.body.message).toMatch(/no longer accepts the access token/);
      const auths = fake.authCount();
      const tries = fake.log.filter((l) => l === 'ws auth_invalid').length;
      expect(tries).toBe(1);
      expect(fake.authCount()).toBe(auths);
      fake.issueToken('ha-second-long-lived-token-fedcba9876543210');
      expect((await connect()).body.status).toBe('connected');
    });

    it('a Home Assistant without the registries still gives its states, without rooms', async () => {
      fake.unknownCommands.add('config/area_registry/list');
      fake.unknownCommands.add('config/entity_registry/list_for_display');
      const auths = fake.authCount();
      fake.dropSockets();
      try {
        await until(async () => fake.authCount() > auths && (await s.admin.get('/api/admin/home-assistant/connection')).body.connected, 'the reconnect');
        const m = await s.member.get('/api/home-assistant/entities');
        expect(m.body.areas.map((a: { id: string | null }) => a.id)).toEqual([null]);
        expect(m.body.areas[0].entities.map((e: { id: string }) => e.id)).toContain('light.kitchen');
      } finally {
        fake.unknownCommands.clear();
      }
    });

    it('DELETE /connection closes the socket and forgets the token', async () => {
      const r = await s.admin.delete('/api/admin/home-assistant/connection');
      expect(r.body.status).toBe('not_set');
      await until(() => fake.openSockets() === 0, 'the socket closed');
      expect(await s.handle.deps.db('home_assistant_connection').count({ n: '*' }).first()).toEqual({ n: 0 });
    });
  });

  it('no token reached an answer or a log line', () => {
    scan.expectNoTokens(['ha-long-lived-token-0123456789abcdef', 'ha-second-long-lived-token-fedcba9876543210', WRONG_TOKEN]);
  });
});
