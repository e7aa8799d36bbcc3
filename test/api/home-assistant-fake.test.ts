// The Home Assistant fake (test/fakes/home-assistant.ts) driven by the official JavaScript client,
// home-assistant-js-websocket 9, so the fake Hearth's tests rely on speaks Home Assistant's
// protocol (reference/home-assistant.md §3-§4): auth, subscribe_entities with the first snapshot and
// the diffs after a call_service, HA's not_found for an unknown service, a rejected token as the
// client's ERR_INVALID_AUTH, and the REST rows (401 without a token, a service call's changed states).
import { callService, createConnection, createLongLivedTokenAuth, ERR_INVALID_AUTH, subscribeEntities, type HassEntities } from 'home-assistant-js-websocket';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startFakeHomeAssistant, type FakeHomeAssistant } from '../fakes/home-assistant.js';
import { until } from '../harness/net.js';

describe('the Home Assistant fake, driven by home-assistant-js-websocket', () => {
  let fake: FakeHomeAssistant;
  const g = globalThis as { WebSocket?: unknown };
  const hadWebSocket = g.WebSocket;
  beforeAll(async () => {
    fake = await startFakeHomeAssistant();
    // Node 20 has no global WebSocket; the client takes the one it finds there (reference §3)
    g.WebSocket = WebSocket;
  });
  afterAll(async () => {
    g.WebSocket = hadWebSocket;
    await fake?.close();
  });

  it('authenticates, gives the snapshot, then the change a service call made', async () => {
    const conn = await createConnection({ auth: createLongLivedTokenAuth(fake.url, fake.token) });
    try {
      expect(conn.haVersion).toBe('2025.1.0');
      let seen: HassEntities = {};
      const unsub = subscribeEntities(conn, (e) => (seen = e));
      await until(() => seen['light.kitchen']?.state === 'off', 'the first snapshot');
      expect(seen['lock.front_door']?.attributes.friendly_name).toBe('Front door');
      await callService(conn, 'light', 'turn_on', { brightness_pct: 50 }, { entity_id: 'light.kitchen' });
      await until(() => seen['light.kitchen']?.state === 'on', 'the light on');
      expect(seen['light.kitchen']?.attributes.brightness).toBe(128);
      await expect(callService(conn, 'light', 'explode', {}, { entity_id: 'light.kitchen' })).rejects.toEqual({ code: 'not_found', message: 'Service light.explode not found.' });
      fake.removeEntity('switch.porch');
      await until(() => !('switch.porch' in seen), 'the porch switch removed');
      unsub();
    } finally {
      conn.close();
    }
  });

  it('a rejected token is the client’s ERR_INVALID_AUTH', async () => {
    await expect(createConnection({ auth: createLongLivedTokenAuth(fake.url, 'not-the-token') })).rejects.toBe(ERR_INVALID_AUTH);
  });

  it('REST: 401 without a token, the changed states of a service call with one', async () => {
    const anon = await request(`${fake.url}/api/`);
    expect(anon.statusCode).toBe(401);
    expect(await anon.body.text()).toBe('401: Unauthorized');
    const headers = { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' };
    const ok = await request(`${fake.url}/api/`, { headers });
    expect(await ok.body.json()).toEqual({ message: 'API running.' });
    const r = await request(`${fake.url}/api/services/lock/unlock`, { method: 'POST', headers, body: JSON.stringify({ entity_id: 'lock.front_door' }) });
    expect(r.statusCode).toBe(200);
    expect(((await r.body.json()) as Array<{ entity_id: string; state: string }>).map((s) => [s.entity_id, s.state])).toEqual([['lock.front_door', 'unlocked']]);
  });
});
