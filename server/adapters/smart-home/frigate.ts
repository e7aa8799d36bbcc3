// Frigate, the household's camera recorder (reference/home-assistant.md §6), over its HTTP API: the
// version (the admin's check), the recent events (person, car, animal at a camera), an event's
// snapshot JPEG and its clip (MP4, streamed with the player's Range passed on). On port 8971 it wants a sign-in: POST /api/login {user, password} answers a JWT in
// the `frigate_token` cookie, sent afterwards as `Authorization: Bearer`; on 5000 it needs none.
// The base URL is the one an admin typed, reached through the guard the caller hands in (the one
// guard's rules plus exactly that origin on the home network); nothing here follows a redirect.
// No error message carries the address, the password or the token.
import { undici } from '../../platform/lazy.js';
import { BlockedUrlError, guardedRequest, type SsrfGuard } from '../../platform/ssrf.js';

export type FrigateFailure = 'unreachable' | 'timeout' | 'auth_failed' | 'not_frigate' | 'blocked' | 'not_found';

export class FrigateError extends Error {
  constructor(readonly failure: FrigateFailure) {
    super(`Frigate call failed: ${failure}.`);
    this.name = 'FrigateError';
  }

  readonly expected = true;
}

export interface FrigateEvent {
  id: string;
  camera: string;
  label: string;
  /** Epoch seconds. */
  startTime: number;
  hasSnapshot: boolean;
  hasClip: boolean;
}

/** An event's clip as Frigate answers it: 200, 206 (a Range) or 416, the length/range headers, and the bytes as they come. */
export interface FrigateClip {
  status: number;
  headers: Record<string, string>;
  body: NodeJS.ReadableStream & { destroy(): void };
}

export interface FrigateClient {
  version(): Promise<string>;
  /** Events that started after `after` (epoch seconds), oldest first. */
  events(after: number, limit?: number): Promise<FrigateEvent[]>;
  snapshot(id: string): Promise<{ contentType: string; bytes: Buffer }>;
  /** The clip, streamed; `range` (bytes=a-b) passed on; `signal` ends it when the player leaves. */
  clip(id: string, range: string | undefined, signal: AbortSignal): Promise<FrigateClip>;
}

export interface FrigateOptions {
  baseUrl: string;
  user?: string | null;
  password?: string | null;
  guard: SsrfGuard;
  timeoutMs?: number;
  /** Largest snapshot read (default 5 MB). */
  maxBytes?: number;
}

const EVENT_ID = /^[\w.-]{1,80}$/;

export function createFrigateClient(o: FrigateOptions): FrigateClient {
  const base = o.baseUrl.replace(/\/+$/, '');
  const timeoutMs = o.timeoutMs ?? 10_000;
  const maxBytes = o.maxBytes ?? 5 * 1024 * 1024;
  let token: string | null = null;

  const mapError = (err: unknown): FrigateError => {
    if (err instanceof FrigateError) return err;
    if (err instanceof BlockedUrlError) return new FrigateError('blocked');
    const name = (err as Error).name;
    return new FrigateError(name === 'TimeoutError' || name === 'HeadersTimeoutError' || name === 'BodyTimeoutError' ? 'timeout' : 'unreachable');
  };

  const login = async (): Promise<void> => {
    const url = o.guard.checkUrl(`${base}/api/login`);
    let res;
    try {
      res = await undici().request(url, {
        method: 'POST',
        dispatcher: o.guard.dispatcher,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: o.user, password: o.password }),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw mapError(err);
    }
    await res.body.text().catch(() => '');
    if (res.statusCode === 401 || res.statusCode === 403) throw new FrigateError('auth_failed');
    const cookies = [res.headers['set-cookie'] ?? []].flat();
    const found = cookies.map((c) => /^frigate_token=([^;]+)/.exec(String(c))?.[1]).find(Boolean);
    if (res.statusCode >= 300 || !found) throw new FrigateError('not_frigate');
    token = found;
  };

  const get = async (path: string, retried = false): Promise<{ status: number; contentType: string; bytes: Buffer }> => {
    if (o.user && o.password && !token) await login();
    let res;
    try {
      res = await guardedRequest(o.guard, `${base}${path}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        maxRedirects: 0,
        headersTimeoutMs: timeoutMs,
        bodyTimeoutMs: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw mapError(err);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const c of res.body) {
        size += (c as Buffer).length;
        if (size > maxBytes) {
          res.body.destroy();
          throw new FrigateError('not_frigate');
        }
        chunks.push(c as Buffer);
      }
    } catch (err) {
      throw mapError(err);
    }
    if (res.statusCode === 401 && o.user && o.password && !retried) {
      token = null;
      return get(path, true);
    }
    if (res.statusCode === 401 || res.statusCode === 403) throw new FrigateError('auth_failed');
    if (res.statusCode === 404) throw new FrigateError('not_found');
    if (res.statusCode >= 300) throw new FrigateError('not_frigate');
    return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), bytes: Buffer.concat(chunks) };
  };

  /** Opens a media stream (no body read here): the answer with its headers, or a FrigateError. */
  const openStream = async (path: string, range: string | undefined, signal: AbortSignal, retried = false): Promise<FrigateClip> => {
    if (o.user && o.password && !token) await login();
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    if (range && /^bytes=\d*-\d*$/.test(range)) headers.range = range;
    let res;
    try {
      res = await guardedRequest(o.guard, `${base}${path}`, {
        headers,
        maxRedirects: 0,
        headersTimeoutMs: timeoutMs,
        // a clip streams for as long as the player reads: only a silence (no headers, no bytes) ends it
        bodyTimeoutMs: timeoutMs,
        signal,
      });
    } catch (err) {
      throw mapError(err);
    }
    const drop = () => {
      res.body.on('error', () => undefined); // destroying an unread body reports an abort: not a failure here
      res.body.destroy();
    };
    if (res.statusCode === 401 && o.user && o.password && !retried) {
      drop();
      token = null;
      return openStream(path, range, signal, true);
    }
    if (res.statusCode === 401 || res.statusCode === 403) throw (drop(), new FrigateError('auth_failed'));
    if (res.statusCode === 404) throw (drop(), new FrigateError('not_found'));
    if (res.statusCode !== 200 && res.statusCode !== 206 && res.statusCode !== 416) throw (drop(), new FrigateError('not_frigate'));
    const type = String(res.headers['content-type'] ?? '');
    if (res.statusCode !== 416 && !type.startsWith('video/')) throw (drop(), new FrigateError('not_frigate'));
    const pass: Record<string, string> = {};
    for (const h of ['content-type', 'content-length', 'content-range', 'accept-ranges']) {
      const v = res.headers[h];
      if (typeof v === 'string') pass[h] = v;
    }
    return { status: res.statusCode, headers: pass, body: res.body };
  };

  const json = async (path: string): Promise<unknown> => {
    const r = await get(path);
    try {
      return JSON.parse(r.bytes.toString('utf8')) as unknown;
    } catch {
      throw new FrigateError('not_frigate');
    }
  };

  return {
    async version() {
      const r = await get('/api/version');
      const v = r.bytes.toString('utf8').trim().replace(/^"|"$/g, '');
      if (!/^\d+\.\d+/.test(v)) throw new FrigateError('not_frigate');
      return v.slice(0, 40);
    },
    async events(after, limit = 50) {
      const list = await json(`/api/events?after=${encodeURIComponent(String(after))}&limit=${limit}&include_thumbnails=0`);
      if (!Array.isArray(list)) throw new FrigateError('not_frigate');
      return list
        .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
        .filter((e) => typeof e.id === 'string' && EVENT_ID.test(e.id) && typeof e.start_time === 'number')
        .map((e) => ({ id: e.id as string, camera: String(e.camera ?? '').slice(0, 80), label: String(e.label ?? '').slice(0, 40), startTime: e.start_time as number, hasSnapshot: e.has_snapshot === true, hasClip: e.has_clip === true }))
        .sort((a, b) => a.startTime - b.startTime);
    },
    async snapshot(id) {
      if (!EVENT_ID.test(id)) throw new FrigateError('not_found');
      const r = await get(`/api/events/${encodeURIComponent(id)}/snapshot.jpg`);
      if (r.bytes.subarray(0, 3).toString('hex') !== 'ffd8ff') throw new FrigateError('not_frigate');
      return { contentType: 'image/jpeg', bytes: r.bytes };
    },
    async clip(id, range, signal) {
      if (!EVENT_ID.test(id)) throw new FrigateError('not_found');
      return openStream(`/api/events/${encodeURIComponent(id)}/clip.mp4`, range, signal);
    },
  };
}

/** A Frigate MQTT `frigate/events` message as an event, or null for one Hearth does not use (reference §6). */
export function frigateEventFromMqtt(payload: Buffer): FrigateEvent | null {
  let m: { type?: unknown; after?: Record<string, unknown> };
  try {
    m = JSON.parse(payload.toString('utf8')) as typeof m;
  } catch {
    return null;
  }
  const a = m.after;
  if (m.type !== 'new' || !a || typeof a.id !== 'string' || !EVENT_ID.test(a.id) || typeof a.start_time !== 'number') return null;
  if (a.false_positive === true) return null;
  return { id: a.id, camera: String(a.camera ?? '').slice(0, 80), label: String(a.label ?? '').slice(0, 40), startTime: a.start_time, hasSnapshot: a.has_snapshot === true, hasClip: a.has_clip === true };
}
