// The Plex Media Server client (the URL the admin configured; reference/plex.md §2, §6): library
// reads, watched state, parts (Range passed through), images, sections and scans.
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { createSsrfGuard, type OfflineSource, type SsrfGuard } from '../../platform/ssrf.js';
import { buildUrl, callJson, discard, EMPTY, fail, MediaServerError, optStr, pathOf, send, statusFailure, str, trimBase, type CallOptions, type CommonOptions } from './plex-call.js';
import { BrowseContainer, HubSchema, ItemsContainer, itemsOf, SectionsContainer, SessionSchema, toItem, toSection, type PlexHub, type PlexItem, type PlexPage, type PlexSection, type PlexSession } from './plex-items.js';

export interface PartResponse {
  /** 200, 206 or 416, as the server answered. */
  status: number;
  /** Only the headers a player needs: content-type, content-length, content-range, accept-ranges. */
  headers: Record<string, string>;
  /** The bytes, streamed (empty for HEAD and 416); destroy it to stop the upstream read. */
  body: Readable;
}

export interface PlexServerClient {
  readonly baseUrl: string;
  /** GET /identity (no token): the server's machine identifier and version. */
  identity(opts?: { signal?: AbortSignal }): Promise<{ machineIdentifier: string; version: string | null }>;
  /** GET /: the server's name and whether it may delete media. */
  info(token: string): Promise<{ friendlyName: string; machineIdentifier: string; version: string | null; allowMediaDeletion: boolean }>;
  sections(token: string): Promise<PlexSection[]>;
  /** A section's items: `type` picks the level (movie 1, show 2, season 3, episode 4); `filters` are media queries such as {'title=': '=Northbound', year: '2008'}. */
  sectionItems(token: string, sectionKey: string, opts?: { type?: 1 | 2 | 3 | 4; includeGuids?: boolean; filters?: Record<string, string>; sort?: string; start?: number; size?: number }): Promise<PlexPage<PlexItem>>;
  /** One item with its Guid array; null when the server does not know it. */
  metadata(token: string, ratingKey: string): Promise<PlexItem | null>;
  /** Several items in one call (keys joined by commas), as the token's user sees them; unknown keys are left out. */
  metadataMany(token: string, ratingKeys: readonly string[]): Promise<PlexItem[]>;
  children(token: string, ratingKey: string): Promise<PlexItem[]>;
  /** Every episode of a show (its leaves), with the token's own viewCount. */
  allLeaves(token: string, ratingKey: string): Promise<PlexItem[]>;
  /** Newest first, one page (X-Plex-Container-Start/Size): fewer than `size` items means the end. */
  recentlyAdded(token: string, opts?: { type?: 1 | 2 | 4; start?: number; size?: number }): Promise<PlexItem[]>;
  onDeck(token: string): Promise<PlexItem[]>;
  hubs(token: string, opts?: { count?: number }): Promise<PlexHub[]>;
  /** One page of a hub's full list (its `key`, a /hubs/… path of this server); `not_found` for any other path. */
  hubItems(token: string, hubKey: string, opts: { start: number; size: number }): Promise<PlexItem[]>;
  /** GET /status/sessions: owner token only (a friend's is `forbidden`, or `unauthorized` on PMS up to 1.46). */
  sessions(token: string): Promise<PlexSession[]>;
  /** Marks played for the token's user (a show or season: every episode). */
  scrobble(token: string, ratingKey: string): Promise<void>;
  unscrobble(token: string, ratingKey: string): Promise<void>;
  /** The resume point for the token's user; near the end the server counts it as played. */
  progress(token: string, ratingKey: string, timeMs: number): Promise<void>;
  /**
   * Reports playback for the token's user (/:/timeline): playing or paused shows Hearth's player as
   * a session on the server, stopped ends it; the time is also the resume point.
   */
  timeline(token: string, ratingKey: string, state: 'playing' | 'paused' | 'buffering' | 'stopped', timeMs: number, durationMs: number | null): Promise<void>;
  /** Creates a section (owner only): for home videos, agent com.plexapp.agents.none with Plex Video Files Scanner. */
  createSection(token: string, s: { name: string; type: 'movie' | 'show'; agent: string; scanner: string; language: string; locations: string[] }): Promise<PlexSection | null>;
  /** Starts a scan, limited to one folder (as the server sees it) when given. */
  refreshSection(token: string, sectionKey: string, path?: string): Promise<void>;
  deleteSection(token: string, sectionKey: string): Promise<void>;
  /** Folders (and files) the server sees in a folder (owner only); `not_found` when it does not exist. */
  browse(token: string, dir: string, opts?: { includeFiles?: boolean }): Promise<{ folders: string[]; files: string[] }>;
  /** A part's bytes with the caller's Range passed through; 401/403/404 are MediaServerErrors. */
  part(token: string, partKey: string, opts?: { method?: 'GET' | 'HEAD'; range?: string; ifRange?: string; signal?: AbortSignal }): Promise<PartResponse>;
  /** An item's picture through the server's resizer, as bytes (server paths only). */
  image(token: string, path: string, opts: { width: number; height: number; signal?: AbortSignal }): Promise<{ contentType: string; bytes: Buffer }>;
}

const PART_KEY = /^\/library\/parts\/\d+\/\d+\/file\.[A-Za-z0-9]{1,8}$/;
/** Thumbnails and art the server hands out: relative server paths, nothing absolute. */
const IMAGE_PATH = /^\/(library\/metadata\/\d+\/(thumb|art|banner|clearLogo)(\/\d+)?|:\/resources\/[\w.-]+)$/;
const PASS_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified', 'etag'];
const LIBRARY = 'com.plexapp.plugins.library';
/** A hub's key as the server hands it out: a /hubs/… path with an optional plain query. */
const HUB_KEY = /^(\/hubs\/[A-Za-z0-9_/]+)(?:\?([A-Za-z0-9_=&.,-]*))?$/;

/**
 * A guard for the configured media server: the container's rules (FETCH_ALLOW_ORIGINS, offline
 * mode) plus exactly this server's origin on the home network. The server client owns it.
 */
export function createMediaServerGuard(serverUrl: string, base: { allowOrigins?: readonly string[]; offline?: boolean | OfflineSource } = {}): SsrfGuard {
  return createSsrfGuard({ allowOrigins: base.allowOrigins, lanOrigins: [new URL(serverUrl).origin], offline: base.offline });
}

export function createPlexServerClient(o: CommonOptions & { maxImageBytes?: number }): PlexServerClient {
  const call = <T>(path: string, schema: z.ZodType<T>, c?: CallOptions) => callJson('server', o, path, schema, c);
  const items = async (path: string, token: string, c: CallOptions = {}) => itemsOf((await call(path, ItemsContainer, { token, ...c })).MediaContainer);
  const played = async (token: string, name: 'scrobble' | 'unscrobble', ratingKey: string) => {
    await call(`/:/${name}`, EMPTY, { token, query: { key: ratingKey, identifier: LIBRARY } });
  };
  return {
    baseUrl: trimBase(o.baseUrl),
    async identity(opts = {}) {
      const res = await call('/identity', z.object({ MediaContainer: z.object({ machineIdentifier: str, version: optStr }) }), { signal: opts.signal });
      return res.MediaContainer;
    },
    async info(token) {
      const res = await call('/', z.object({ MediaContainer: z.object({ friendlyName: z.string().catch(''), machineIdentifier: str, version: optStr, allowMediaDeletion: z.coerce.boolean().catch(false) }) }), { token });
      return res.MediaContainer;
    },
    async sections(token) {
      return (await call('/library/sections', SectionsContainer, { token })).MediaContainer.Directory.map(toSection);
    },
    async sectionItems(token, key, opts = {}) {
      const headers = opts.start !== undefined || opts.size !== undefined ? { 'X-Plex-Container-Start': String(opts.start ?? 0), 'X-Plex-Container-Size': String(opts.size ?? 50) } : undefined;
      const res = await call(`/library/sections/${encodeURIComponent(key)}/all`, ItemsContainer, { token, headers, query: { type: opts.type, includeGuids: opts.includeGuids ? 1 : undefined, sort: opts.sort, ...opts.filters } });
      const mc = res.MediaContainer;
      return { items: itemsOf(mc), totalSize: mc.totalSize ?? mc.Metadata.length, offset: mc.offset ?? 0 };
    },
    async metadata(token, ratingKey) {
      if (!/^\d+$/.test(ratingKey)) return null;
      try {
        return (await items(`/library/metadata/${ratingKey}`, token))[0] ?? null;
      } catch (err) {
        if (err instanceof MediaServerError && err.failure === 'not_found') return null;
        throw err;
      }
    },
    async metadataMany(token, ratingKeys) {
      const keys = [...new Set(ratingKeys)].filter((k) => /^\d+$/.test(k));
      if (keys.length === 0) return [];
      try {
        return await items(`/library/metadata/${keys.join(',')}`, token);
      } catch (err) {
        if (err instanceof MediaServerError && err.failure === 'not_found') return [];
        throw err;
      }
    },
    children: (token, ratingKey) => items(`/library/metadata/${encodeURIComponent(ratingKey)}/children`, token),
    allLeaves: (token, ratingKey) => items(`/library/metadata/${encodeURIComponent(ratingKey)}/allLeaves`, token),
    recentlyAdded: (token, opts = {}) => items('/hubs/home/recentlyAdded', token, { query: { type: opts.type }, headers: { 'X-Plex-Container-Start': String(opts.start ?? 0), 'X-Plex-Container-Size': String(opts.size ?? 50) } }),
    onDeck: (token) => items('/library/onDeck', token),
    async hubs(token, opts = {}) {
      const res = await call('/hubs', z.object({ MediaContainer: z.object({ Hub: z.array(HubSchema).nullish().transform((v) => v ?? []) }) }), { token, query: { count: opts.count ?? 12 } });
      return res.MediaContainer.Hub.map((h) => ({ hubIdentifier: h.hubIdentifier, title: h.title, type: h.type, key: h.key, more: h.more, items: h.Metadata.map(toItem) }));
    },
    async hubItems(token, hubKey, opts) {
      // only a hub path of this server, its own query kept (type=1…); never another host or a dot segment
      const m = HUB_KEY.exec(hubKey);
      if (!m) throw fail('server', 'not_found');
      const query = Object.fromEntries(new URLSearchParams(m[2] ?? ''));
      return items(m[1]!, token, { query, headers: { 'X-Plex-Container-Start': String(opts.start), 'X-Plex-Container-Size': String(opts.size) } });
    },
    async sessions(token) {
      const res = await call('/status/sessions', z.object({ MediaContainer: z.object({ Metadata: z.array(SessionSchema).nullish().transform((v) => v ?? []) }) }), { token });
      return res.MediaContainer.Metadata.map((m) => ({
        sessionKey: m.sessionKey,
        item: toItem(m),
        user: { id: m.User?.id ?? null, title: m.User?.title ?? '' },
        player: { title: m.Player?.title ?? '', product: m.Player?.product ?? '', platform: m.Player?.platform ?? '', state: m.Player?.state ?? 'playing', local: m.Player?.local ?? false },
      }));
    },
    scrobble: (token, rk) => played(token, 'scrobble', rk),
    unscrobble: (token, rk) => played(token, 'unscrobble', rk),
    async progress(token, ratingKey, timeMs) {
      await call('/:/progress', EMPTY, { token, query: { key: ratingKey, identifier: LIBRARY, time: Math.max(0, Math.round(timeMs)), state: 'stopped' } });
    },
    async timeline(token, ratingKey, state, timeMs, durationMs) {
      await call('/:/timeline', EMPTY, {
        token,
        query: { ratingKey, key: `/library/metadata/${ratingKey}`, identifier: LIBRARY, state, time: Math.max(0, Math.round(timeMs)), duration: durationMs === null ? undefined : Math.round(durationMs) },
      });
    },
    async createSection(token, s) {
      const res = await call('/library/sections', SectionsContainer, { method: 'POST', token, query: { name: s.name, type: s.type, agent: s.agent, scanner: s.scanner, language: s.language, location: s.locations } });
      const created = res.MediaContainer.Directory[0];
      return created ? toSection(created) : null;
    },
    async refreshSection(token, key, path) {
      await call(`/library/sections/${encodeURIComponent(key)}/refresh`, EMPTY, { token, query: { path } });
    },
    async deleteSection(token, key) {
      await call(`/library/sections/${encodeURIComponent(key)}`, EMPTY, { method: 'DELETE', token });
    },
    async browse(token, dir, opts = {}) {
      const encoded = Buffer.from(dir.replace(/\/+$/, '') || '/').toString('base64');
      const res = await call(`/services/browse/${encodeURIComponent(encoded)}`, BrowseContainer, { token, query: { includeFiles: opts.includeFiles ? 1 : 0 } });
      return { folders: res.MediaContainer.Path.map((p) => p.path), files: res.MediaContainer.File.map((f) => f.path) };
    },
    async part(token, partKey, opts = {}) {
      if (!PART_KEY.test(partKey)) throw fail('server', 'not_found');
      const headers: Record<string, string> = {};
      if (opts.range) headers.Range = opts.range;
      if (opts.ifRange) headers['If-Range'] = opts.ifRange;
      const url = buildUrl(o.baseUrl, partKey);
      // a stream has no overall budget: the answer's headers must come in time, then each chunk
      const res = await send('server', o, url, { method: opts.method ?? 'GET', token, headers, accept: '*/*', signal: opts.signal, stream: true, bodyTimeoutMs: 60_000 }).catch((err: unknown) => {
        if (err instanceof MediaServerError) o.logger?.warn({ service: 'server', method: opts.method ?? 'GET', path: pathOf(url), failure: err.failure }, 'Media server call failed');
        throw err;
      });
      if (res.statusCode !== 200 && res.statusCode !== 206 && res.statusCode !== 416) {
        discard(res.body);
        const err = fail('server', statusFailure(res.statusCode), res.statusCode);
        o.logger?.warn({ service: 'server', method: opts.method ?? 'GET', path: pathOf(url), status: res.statusCode, failure: err.failure }, 'Media server call failed');
        throw err;
      }
      const out: Record<string, string> = {};
      for (const name of PASS_HEADERS) {
        const v = res.headers[name];
        if (typeof v === 'string') out[name] = v;
      }
      // a proxy destroys the body when its client leaves; undici then emits an AbortError that
      // nobody needs to hear about (pipeline() still sees real errors through its own listener)
      res.body.on('error', () => undefined);
      return { status: res.statusCode, headers: out, body: res.body };
    },
    async image(token, path, opts) {
      if (!IMAGE_PATH.test(path)) throw fail('server', 'not_found');
      const url = buildUrl(o.baseUrl, '/photo/:/transcode', { url: path, width: Math.round(opts.width), height: Math.round(opts.height), minSize: 1, upscale: 1 });
      const res = await send('server', o, url, { token, accept: 'image/*', signal: opts.signal });
      if (res.statusCode !== 200) {
        discard(res.body);
        throw fail('server', statusFailure(res.statusCode), res.statusCode);
      }
      const max = o.maxImageBytes ?? 10 * 1024 * 1024;
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > max) {
            discard(res.body);
            throw fail('server', 'bad_response');
          }
          chunks.push(chunk as Buffer);
        }
      } catch (err) {
        if (err instanceof MediaServerError) throw err;
        throw fail('server', 'timeout');
      }
      const type = String(res.headers['content-type'] ?? '');
      if (!type.startsWith('image/')) throw fail('server', 'bad_response');
      return { contentType: type, bytes: Buffer.concat(chunks) };
    },
  };
}
