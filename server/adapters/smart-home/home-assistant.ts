// Home Assistant over REST and its WebSocket API (reference/home-assistant.md §1-§3, §7). The base
// URL is the one an admin typed; it is reached through the SSRF guard the caller hands in (the one
// guard's rules plus exactly that origin as a home-network address, see createSmartHomeGuard), REST
// with guardedRequest and the WebSocket on `ws` with the guard's checked lookup.
//
// checkHomeAssistant(): the admin's connect check (GET /api/ answers "API running.", then the
// WebSocket's auth_ok with the token), giving Home Assistant's version.
// HomeAssistantConnection: the one kept-open WebSocket: auth, supported_features, the area and
// entity registries, subscribe_entities (the a/c/r diffs applied into an in-memory map), call_service
// with a time budget, a ping every pingMs that ends a socket giving no pong in time (a silently dead
// connection), and a reconnect with backoff after a drop (not after auth_invalid: a revoked token
// waits for the admin). Its status is connecting | connected | auth_failed | unreachable.
//
// The token travels only in the Authorization header and the auth message; no error message or log
// line carries it or the address (messages are fixed sentences).
import type WebSocket from 'ws';
import { lazyRequire } from '../../platform/lazy.js';
import type { Logger } from '../../platform/logger.js';
import { BlockedUrlError, createSsrfGuard, guardedRequest, type OfflineSource, type SsrfGuard } from '../../platform/ssrf.js';

const loadWs = lazyRequire<typeof WebSocket>('ws');

export type HomeAssistantFailure = 'unreachable' | 'timeout' | 'auth_failed' | 'not_home_assistant' | 'refused' | 'blocked' | 'bad_response';

export class HomeAssistantError extends Error {
  constructor(
    readonly failure: HomeAssistantFailure,
    message: string,
  ) {
    super(message);
    this.name = 'HomeAssistantError';
  }

  /** An outage or a refusal, logged as its message without a stack (platform/logger.ts). */
  readonly expected = true;
}

const SENTENCES: Record<HomeAssistantFailure, string> = {
  unreachable: 'Home Assistant could not be reached.',
  timeout: 'Home Assistant did not answer in time.',
  auth_failed: 'Home Assistant did not accept the access token.',
  not_home_assistant: 'The address did not answer as Home Assistant does.',
  refused: 'Home Assistant refused the service call.',
  blocked: 'The address was refused by the outbound guard.',
  bad_response: 'Home Assistant sent an answer Hearth could not read.',
};
const fail = (failure: HomeAssistantFailure) => new HomeAssistantError(failure, SENTENCES[failure]);

/** A guard for the Home Assistant an admin set: the container's rules plus exactly that origin on the home network. */
export function createSmartHomeGuard(url: string, base: { allowOrigins?: readonly string[]; offline?: boolean; offlineSource?: OfflineSource } = {}): SsrfGuard {
  // the household's guard's offline switch, read at each call, when given
  return createSsrfGuard({ allowOrigins: base.allowOrigins, lanOrigins: [new URL(url).origin], offline: base.offlineSource ?? base.offline });
}

export interface HaEntityState {
  entityId: string;
  state: string;
  attributes: Record<string, unknown>;
  /** Epoch seconds of the last state change. */
  lastChanged: number;
}

export interface HaArea {
  id: string;
  name: string;
}

export type HaStatus = 'connecting' | 'connected' | 'auth_failed' | 'unreachable';

export interface HaOptions {
  /** e.g. http://homeassistant.local:8123 (no path). */
  baseUrl: string;
  token: string;
  guard: SsrfGuard;
  /** Per call (REST, a command's result, the connect handshake); default 10 s. */
  timeoutMs?: number;
  /** Reconnect backoff: first wait and ceiling (default 1 s and 60 s). */
  backoffMs?: { base: number; max: number };
  /**
   * How often the kept-open socket is pinged (default 30 s): a socket that is silently dead (no
   * close, no error, nothing answered) gives no pong within timeoutMs and is ended, so the reconnect
   * with backoff starts.
   */
  pingMs?: number;
  logger?: Logger;
}

const trimBase = (u: string) => u.replace(/\/+$/, '');
const wsUrlOf = (base: string) => `${trimBase(base).replace(/^http/, 'ws')}/api/websocket`;

/** GET through the guard with the token; the parsed JSON, or a HomeAssistantError. */
async function restGet(o: HaOptions, path: string): Promise<unknown> {
  const url = `${trimBase(o.baseUrl)}${path}`;
  const timeoutMs = o.timeoutMs ?? 10_000;
  let res;
  try {
    res = await guardedRequest(o.guard, url, { headers: { authorization: `Bearer ${o.token}`, accept: 'application/json' }, maxRedirects: 0, headersTimeoutMs: timeoutMs, bodyTimeoutMs: timeoutMs, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    if (err instanceof BlockedUrlError) throw fail('blocked');
    const name = (err as Error).name;
    throw fail(name === 'TimeoutError' || name === 'HeadersTimeoutError' || name === 'BodyTimeoutError' ? 'timeout' : 'unreachable');
  }
  const text = await res.body.text().catch(() => '');
  if (res.statusCode === 401) throw fail('auth_failed');
  if (res.statusCode >= 300) throw fail('not_home_assistant');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw fail('not_home_assistant');
  }
}

type Frame = Record<string, unknown>;

/** Opens the WebSocket through the guard and runs the auth phase; resolves with the open socket and HA's version. */
function openAuthed(o: HaOptions): Promise<{ ws: WebSocket; version: string }> {
  const timeoutMs = o.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    let url: string;
    try {
      url = wsUrlOf(o.guard.checkUrl(trimBase(o.baseUrl)).href.replace(/\/$/, ''));
    } catch {
      return reject(fail('blocked'));
    }
    let settled = false;
    const ws: WebSocket = new (loadWs())(url, { handshakeTimeout: timeoutMs, lookup: o.guard.lookup as never, maxPayload: 64 * 1024 * 1024, followRedirects: false });
    const done = (err: HomeAssistantError | null, version?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.off('message', onMessage);
      if (err) {
        ws.terminate();
        reject(err);
      } else resolve({ ws, version: version ?? '' });
    };
    const timer = setTimeout(() => done(fail('timeout')), timeoutMs);
    timer.unref();
    const onMessage = (data: Buffer) => {
      let m: Frame;
      try {
        m = JSON.parse(String(data)) as Frame;
      } catch {
        return done(fail('not_home_assistant'));
      }
      if (m.type === 'auth_required') ws.send(JSON.stringify({ type: 'auth', access_token: o.token }));
      else if (m.type === 'auth_ok') done(null, typeof m.ha_version === 'string' ? m.ha_version : '');
      else if (m.type === 'auth_invalid') done(fail('auth_failed'));
      else done(fail('not_home_assistant'));
    };
    ws.on('message', onMessage);
    ws.on('error', (err: NodeJS.ErrnoException) => done(fail(err.code === 'ESSRFBLOCKED' || err instanceof BlockedUrlError ? 'blocked' : 'unreachable')));
    ws.on('unexpected-response', () => done(fail('not_home_assistant')));
    ws.on('close', () => done(fail('unreachable')));
  });
}

/** The admin's connect check: REST answers as Home Assistant with this token, and the WebSocket says auth_ok. */
export async function checkHomeAssistant(o: HaOptions): Promise<{ version: string }> {
  const hello = await restGet(o, '/api/');
  if ((hello as { message?: unknown })?.message !== 'API running.') throw fail('not_home_assistant');
  const { ws, version } = await openAuthed(o);
  ws.close();
  return { version };
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: HomeAssistantError): void;
  timer: NodeJS.Timeout;
}

/** HA's compressed state in subscribe_entities: {s, a, c, lc, lu?}. */
interface Compressed {
  s?: string;
  a?: Record<string, unknown>;
  lc?: number;
  lu?: number;
}

/** Which entities changed (and which were removed) in one update. */
export interface HaChange {
  changed: string[];
  removed: string[];
}

export class HomeAssistantConnection {
  readonly states = new Map<string, HaEntityState>();
  readonly areas = new Map<string, HaArea>();
  /** entity id -> area id, and the registry's name when it has one. */
  readonly entityArea = new Map<string, string>();
  status: HaStatus = 'connecting';
  version: string | null = null;
  private ws: WebSocket | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(c: HaChange) => void>();
  private readonly statusListeners = new Set<(s: HaStatus) => void>();
  private entitiesSub = -1;
  /** The next `a` event is subscribe_entities' full snapshot (after a reconnect: what is missing was removed). */
  private snapshotPending = false;
  private attempt = 0;
  private retry: NodeJS.Timeout | null = null;
  private pinger: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly o: HaOptions) {}

  /** Starts connecting (and keeps reconnecting until close() or a refused token). */
  start(): void {
    void this.connect();
  }

  onChange(fn: (c: HaChange) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  onStatus(fn: (s: HaStatus) => void): () => void {
    this.statusListeners.add(fn);
    return () => this.statusListeners.delete(fn);
  }

  private setStatus(s: HaStatus): void {
    if (this.status === s) return;
    this.status = s;
    for (const fn of this.statusListeners) fn(s);
  }

  private emit(c: HaChange): void {
    if (c.changed.length === 0 && c.removed.length === 0) return;
    for (const fn of this.listeners) fn(c);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    let opened: { ws: WebSocket; version: string };
    try {
      opened = await openAuthed(this.o);
    } catch (err) {
      const failure = err instanceof HomeAssistantError ? err.failure : 'unreachable';
      this.o.logger?.warn({ failure, attempt: this.attempt }, 'home assistant connection failed');
      if (failure === 'auth_failed') return this.setStatus('auth_failed');
      this.setStatus('unreachable');
      return this.scheduleRetry();
    }
    if (this.closed) return void opened.ws.close();
    const { ws } = opened;
    this.ws = ws;
    this.version = opened.version;
    this.nextId = 1;
    ws.on('message', (data: Buffer) => this.onFrame(data));
    ws.on('error', () => undefined);
    ws.on('close', () => this.onClose(ws));
    try {
      await this.command({ type: 'supported_features', features: { coalesce_messages: 1 } });
      // the registries only name rooms: a Home Assistant that refuses them (an older one, a user without
      // the right) still gives its states, shown without rooms
      const optional = (p: Promise<unknown>) => p.catch((err: unknown) => (err instanceof HomeAssistantError && err.failure === 'refused' ? null : Promise.reject(err)));
      const [areas, registry] = await Promise.all([optional(this.command({ type: 'config/area_registry/list' })), optional(this.command({ type: 'config/entity_registry/list_for_display' }))]);
      this.areas.clear();
      for (const a of Array.isArray(areas) ? (areas as Array<{ area_id?: unknown; name?: unknown }>) : []) {
        if (typeof a.area_id === 'string') this.areas.set(a.area_id, { id: a.area_id, name: typeof a.name === 'string' ? a.name : a.area_id });
      }
      this.entityArea.clear();
      for (const e of ((registry as { entities?: unknown })?.entities as Array<{ ei?: unknown; ai?: unknown }> | undefined) ?? []) {
        if (typeof e.ei === 'string' && typeof e.ai === 'string') this.entityArea.set(e.ei, e.ai);
      }
      this.entitiesSub = this.nextId;
      this.snapshotPending = true;
      await this.command({ type: 'subscribe_entities' });
    } catch (err) {
      this.o.logger?.warn({ failure: err instanceof HomeAssistantError ? err.failure : 'unknown' }, 'home assistant subscription failed');
      ws.terminate();
      return;
    }
    this.attempt = 0;
    this.setStatus('connected');
    this.startPinging(ws);
  }

  /** Pings the socket every pingMs; no pong within the call budget ends it (onClose then reconnects). */
  private startPinging(ws: WebSocket): void {
    this.stopPinging();
    let waiting = false;
    this.pinger = setInterval(() => {
      if (waiting || this.ws !== ws) return;
      waiting = true;
      this.command({ type: 'ping' }).then(
        () => {
          waiting = false;
        },
        (err: unknown) => {
          waiting = false;
          if (this.ws !== ws || !(err instanceof HomeAssistantError) || err.failure !== 'timeout') return;
          this.o.logger?.warn('home assistant gave no pong in time: reconnecting');
          ws.terminate();
        },
      );
    }, this.o.pingMs ?? 30_000);
    this.pinger.unref();
  }

  private stopPinging(): void {
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = null;
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry) return;
    const b = this.o.backoffMs ?? { base: 1_000, max: 60_000 };
    const wait = Math.min(b.max, b.base * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
    this.attempt++;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, wait);
    this.retry.unref();
  }

  private onClose(ws: WebSocket): void {
    if (this.ws !== ws) return;
    this.ws = null;
    this.stopPinging();
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(fail('unreachable'));
    }
    this.pending.clear();
    if (this.closed) return;
    this.setStatus('unreachable');
    this.scheduleRetry();
  }

  private onFrame(data: Buffer): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(data));
    } catch {
      this.o.logger?.warn('home assistant sent a frame that is not JSON');
      return;
    }
    for (const m of (Array.isArray(parsed) ? parsed : [parsed]) as Frame[]) {
      if (m.type === 'result' || m.type === 'pong') {
        const p = this.pending.get(Number(m.id));
        if (!p) continue;
        this.pending.delete(Number(m.id));
        clearTimeout(p.timer);
        if (m.type === 'pong' || m.success === true) p.resolve(m.result ?? null);
        else p.reject(fail('refused'));
      } else if (m.type === 'event' && m.id === this.entitiesSub) {
        this.applyEntities(m.event as { a?: Record<string, Compressed>; c?: Record<string, { '+'?: Compressed; '-'?: { a?: string[] } }>; r?: string[] });
      }
    }
  }

  private applyEntities(ev: { a?: Record<string, Compressed>; c?: Record<string, { '+'?: Compressed; '-'?: { a?: string[] } }>; r?: string[] }): void {
    const change: HaChange = { changed: [], removed: [] };
    if (ev.a) {
      // a fresh snapshot after a reconnect: what is gone was removed
      if (this.snapshotPending) {
        this.snapshotPending = false;
        for (const id of [...this.states.keys()]) {
          if (!(id in ev.a)) {
            this.states.delete(id);
            change.removed.push(id);
          }
        }
      }
      for (const [id, c] of Object.entries(ev.a)) {
        const before = this.states.get(id);
        const next: HaEntityState = { entityId: id, state: String(c.s ?? ''), attributes: c.a ?? {}, lastChanged: c.lc ?? 0 };
        if (!before || before.state !== next.state || JSON.stringify(before.attributes) !== JSON.stringify(next.attributes)) change.changed.push(id);
        this.states.set(id, next);
      }
    }
    for (const [id, diff] of Object.entries(ev.c ?? {})) {
      const st = this.states.get(id);
      if (!st) continue;
      const plus = diff['+'];
      const attributes = { ...st.attributes, ...(plus?.a ?? {}) };
      for (const k of diff['-']?.a ?? []) delete attributes[k];
      this.states.set(id, { entityId: id, state: plus?.s !== undefined ? String(plus.s) : st.state, attributes, lastChanged: plus?.lc ?? st.lastChanged });
      change.changed.push(id);
    }
    for (const id of ev.r ?? []) {
      if (this.states.delete(id)) change.removed.push(id);
    }
    this.emit(change);
  }

  private command(msg: Frame, timeoutMs = this.o.timeoutMs ?? 10_000): Promise<unknown> {
    const ws = this.ws;
    if (!ws || ws.readyState !== ws.OPEN) return Promise.reject(fail('unreachable'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(fail('timeout'));
      }, timeoutMs);
      timer.unref();
      this.pending.set(id, { resolve, reject, timer });
      ws.send(JSON.stringify({ ...msg, id }));
    });
  }

  /** Calls a service on one entity; HA's refusal is `refused`, a closed socket `unreachable`, no answer in time `timeout`. */
  async callService(domain: string, service: string, entityId: string, data: Record<string, unknown> = {}): Promise<void> {
    if (this.status !== 'connected') throw fail('unreachable');
    await this.command({ type: 'call_service', domain, service, service_data: data, target: { entity_id: entityId } });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.stopPinging();
    const ws = this.ws;
    this.ws = null;
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(fail('unreachable'));
    }
    this.pending.clear();
    ws?.terminate();
    this.listeners.clear();
    this.statusListeners.clear();
  }
}
