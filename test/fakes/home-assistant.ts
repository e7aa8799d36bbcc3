// A protocol-faithful stand-in for Home Assistant (reference/home-assistant.md §2-§4): node:http for
// the REST rows Hearth uses (GET /api/, /api/config, /api/states, /api/states/:id, POST
// /api/services/:domain/:service) and a ws WebSocket server at /api/websocket speaking the auth
// phase (auth_required, auth accepted before or after it as the official client sends it, auth_ok /
// auth_invalid and close) and the commands supported_features, ping, get_states, get_config,
// get_services, subscribe_events (state_changed), subscribe_entities (the a/c/r diffs),
// unsubscribe_events, call_service, config/area_registry/list and
// config/entity_registry/list_for_display, with id ordering (id_reuse) and HA's error codes.
// A service call changes the entity as Home Assistant would and pushes the diff to subscribers.
//
// Failure knobs, set per test: `revokeToken()` (every later auth is auth_invalid, REST 401),
// `dropSockets()` (every socket closed mid-session), `muteSockets()` (every open socket stops
// answering, and gets no events, without being closed: a silently dead connection), `slowMs` (call_service results come late),
// `down` (REST refused with a destroyed socket and WebSocket upgrades refused), `garbage` (REST
// answers HTML), `refuse` (a service answered with service_validation_error), `unknownCommands`
// (commands an older Home Assistant does not know).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export const FAKE_HA_VERSION = '2025.1.0';

export interface FakeState {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  last_changed: string;
  last_reported: string;
  last_updated: string;
  context: { id: string; parent_id: null; user_id: string | null };
}

export interface FakeEntitySeed {
  id: string;
  state: string;
  attributes?: Record<string, unknown>;
  area?: string | null;
}

export interface ServiceCallLog {
  via: 'ws' | 'rest';
  domain: string;
  service: string;
  data: Record<string, unknown>;
  entityIds: string[];
}

export interface FakeHomeAssistant {
  url: string;
  token: string;
  states: Map<string, FakeState>;
  calls: ServiceCallLog[];
  /** Every REST request and WebSocket command seen, in order (the token never recorded). */
  log: string[];
  /** How many WebSocket connections reached auth_ok. */
  authCount(): number;
  openSockets(): number;
  slowMs: number;
  down: boolean;
  garbage: boolean;
  /** `domain.service` names answered with service_validation_error. */
  refuse: Set<string>;
  /** WebSocket commands answered unknown_command (an older Home Assistant). */
  unknownCommands: Set<string>;
  setState(id: string, state: string, attributes?: Record<string, unknown>): void;
  removeEntity(id: string): void;
  revokeToken(): void;
  /** A new token becomes the valid one. */
  issueToken(token: string): void;
  dropSockets(): void;
  /** The sockets open now stop answering (no results, pongs or events) but stay open; later ones work. */
  muteSockets(): void;
  reset(): void;
  close(): Promise<void>;
}

export const DEFAULT_AREAS = [
  { area_id: 'kitchen', name: 'Kitchen' },
  { area_id: 'living_room', name: 'Living room' },
  { area_id: 'hall', name: 'Hall' },
];

export const DEFAULT_ENTITIES: FakeEntitySeed[] = [
  { id: 'light.kitchen', state: 'off', attributes: { friendly_name: 'Kitchen light', brightness: null, supported_color_modes: ['brightness'] }, area: 'kitchen' },
  { id: 'switch.kettle', state: 'off', attributes: { friendly_name: 'Kettle' }, area: 'kitchen' },
  { id: 'sensor.kitchen_temperature', state: '21.5', attributes: { friendly_name: 'Kitchen temperature', unit_of_measurement: '°C', device_class: 'temperature' }, area: 'kitchen' },
  { id: 'light.living_room', state: 'on', attributes: { friendly_name: 'Living room lamp', brightness: 128, supported_color_modes: ['brightness'] }, area: 'living_room' },
  {
    id: 'climate.living_room',
    state: 'heat',
    attributes: { friendly_name: 'Thermostat', current_temperature: 20, temperature: 21, min_temp: 7, max_temp: 30, target_temp_step: 0.5, hvac_modes: ['off', 'heat'] },
    area: 'living_room',
  },
  { id: 'cover.living_room_blind', state: 'closed', attributes: { friendly_name: 'Blind', current_position: 0, device_class: 'blind', supported_features: 15 }, area: 'living_room' },
  { id: 'lock.front_door', state: 'locked', attributes: { friendly_name: 'Front door', supported_features: 1 }, area: 'hall' },
  { id: 'cover.garage', state: 'closed', attributes: { friendly_name: 'Garage door', device_class: 'garage', supported_features: 3 }, area: 'hall' },
  { id: 'alarm_control_panel.house', state: 'armed_away', attributes: { friendly_name: 'House alarm', code_format: null, supported_features: 3 }, area: 'hall' },
  { id: 'switch.porch', state: 'off', attributes: { friendly_name: 'Porch light' }, area: null },
];

interface Conn {
  ws: WebSocket;
  authed: boolean;
  /** Silently dead: nothing it sends is read, nothing is sent to it. */
  muted: boolean;
  lastId: number;
  /** subscription id -> kind */
  subs: Map<number, { kind: 'entities' | 'events'; entityIds?: string[] }>;
}

const iso = () => new Date().toISOString();
const epoch = (s: string) => Date.parse(s) / 1000;
let contextSeq = 0;
const newContext = () => ({ id: `01FAKE${String(++contextSeq).padStart(20, '0')}`, parent_id: null, user_id: null });

/** The compressed state of subscribe_entities: {s, a, c, lc, lu?}. */
function compressed(st: FakeState) {
  const out: Record<string, unknown> = { s: st.state, a: st.attributes, c: st.context.id, lc: epoch(st.last_changed) };
  if (st.last_updated !== st.last_changed) out.lu = epoch(st.last_updated);
  return out;
}

/** The diff between two states as subscribe_entities sends it: {"+": {...}, "-": {a: [...]}}. */
function diffOf(before: FakeState, after: FakeState) {
  const plus: Record<string, unknown> = {};
  if (before.state !== after.state) plus.s = after.state;
  const changed: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(after.attributes)) if (JSON.stringify(before.attributes[k]) !== JSON.stringify(v)) changed[k] = v;
  if (Object.keys(changed).length) plus.a = changed;
  plus.c = after.context.id;
  if (after.last_changed !== before.last_changed) plus.lc = epoch(after.last_changed);
  else plus.lu = epoch(after.last_updated);
  const removed = Object.keys(before.attributes).filter((k) => !(k in after.attributes));
  return removed.length ? { '+': plus, '-': { a: removed } } : { '+': plus };
}

export async function startFakeHomeAssistant(opts: { entities?: FakeEntitySeed[]; token?: string } = {}): Promise<FakeHomeAssistant> {
  let token = opts.token ?? 'ha-long-lived-token-0123456789abcdef';
  const revoked = new Set<string>();
  const states = new Map<string, FakeState>();
  const areaOf = new Map<string, string | null>();
  const seed = (list: FakeEntitySeed[]) => {
    states.clear();
    areaOf.clear();
    const now = iso();
    for (const e of list) {
      states.set(e.id, { entity_id: e.id, state: e.state, attributes: { ...(e.attributes ?? {}) }, last_changed: now, last_reported: now, last_updated: now, context: newContext() });
      areaOf.set(e.id, e.area ?? null);
    }
  };
  seed(opts.entities ?? DEFAULT_ENTITIES);
  const calls: ServiceCallLog[] = [];
  const log: string[] = [];
  const conns = new Set<Conn>();
  const sockets = new Set<Socket>();
  let auths = 0;

  const validToken = (t: unknown) => typeof t === 'string' && t === token && !revoked.has(t);

  const send = (c: Conn, msg: unknown) => {
    if (c.ws.readyState === c.ws.OPEN && !c.muted) c.ws.send(JSON.stringify(msg));
  };

  const broadcast = (id: string, before: FakeState | null, after: FakeState | null) => {
    for (const c of conns) {
      for (const [subId, sub] of c.subs) {
        if (sub.kind === 'entities') {
          if (sub.entityIds && !sub.entityIds.includes(id)) continue;
          const event = after === null ? { r: [id] } : before === null ? { a: { [id]: compressed(after) } } : { c: { [id]: diffOf(before, after) } };
          send(c, { id: subId, type: 'event', event });
        } else {
          send(c, { id: subId, type: 'event', event: { event_type: 'state_changed', data: { entity_id: id, old_state: before, new_state: after }, origin: 'LOCAL', time_fired: iso(), context: after?.context ?? newContext() } });
        }
      }
    }
  };

  const write = (id: string, state: string, attributes: Record<string, unknown>): FakeState => {
    const before = states.get(id) ?? null;
    const now = iso();
    const after: FakeState = {
      entity_id: id,
      state,
      attributes,
      last_changed: before && before.state === state ? before.last_changed : now,
      last_reported: now,
      last_updated: now,
      context: newContext(),
    };
    states.set(id, after);
    if (!areaOf.has(id)) areaOf.set(id, null);
    broadcast(id, before, after);
    return after;
  };

  /** What a service does to one entity, as Home Assistant's integrations would; null: no such service. */
  const apply = (domain: string, service: string, data: Record<string, unknown>, st: FakeState): { state: string; attributes: Record<string, unknown> } | null => {
    const a = { ...st.attributes };
    const onOff = (on: boolean) => ({ state: on ? 'on' : 'off', attributes: a });
    switch (`${domain}.${service}`) {
      case 'light.turn_on': {
        if (typeof data.brightness_pct === 'number') a.brightness = Math.round((data.brightness_pct / 100) * 255);
        else if (typeof data.brightness === 'number') a.brightness = data.brightness;
        else if (a.brightness == null) a.brightness = 255;
        return onOff(true);
      }
      case 'light.turn_off':
        a.brightness = null;
        return onOff(false);
      case 'light.toggle':
        a.brightness = st.state === 'on' ? null : (a.brightness ?? 255);
        return onOff(st.state !== 'on');
      case 'switch.turn_on':
      case 'fan.turn_on':
        return onOff(true);
      case 'switch.turn_off':
      case 'fan.turn_off':
        return onOff(false);
      case 'switch.toggle':
      case 'fan.toggle':
        return onOff(st.state !== 'on');
      case 'lock.lock':
        return { state: 'locked', attributes: a };
      case 'lock.unlock':
        return { state: 'unlocked', attributes: a };
      case 'lock.open':
        return { state: 'open', attributes: a };
      case 'cover.open_cover':
        if ('current_position' in a) a.current_position = 100;
        return { state: 'open', attributes: a };
      case 'cover.close_cover':
        if ('current_position' in a) a.current_position = 0;
        return { state: 'closed', attributes: a };
      case 'cover.stop_cover':
        return { state: st.state, attributes: a };
      case 'cover.set_cover_position':
        a.current_position = data.position;
        return { state: Number(data.position) > 0 ? 'open' : 'closed', attributes: a };
      case 'climate.set_temperature':
        a.temperature = data.temperature;
        return { state: st.state, attributes: a };
      case 'climate.set_hvac_mode':
        return { state: String(data.hvac_mode), attributes: a };
      case 'climate.turn_off':
        return { state: 'off', attributes: a };
      case 'alarm_control_panel.alarm_disarm':
        return { state: 'disarmed', attributes: a };
      case 'alarm_control_panel.alarm_arm_home':
        return { state: 'armed_home', attributes: a };
      case 'alarm_control_panel.alarm_arm_away':
        return { state: 'armed_away', attributes: a };
      case 'media_player.media_play_pause':
        return { state: st.state === 'playing' ? 'paused' : 'playing', attributes: a };
      case 'media_player.volume_set':
        a.volume_level = data.volume_level;
        return { state: st.state, attributes: a };
      case 'scene.turn_on':
      case 'script.turn_on':
        return { state: iso(), attributes: a };
      default:
        return null;
    }
  };

  /** Runs a service call: the changed states, or an HA error {code, message}. */
  const callService = (via: 'ws' | 'rest', domain: string, service: string, data: Record<string, unknown>, target: unknown): { changed: FakeState[] } | { error: { code: string; message: string } } => {
    const raw = (target as { entity_id?: unknown } | undefined)?.entity_id ?? data.entity_id;
    const entityIds = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
    const serviceData = { ...data };
    delete serviceData.entity_id;
    calls.push({ via, domain, service, data: serviceData, entityIds });
    if (refuse.has(`${domain}.${service}`)) return { error: { code: 'service_validation_error', message: `Validation error: ${domain}.${service} cannot run now` } };
    const probe = states.values().next().value as FakeState | undefined;
    if (!probe || apply(domain, service, serviceData, probe) === null) return { error: { code: 'not_found', message: `Service ${domain}.${service} not found.` } };
    const changed: FakeState[] = [];
    for (const id of entityIds) {
      const st = states.get(id);
      if (!st || !id.startsWith(`${domain}.`)) continue;
      const next = apply(domain, service, serviceData, st)!;
      changed.push(write(id, next.state, next.attributes));
    }
    return { changed };
  };

  const config = () => ({
    location_name: 'Fake home',
    latitude: 52.37,
    longitude: 4.89,
    elevation: 0,
    unit_system: { length: 'km', mass: 'g', temperature: '°C', volume: 'L' },
    time_zone: 'Europe/Amsterdam',
    version: FAKE_HA_VERSION,
    components: ['api', 'websocket_api', 'light', 'switch', 'lock', 'cover', 'climate'],
  });
  const services = () => ({
    light: { turn_on: { name: 'Turn on', fields: {} }, turn_off: { name: 'Turn off', fields: {} }, toggle: { name: 'Toggle', fields: {} } },
    switch: { turn_on: { name: 'Turn on', fields: {} }, turn_off: { name: 'Turn off', fields: {} }, toggle: { name: 'Toggle', fields: {} } },
    lock: { lock: { name: 'Lock', fields: {} }, unlock: { name: 'Unlock', fields: {} }, open: { name: 'Open', fields: {} } },
  });

  const refuse = new Set<string>();
  const unknownCommands = new Set<string>();

  // ---- REST -------------------------------------------------------------------------------------
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    log.push(`${req.method} ${url.pathname}`);
    if (fake.down) return void req.socket.destroy();
    if (fake.garbage) {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<html><body>Welcome to nginx!</body></html>');
    }
    const auth = req.headers.authorization ?? '';
    if (!validToken(auth.replace(/^Bearer /, ''))) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      return void res.end('401: Unauthorized');
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET' && url.pathname === '/api/') return json(res, 200, { message: 'API running.' });
      if (req.method === 'GET' && url.pathname === '/api/config') return json(res, 200, config());
      if (req.method === 'GET' && url.pathname === '/api/states') return json(res, 200, [...states.values()]);
      const one = /^\/api\/states\/([\w.]+)$/.exec(url.pathname);
      if (req.method === 'GET' && one) {
        const st = states.get(one[1]!);
        return st ? json(res, 200, st) : json(res, 404, { message: 'Entity not found.' });
      }
      const svc = /^\/api\/services\/(\w+)\/(\w+)$/.exec(url.pathname);
      if (req.method === 'POST' && svc) {
        let data: Record<string, unknown>;
        try {
          data = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
        } catch {
          return json(res, 400, { message: 'Data should be valid JSON.' });
        }
        const out = callService('rest', svc[1]!, svc[2]!, data, undefined);
        if ('error' in out) {
          res.writeHead(400, { 'content-type': 'text/plain' });
          return void res.end('400: Bad Request');
        }
        return json(res, 200, out.changed);
      }
      json(res, 404, { message: 'Not found' });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  // ---- WebSocket --------------------------------------------------------------------------------
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (fake.down || new URL(req.url ?? '/', 'http://x').pathname !== '/api/websocket') return void socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => onSocket(ws));
  });

  const onCommand = (c: Conn, msg: Record<string, unknown>) => {
    const id = msg.id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) return send(c, { id: id ?? null, type: 'result', success: false, error: { code: 'invalid_format', message: 'Message incorrectly formatted.' } });
    log.push(`ws ${String(msg.type)}`);
    if (id <= c.lastId) return send(c, { id, type: 'result', success: false, error: { code: 'id_reuse', message: 'Identifier values have to increase.' } });
    c.lastId = id;
    if (unknownCommands.has(String(msg.type))) return send(c, { id, type: 'result', success: false, error: { code: 'unknown_command', message: 'Unknown command.' } });
    const ok = (result: unknown = null) => send(c, { id, type: 'result', success: true, result });
    const err = (code: string, message: string) => send(c, { id, type: 'result', success: false, error: { code, message } });
    switch (msg.type) {
      case 'supported_features':
        return ok();
      case 'ping':
        return send(c, { id, type: 'pong' });
      case 'get_states':
        return ok([...states.values()]);
      case 'get_config':
        return ok(config());
      case 'get_services':
        return ok(services());
      case 'config/area_registry/list':
        return ok(DEFAULT_AREAS.map((a) => ({ ...a, floor_id: null, icon: null, aliases: [] })));
      case 'config/entity_registry/list_for_display':
        return ok({
          entity_categories: { 0: 'config', 1: 'diagnostic' },
          entities: [...states.keys()].map((ei) => ({ ei, ...(areaOf.get(ei) ? { ai: areaOf.get(ei) } : {}), pl: 'demo' })),
        });
      case 'subscribe_events': {
        c.subs.set(id, { kind: 'events' });
        return ok();
      }
      case 'subscribe_entities': {
        const only = Array.isArray(msg.entity_ids) ? msg.entity_ids.map(String) : undefined;
        c.subs.set(id, { kind: 'entities', entityIds: only });
        ok();
        const all: Record<string, unknown> = {};
        for (const st of states.values()) if (!only || only.includes(st.entity_id)) all[st.entity_id] = compressed(st);
        return send(c, { id, type: 'event', event: { a: all } });
      }
      case 'unsubscribe_events': {
        const sub = Number(msg.subscription);
        if (!c.subs.delete(sub)) return err('not_found', 'Subscription not found.');
        return ok();
      }
      case 'call_service': {
        const run = () => {
          const out = callService('ws', String(msg.domain), String(msg.service), (msg.service_data as Record<string, unknown>) ?? {}, msg.target);
          if ('error' in out) return err(out.error.code, out.error.message);
          ok({ context: newContext(), response: null });
        };
        if (fake.slowMs > 0) return void setTimeout(run, fake.slowMs).unref();
        return run();
      }
      default:
        return err('unknown_command', 'Unknown command.');
    }
  };

  const onSocket = (ws: WebSocket) => {
    const c: Conn = { ws, authed: false, muted: false, lastId: 0, subs: new Map() };
    conns.add(c);
    ws.on('close', () => conns.delete(c));
    ws.on('error', () => undefined);
    send(c, { type: 'auth_required', ha_version: FAKE_HA_VERSION });
    ws.on('message', (data) => {
      if (c.muted) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(data));
      } catch {
        return ws.close();
      }
      if (!c.authed) {
        const m = parsed as Record<string, unknown>;
        if (m?.type !== 'auth' || typeof m.access_token !== 'string') {
          send(c, { type: 'auth_invalid', message: 'Auth message incorrectly formatted: required key not provided' });
          return ws.close();
        }
        if (!validToken(m.access_token)) {
          log.push('ws auth_invalid');
          send(c, { type: 'auth_invalid', message: 'Invalid access token or password' });
          return ws.close();
        }
        c.authed = true;
        auths++;
        log.push('ws auth_ok');
        return send(c, { type: 'auth_ok', ha_version: FAKE_HA_VERSION });
      }
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) onCommand(c, m as Record<string, unknown>);
    });
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const fake: FakeHomeAssistant = {
    url: `http://127.0.0.1:${port}`,
    get token() {
      return token;
    },
    states,
    calls,
    log,
    authCount: () => auths,
    openSockets: () => conns.size,
    slowMs: 0,
    down: false,
    garbage: false,
    refuse,
    unknownCommands,
    setState(id, state, attributes) {
      write(id, state, attributes ?? { ...(states.get(id)?.attributes ?? {}) });
    },
    removeEntity(id) {
      const before = states.get(id) ?? null;
      states.delete(id);
      if (before) broadcast(id, before, null);
    },
    revokeToken() {
      revoked.add(token);
      for (const c of conns) c.ws.close();
    },
    issueToken(next) {
      token = next;
    },
    dropSockets() {
      for (const c of conns) c.ws.terminate();
    },
    muteSockets() {
      for (const c of conns) c.muted = true;
    },
    reset() {
      seed(opts.entities ?? DEFAULT_ENTITIES);
      calls.length = 0;
      log.length = 0;
      refuse.clear();
      unknownCommands.clear();
      fake.slowMs = 0;
      fake.down = false;
      fake.garbage = false;
    },
    async close() {
      for (const c of conns) c.ws.terminate();
      wss.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
