// The household's Plex (reference/plex.md): three clients, one per service, each with an injectable
// base URL.
//  - the account API (plex.tv, MEDIA_ACCOUNT_URL; /api/v2/... is added): the PIN link flow, the
//    signed-in account, the servers an account reaches (resources);
//  - the discover provider (MEDIA_DISCOVER_URL, discover.provider.plex.tv since the Aug 2025 move):
//    the watchlist and Plex's own catalogue;
//  - the Plex Media Server (the URL the admin configured): library reads, watched state, parts
//    (Range passed through), images, sections and scans.
// Every call sends the X-Plex-* headers Plex asks for (§2: the client identifier, product, version,
// platform, device) and `Accept: application/json` (Plex answers XML otherwise), has a time budget,
// and fails with a MediaServerError whose `failure` says what happened: unauthorized (401: an
// unknown or revoked token, or an account without access to this server), forbidden (403: a friend
// asking for an owner-only thing), not_found, unreachable, timeout, bad_response (not the JSON
// expected: HTML, XML, garbage), http_error, blocked (the SSRF guard refused the address).
//
// Tokens: a token travels only in the X-Plex-Token header, never in a URL (URLs end up in logs,
// §2), and no error message, log line or `cause` carries one: errors are built from fixed sentences
// and a status, never from a URL, an upstream body or an underlying error's text.
//
// SSRF: the account and discover clients are given the one guard of the container (public
// internet only; tests let their fake through with FETCH_ALLOW_ORIGINS). The media server usually
// sits on the home network, which the guard refuses, so its client is given a guard made by
// createMediaServerGuard(serverUrl): the one guard's rules plus `lanOrigins` holding exactly the
// configured server's origin (its scheme, host and port; its name may resolve to a private address).
// Nothing else private passes: not another port or scheme on that name, not another LAN address,
// not a redirect (the clients follow none). The connection candidates plex.tv lists for an account
// are probed the same way, each through a guard naming only that candidate, when an admin asks.
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { undici } from '../../platform/lazy.js';
import type { Logger } from '../../platform/logger.js';
import { BlockedUrlError, createSsrfGuard, type SsrfGuard } from '../../platform/ssrf.js';

export type MediaService = 'account' | 'discover' | 'server';
export type MediaServerFailure = 'unauthorized' | 'forbidden' | 'not_found' | 'bad_request' | 'unreachable' | 'timeout' | 'bad_response' | 'http_error' | 'blocked';

const SERVICE_NAME: Record<MediaService, string> = { account: 'The Plex account service', discover: 'Plex’s watchlist service', server: 'The media server' };

export class MediaServerError extends Error {
  constructor(
    readonly service: MediaService,
    readonly failure: MediaServerFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'MediaServerError';
  }

  /** A refusal or an outage, logged as its message without a stack (platform/logger.ts). */
  readonly expected = true;
}

function failureSentence(service: MediaService, failure: MediaServerFailure, status?: number): string {
  const who = SERVICE_NAME[service];
  switch (failure) {
    case 'unauthorized':
      return service === 'server' ? 'The media server did not accept this sign-in: it may have been signed out, or this account has no access to it.' : 'Plex did not accept this sign-in: it may have been signed out. Link the account again.';
    case 'forbidden':
      return service === 'server' ? 'Only the owner of the media server may do that.' : `${who} refused that for this account.`;
    case 'not_found':
      return `${who} does not know that item.`;
    case 'bad_request':
      return `${who} did not accept the request.`;
    case 'unreachable':
      return `${who} could not be reached. Check that it is running and connected.`;
    case 'timeout':
      return `${who} did not answer in time.`;
    case 'bad_response':
      return `${who} sent an answer Hearth could not read.`;
    case 'blocked':
      return service === 'server'
        ? 'The media server’s address was refused: on the home network Hearth reaches only the address set for the media server in the admin settings.'
        : `${who} could not be reached: its address was refused, or Hearth runs in offline mode.`;
    default:
      return `${who} answered with an error${status ? ` (${status})` : ''}.`;
  }
}

const fail = (service: MediaService, failure: MediaServerFailure, status?: number) => new MediaServerError(service, failure, failureSentence(service, failure, status), status);

// ---------------------------------------------------------------------------------------------
// Who Hearth is to Plex (§2). The client identifier is stable per install (the container keeps it
// in app settings); the product is the name shown in the account's Authorized Devices.

export interface PlexClientInfo {
  clientIdentifier: string;
  product: string;
  version: string;
  platform: string;
  device: string;
  deviceName: string;
}

export function plexHeaders(client: PlexClientInfo): Record<string, string> {
  return {
    'X-Plex-Client-Identifier': client.clientIdentifier,
    'X-Plex-Product': client.product,
    'X-Plex-Version': client.version,
    'X-Plex-Platform': client.platform,
    'X-Plex-Device': client.device,
    'X-Plex-Device-Name': client.deviceName,
  };
}

interface CommonOptions {
  baseUrl: string;
  guard: SsrfGuard;
  client: PlexClientInfo;
  /** Per JSON call, headers and body (default 10 s). */
  timeoutMs?: number;
  /** JSON answers larger than this are refused (default 8 MB). */
  maxBytes?: number;
  /** Failed calls are logged here (service, method, path without query, status, failure): never a token. */
  logger?: Logger;
}

interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  token?: string | null;
  query?: Record<string, string | number | undefined | readonly string[]>;
  headers?: Record<string, string>;
  /** The bare PUT discover's watchlist actions want (§7): no Accept. */
  bare?: boolean;
  signal?: AbortSignal;
}

const trimBase = (raw: string) => raw.replace(/\/+$/, '');

function buildUrl(base: string, path: string, query: CallOptions['query'] = {}): string {
  const url = new URL(trimBase(base) + path);
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const one of v as readonly string[]) url.searchParams.append(k, one);
    else url.searchParams.set(k, String(v as string | number));
  }
  return url.href;
}

/** One request through the guard, no redirects followed; the answer's status and body stream. */
async function send(
  service: MediaService,
  o: CommonOptions,
  url: string,
  c: CallOptions & { accept?: string; bodyTimeoutMs?: number; stream?: boolean },
): Promise<{ statusCode: number; headers: Dispatcher.ResponseData['headers']; body: Dispatcher.ResponseData['body'] }> {
  const timeoutMs = o.timeoutMs ?? 10_000;
  const headers: Record<string, string> = { ...plexHeaders(o.client), ...c.headers };
  if (!c.bare) headers.Accept = c.accept ?? 'application/json';
  if (c.token) headers['X-Plex-Token'] = c.token;
  // a call has one budget for headers and body; a stream only for its headers, then per chunk
  const timeout = c.stream ? null : AbortSignal.timeout(timeoutMs);
  const signal = c.signal && timeout ? AbortSignal.any([c.signal, timeout]) : (timeout ?? c.signal);
  let checked: URL;
  try {
    checked = o.guard.checkUrl(url);
  } catch {
    throw fail(service, 'blocked');
  }
  try {
    const res = await undici().request(checked, { method: c.method ?? 'GET', headers, signal, dispatcher: o.guard.dispatcher, headersTimeout: timeoutMs, bodyTimeout: c.bodyTimeoutMs ?? timeoutMs });
    return res;
  } catch (err) {
    if (c.signal?.aborted) throw c.signal.reason ?? err;
    const cause = (err as { cause?: unknown }).cause;
    if (err instanceof BlockedUrlError || cause instanceof BlockedUrlError || (err as NodeJS.ErrnoException).code === 'ESSRFBLOCKED') throw fail(service, 'blocked');
    if (timeout?.aborted || (err as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT') throw fail(service, 'timeout');
    throw fail(service, 'unreachable');
  }
}

function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

function statusFailure(status: number): MediaServerFailure {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 400) return 'bad_request';
  return 'http_error';
}

function pathOf(url: string): string {
  return new URL(url).pathname;
}

/** A JSON call: 2xx with JSON parsed by `schema`, or a MediaServerError. */
async function callJson<T>(service: MediaService, o: CommonOptions, path: string, schema: z.ZodType<T>, c: CallOptions = {}): Promise<T> {
  const url = buildUrl(o.baseUrl, path, c.query);
  const logFail = (err: MediaServerError) => {
    o.logger?.warn({ service, method: c.method ?? 'GET', path: pathOf(url), status: err.status ?? null, failure: err.failure }, 'Media server call failed');
    return err;
  };
  let res;
  try {
    res = await send(service, o, url, c);
  } catch (err) {
    if (err instanceof MediaServerError) throw logFail(err);
    throw err;
  }
  if (res.statusCode < 200 || res.statusCode >= 300) {
    discard(res.body);
    throw logFail(fail(service, statusFailure(res.statusCode), res.statusCode));
  }
  const maxBytes = o.maxBytes ?? 8 * 1024 * 1024;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        discard(res.body);
        throw fail(service, 'bad_response');
      }
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    if (err instanceof MediaServerError) throw logFail(err);
    if (c.signal?.aborted) throw c.signal.reason ?? err;
    throw logFail(fail(service, 'timeout'));
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (schema === (EMPTY as unknown)) return undefined as T;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw logFail(fail(service, 'bad_response', res.statusCode));
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw logFail(fail(service, 'bad_response', res.statusCode));
  return parsed.data;
}

/** The answer of a call whose body does not matter (scrobble, actions, refresh). */
const EMPTY = z.unknown();

// ---------------------------------------------------------------------------------------------
// Shapes. Plex leaves out what is zero or empty (§2), so everything optional has a default.

const str = z.string();
const optStr = z.string().nullish().catch(null).transform((v) => v ?? null);
const optNum = z.coerce.number().nullish().catch(null).transform((v) => v ?? null);
const zero = z.coerce.number().nullish().catch(0).transform((v) => v ?? 0);
const keyStr = z.union([z.string(), z.number()]).transform(String);

const PinSchema = z.object({ id: z.number(), code: str, expiresAt: optStr, expiresIn: optNum, authToken: optStr, clientIdentifier: optStr });

/** A PIN of the link flow. `authToken` is the account token once the person approved it: keep it server-side. */
export interface PlexPin {
  id: number;
  code: string;
  expiresAt: string | null;
  authToken: string | null;
}

const UserSchema = z.object({
  id: z.number(),
  uuid: str,
  username: optStr,
  title: optStr,
  friendlyName: optStr,
  email: optStr,
  thumb: optStr,
  home: z.boolean().nullish(),
  restricted: z.boolean().nullish(),
  subscription: z.object({ active: z.boolean().nullish() }).nullish(),
});

/** The signed-in account (GET /api/v2/user), without its token. */
export interface PlexAccount {
  id: number;
  uuid: string;
  username: string;
  title: string;
  email: string | null;
  thumb: string | null;
  /** A Plex Home member. */
  home: boolean;
  /** A managed (restricted) Home user. */
  restricted: boolean;
}

const ConnectionSchema = z.object({ protocol: str, address: str, port: z.coerce.number(), uri: str, local: z.boolean().catch(false), relay: z.boolean().catch(false), IPv6: z.boolean().catch(false) });
const ResourceSchema = z.object({
  name: str,
  clientIdentifier: str,
  provides: z.string().catch(''),
  owned: z.boolean().catch(false),
  accessToken: optStr,
  sourceTitle: optStr,
  productVersion: optStr,
  httpsRequired: z.boolean().catch(false),
  presence: z.boolean().catch(false),
  connections: z.array(ConnectionSchema).nullish().transform((v) => v ?? []),
});

export interface PlexConnection {
  uri: string;
  protocol: string;
  address: string;
  port: number;
  local: boolean;
  relay: boolean;
}

/** A server an account reaches (resources that provide `server`), its connections best first. */
export interface PlexServerResource {
  name: string;
  machineIdentifier: string;
  owned: boolean;
  /** The server token for this account (a friend's is server-scoped): keep it server-side. */
  accessToken: string | null;
  /** The owner's name for a shared server. */
  sourceTitle: string | null;
  version: string | null;
  httpsRequired: boolean;
  online: boolean;
  connections: PlexConnection[];
}

/**
 * Local before remote, relay last (bandwidth-limited); https first within each group; a server that
 * requires secure connections keeps only its https ones (reference §5).
 */
export function preferredConnections(list: readonly PlexConnection[], httpsRequired: boolean): PlexConnection[] {
  const rank = (c: PlexConnection) => (c.relay ? 4 : c.local ? 0 : 2) + (c.protocol === 'https' ? 0 : 1);
  return list.filter((c) => !httpsRequired || c.protocol === 'https').sort((a, b) => rank(a) - rank(b));
}

const GuidList = z
  .array(z.object({ id: str }))
  .nullish()
  .transform((v) => (v ?? []).map((g) => g.id));
const PartSchema = z.object({ id: z.coerce.number(), key: str, size: optNum, container: optStr, duration: optNum, file: optStr });
const MediaSchema = z.object({ id: z.coerce.number().catch(0), duration: optNum, container: optStr, videoResolution: optStr, Part: z.array(PartSchema).nullish().transform((v) => v ?? []) });
const ItemSchema = z.object({
  ratingKey: keyStr,
  key: optStr,
  guid: optStr,
  type: str,
  title: z.string().catch(''),
  year: optNum,
  summary: optStr,
  index: optNum,
  parentIndex: optNum,
  parentRatingKey: keyStr.nullish(),
  grandparentRatingKey: keyStr.nullish(),
  parentTitle: optStr,
  grandparentTitle: optStr,
  parentGuid: optStr,
  grandparentGuid: optStr,
  librarySectionID: keyStr.nullish(),
  thumb: optStr,
  art: optStr,
  parentThumb: optStr,
  grandparentThumb: optStr,
  duration: optNum,
  addedAt: optNum,
  viewCount: zero,
  viewOffset: zero,
  lastViewedAt: optNum,
  leafCount: optNum,
  viewedLeafCount: optNum,
  Guid: GuidList,
  Media: z.array(MediaSchema).nullish().transform((v) => v ?? []),
});

/** An item of the server (movie, show, season, episode…), per-user fields as the token's user sees them. */
export interface PlexItem {
  ratingKey: string;
  type: string;
  title: string;
  year: number | null;
  guid: string | null;
  /** External ids (imdb://, tmdb://, tvdb://) when the server sent its Guid array. */
  guids: string[];
  summary: string | null;
  index: number | null;
  parentIndex: number | null;
  parentRatingKey: string | null;
  grandparentRatingKey: string | null;
  parentTitle: string | null;
  grandparentTitle: string | null;
  parentGuid: string | null;
  grandparentGuid: string | null;
  librarySectionId: string | null;
  /** Server paths (/library/metadata/…/thumb/…): fetch them through image(), never hand them to a browser. */
  thumb: string | null;
  art: string | null;
  parentThumb: string | null;
  grandparentThumb: string | null;
  durationMs: number | null;
  addedAt: number | null;
  viewCount: number;
  viewOffsetMs: number;
  lastViewedAt: number | null;
  leafCount: number | null;
  viewedLeafCount: number | null;
  parts: Array<{ id: number; key: string; size: number | null; container: string | null }>;
}

function toItem(m: z.infer<typeof ItemSchema>): PlexItem {
  return {
    ratingKey: m.ratingKey,
    type: m.type,
    title: m.title,
    year: m.year,
    guid: m.guid,
    guids: m.Guid,
    summary: m.summary,
    index: m.index,
    parentIndex: m.parentIndex,
    parentRatingKey: m.parentRatingKey ?? null,
    grandparentRatingKey: m.grandparentRatingKey ?? null,
    parentTitle: m.parentTitle,
    grandparentTitle: m.grandparentTitle,
    parentGuid: m.parentGuid,
    grandparentGuid: m.grandparentGuid,
    librarySectionId: m.librarySectionID ?? null,
    thumb: m.thumb,
    art: m.art,
    parentThumb: m.parentThumb,
    grandparentThumb: m.grandparentThumb,
    durationMs: m.duration,
    addedAt: m.addedAt,
    viewCount: m.viewCount,
    viewOffsetMs: m.viewOffset,
    lastViewedAt: m.lastViewedAt,
    leafCount: m.leafCount,
    viewedLeafCount: m.viewedLeafCount,
    parts: m.Media.flatMap((media) => media.Part.map((p) => ({ id: p.id, key: p.key, size: p.size, container: p.container }))),
  };
}

/** `{MediaContainer: {...fields, Metadata?: []}}`; a missing list is an empty one (§2). */
const itemsContainer = <E extends z.ZodRawShape>(extra: E) =>
  z.object({ MediaContainer: z.object({ ...extra, totalSize: optNum, offset: optNum, Metadata: z.array(ItemSchema).nullish().transform((v) => v ?? []) }) });
/**
 * A list of items. The server may name the section once on the container and not on each item
 * (a title's metadata, its children, a section's list), so an item without its own takes the
 * container's, as python-plexapi does: whether an item is in a member's private section is read
 * from it, and a missing one would count as nobody's.
 */
const ItemsContainer = itemsContainer({ librarySectionID: keyStr.nullish().catch(null) });
const itemsOf = (mc: z.infer<typeof ItemsContainer>['MediaContainer']): PlexItem[] =>
  mc.Metadata.map((m) => toItem(m.librarySectionID === null || m.librarySectionID === undefined ? { ...m, librarySectionID: mc.librarySectionID } : m));

export interface PlexPage<T> {
  items: T[];
  /** All matches, when the server said (paged answers). */
  totalSize: number;
  offset: number;
}

const SectionSchema = z.object({
  key: keyStr,
  type: str,
  title: str,
  agent: z.string().catch(''),
  scanner: z.string().catch(''),
  language: z.string().catch(''),
  refreshing: z.coerce.boolean().catch(false),
  scannedAt: optNum,
  Location: z
    .array(z.object({ path: str }))
    .nullish()
    .transform((v) => (v ?? []).map((l) => l.path)),
});

export interface PlexSection {
  key: string;
  type: string;
  title: string;
  agent: string;
  scanner: string;
  language: string;
  refreshing: boolean;
  scannedAt: number | null;
  /** Folders as the server sees them. */
  locations: string[];
}

const SectionsContainer = z.object({ MediaContainer: z.object({ Directory: z.array(SectionSchema).nullish().transform((v) => v ?? []) }) });
const toSection = ({ Location, ...s }: z.infer<typeof SectionSchema>): PlexSection => ({ ...s, locations: Location });

const HubSchema = z.object({ hubIdentifier: z.string().catch(''), title: z.string().catch(''), type: z.string().catch(''), key: optStr, more: z.coerce.boolean().catch(false), Metadata: z.array(ItemSchema).nullish().transform((v) => v ?? []) });
export interface PlexHub {
  /** Match on this (home.continue, home.movies.recent, home.television.recent…), not on the localized title. */
  hubIdentifier: string;
  title: string;
  type: string;
  /** Where the hub's full list is (/hubs/home/recentlyAdded?type=1…), paged with hubItems(); null when it sent none. */
  key: string | null;
  more: boolean;
  items: PlexItem[];
}

const SessionSchema = ItemSchema.extend({
  sessionKey: keyStr,
  User: z.object({ id: keyStr.nullish(), title: z.string().catch('') }).nullish(),
  Player: z.object({ title: z.string().catch(''), product: z.string().catch(''), platform: z.string().catch(''), state: z.string().catch('playing'), local: z.coerce.boolean().catch(false) }).nullish(),
});
export interface PlexSession {
  sessionKey: string;
  item: PlexItem;
  user: { id: string | null; title: string };
  player: { title: string; product: string; platform: string; state: string; local: boolean };
}

const BrowseContainer = z.object({
  MediaContainer: z.object({
    Path: z.array(z.object({ path: str, title: z.string().catch('') })).nullish().transform((v) => v ?? []),
    File: z.array(z.object({ path: str, title: z.string().catch('') })).nullish().transform((v) => v ?? []),
  }),
});

const DiscoverItemSchema = z.object({ ratingKey: str, guid: optStr, type: str, title: z.string().catch(''), year: optNum, thumb: optStr, watchlistedAt: optNum, Guid: GuidList });
export interface DiscoverItem {
  /** The discover key: the last segment of the item's plex:// GUID. */
  key: string;
  guid: string | null;
  type: string;
  title: string;
  year: number | null;
  /** A public image on metadata-static.plex.tv (needs no token). */
  thumb: string | null;
  watchlistedAt: number | null;
  guids: string[];
}
const toDiscover = (m: z.infer<typeof DiscoverItemSchema>): DiscoverItem => ({ key: m.ratingKey, guid: m.guid, type: m.type, title: m.title, year: m.year, thumb: m.thumb, watchlistedAt: m.watchlistedAt, guids: m.Guid });
const DiscoverContainer = z.object({ MediaContainer: z.object({ totalSize: optNum, offset: optNum, Metadata: z.array(DiscoverItemSchema).nullish().transform((v) => v ?? []) }) });

// ---------------------------------------------------------------------------------------------
// plex.tv

export interface PlexAccountClient {
  readonly baseUrl: string;
  /** POST /api/v2/pins (strong: a 25-character code for a link; otherwise 4 characters for plex.tv/link). */
  createPin(opts?: { strong?: boolean; signal?: AbortSignal }): Promise<PlexPin>;
  /** GET /api/v2/pins/:id; an unknown or expired PIN is `not_found`. */
  checkPin(id: number, opts?: { signal?: AbortSignal }): Promise<PlexPin>;
  /** The page where the person signs in and approves the PIN (app.plex.tv; parameters in the fragment). */
  linkUrl(code: string, opts?: { forwardUrl?: string }): string;
  /** The short page where the 4-character code is typed by hand on another device (plex.tv/link). */
  readonly codePageUrl: string;
  /** GET /api/v2/user with the token. */
  account(token: string, opts?: { signal?: AbortSignal }): Promise<PlexAccount>;
  /** Whether plex.tv still takes a token: valid (200), invalid (401), unknown (anything else, §3). */
  tokenStatus(token: string, opts?: { signal?: AbortSignal }): Promise<'valid' | 'invalid' | 'unknown'>;
  /** The servers an account reaches, with their connections best first. */
  servers(token: string, opts?: { signal?: AbortSignal }): Promise<PlexServerResource[]>;
}

export interface PlexAccountClientOptions extends CommonOptions {
  /** Where people approve a PIN (default https://app.plex.tv/auth). */
  linkPageUrl?: string;
  /** Where people type a short code by hand (default https://plex.tv/link). */
  codePageUrl?: string;
}

export function createPlexAccountClient(o: PlexAccountClientOptions): PlexAccountClient {
  const call = <T>(path: string, schema: z.ZodType<T>, c?: CallOptions) => callJson('account', o, `/api/v2${path}`, schema, c);
  const toPin = (p: z.infer<typeof PinSchema>): PlexPin => ({ id: p.id, code: p.code, expiresAt: p.expiresAt, authToken: p.authToken || null });
  return {
    baseUrl: trimBase(o.baseUrl),
    codePageUrl: o.codePageUrl ?? 'https://plex.tv/link',
    async createPin(opts = {}) {
      return toPin(await call('/pins', PinSchema, { method: 'POST', query: opts.strong === false ? {} : { strong: 'true' }, signal: opts.signal }));
    },
    async checkPin(id, opts = {}) {
      return toPin(await call(`/pins/${encodeURIComponent(String(id))}`, PinSchema, { signal: opts.signal }));
    },
    linkUrl(code, opts = {}) {
      const params = new URLSearchParams({ clientID: o.client.clientIdentifier, code, 'context[device][product]': o.client.product });
      if (opts.forwardUrl) params.set('forwardUrl', opts.forwardUrl);
      return `${o.linkPageUrl ?? 'https://app.plex.tv/auth'}#?${params.toString()}`;
    },
    async account(token, opts = {}) {
      const u = await call('/user', UserSchema, { token, signal: opts.signal });
      return { id: u.id, uuid: u.uuid, username: u.username ?? u.title ?? '', title: u.friendlyName || u.title || u.username || '', email: u.email, thumb: u.thumb, home: u.home === true, restricted: u.restricted === true };
    },
    async tokenStatus(token, opts = {}) {
      try {
        await call('/user', UserSchema, { token, signal: opts.signal });
        return 'valid';
      } catch (err) {
        if (err instanceof MediaServerError && err.failure === 'unauthorized') return 'invalid';
        if (err instanceof MediaServerError) return 'unknown';
        throw err;
      }
    },
    async servers(token, opts = {}) {
      const list = await call('/resources', z.array(z.unknown()), { token, query: { includeHttps: 1, includeRelay: 1 }, signal: opts.signal });
      const out: PlexServerResource[] = [];
      for (const raw of list) {
        const r = ResourceSchema.safeParse(raw);
        if (!r.success || !r.data.provides.split(',').includes('server')) continue;
        const d = r.data;
        out.push({
          name: d.name,
          machineIdentifier: d.clientIdentifier,
          owned: d.owned,
          accessToken: d.accessToken,
          sourceTitle: d.sourceTitle,
          version: d.productVersion,
          httpsRequired: d.httpsRequired,
          online: d.presence,
          connections: preferredConnections(
            d.connections.map((c) => ({ uri: c.uri, protocol: c.protocol, address: c.address, port: c.port, local: c.local, relay: c.relay })),
            d.httpsRequired,
          ),
        });
      }
      return out;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The discover provider

export interface PlexDiscoverClient {
  readonly baseUrl: string;
  watchlist(token: string, opts?: { start?: number; size?: number; type?: 'movie' | 'show'; signal?: AbortSignal }): Promise<PlexPage<DiscoverItem>>;
  /** PUT /actions/addToWatchlist with the person's own account token (rule 2). */
  addToWatchlist(token: string, discoverKey: string, opts?: { signal?: AbortSignal }): Promise<void>;
  removeFromWatchlist(token: string, discoverKey: string, opts?: { signal?: AbortSignal }): Promise<void>;
  /** One catalogue entry with its external ids; null when discover does not know the key. */
  metadata(token: string, discoverKey: string, opts?: { signal?: AbortSignal }): Promise<DiscoverItem | null>;
  /** Catalogue entries by external id (imdb://, tmdb://, tvdb://) or by title and year. */
  matches(token: string, q: { type: 'movie' | 'show'; guid: string } | { type: 'movie' | 'show'; title: string; year?: number | null }, opts?: { signal?: AbortSignal }): Promise<DiscoverItem[]>;
}

const DISCOVER_KEY = /^[0-9a-f]{24}$/i;
const TYPE_NO = { movie: 1, show: 2 } as const;

export function createPlexDiscoverClient(o: CommonOptions): PlexDiscoverClient {
  const action = async (token: string, name: 'addToWatchlist' | 'removeFromWatchlist', key: string, signal?: AbortSignal) => {
    if (!DISCOVER_KEY.test(key)) throw fail('discover', 'not_found');
    await callJson('discover', o, `/actions/${name}`, EMPTY, { method: 'PUT', token, query: { ratingKey: key }, bare: true, signal });
  };
  return {
    baseUrl: trimBase(o.baseUrl),
    async watchlist(token, opts = {}) {
      const headers: Record<string, string> = { 'X-Plex-Container-Start': String(opts.start ?? 0), 'X-Plex-Container-Size': String(opts.size ?? 50) };
      const res = await callJson('discover', o, '/library/sections/watchlist/all', DiscoverContainer, { token, headers, query: { type: opts.type ? TYPE_NO[opts.type] : undefined, includeCollections: 1, includeExternalMedia: 1 }, signal: opts.signal });
      const mc = res.MediaContainer;
      return { items: mc.Metadata.map(toDiscover), totalSize: mc.totalSize ?? mc.Metadata.length, offset: mc.offset ?? 0 };
    },
    addToWatchlist: (token, key, opts = {}) => action(token, 'addToWatchlist', key, opts.signal),
    removeFromWatchlist: (token, key, opts = {}) => action(token, 'removeFromWatchlist', key, opts.signal),
    async metadata(token, key, opts = {}) {
      if (!DISCOVER_KEY.test(key)) return null;
      try {
        const res = await callJson('discover', o, `/library/metadata/${key}`, DiscoverContainer, { token, signal: opts.signal });
        const first = res.MediaContainer.Metadata[0];
        return first ? toDiscover(first) : null;
      } catch (err) {
        if (err instanceof MediaServerError && err.failure === 'not_found') return null;
        throw err;
      }
    },
    async matches(token, q, opts = {}) {
      const query = 'guid' in q ? { type: TYPE_NO[q.type], guid: q.guid } : { type: TYPE_NO[q.type], title: q.title, year: q.year ?? undefined };
      const res = await callJson('discover', o, '/library/metadata/matches', DiscoverContainer, { token, query, signal: opts.signal });
      return res.MediaContainer.Metadata.map(toDiscover);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The media server

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
export function createMediaServerGuard(serverUrl: string, base: { allowOrigins?: readonly string[]; offline?: boolean } = {}): SsrfGuard {
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

// ---------------------------------------------------------------------------------------------
// The three clients together, as the container hands them to the media-server module

export interface MediaClientsOptions {
  accountUrl: string;
  discoverUrl: string;
  linkPageUrl?: string;
  codePageUrl?: string;
  /** The container's one guard, for plex.tv and discover (public internet only). */
  guard: SsrfGuard;
  /** The one guard's own rules, repeated in each server client's guard. */
  allowOrigins?: readonly string[];
  offline?: boolean;
  /** Read at every call: the container fills in the install's identifier once it is loaded. */
  client: PlexClientInfo;
  timeoutMs?: number;
  logger?: Logger;
}

/**
 * The account and discover clients (made once, through the one guard) and a server client per
 * origin, each with its own guard naming only that origin (createMediaServerGuard), kept until
 * close(): the configured server's, and the candidates an admin's discovery probed.
 */
export function createMediaClients(o: MediaClientsOptions): {
  account: PlexAccountClient;
  discover: PlexDiscoverClient;
  server(url: string): PlexServerClient;
  close(): Promise<void>;
} {
  const common = { guard: o.guard, client: o.client, timeoutMs: o.timeoutMs, logger: o.logger };
  const servers = new Map<string, { client: PlexServerClient; guard: SsrfGuard }>();
  return {
    account: createPlexAccountClient({ ...common, baseUrl: o.accountUrl, linkPageUrl: o.linkPageUrl, codePageUrl: o.codePageUrl }),
    discover: createPlexDiscoverClient({ ...common, baseUrl: o.discoverUrl }),
    server(url) {
      const base = new URL(url);
      const key = base.origin + base.pathname.replace(/\/+$/, '');
      let entry = servers.get(key);
      if (!entry) {
        const guard = createMediaServerGuard(base.origin, { allowOrigins: o.allowOrigins, offline: o.offline });
        entry = { guard, client: createPlexServerClient({ ...common, guard, baseUrl: key }) };
        servers.set(key, entry);
      }
      return entry.client;
    },
    async close() {
      const all = [...servers.values()];
      servers.clear();
      await Promise.all(all.map((e) => e.guard.close()));
    },
  };
}
