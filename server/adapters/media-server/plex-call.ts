// The one way each Plex client calls its service (reference/plex.md §2): the X-Plex-* headers, a
// time budget, no redirects, and a MediaServerError with a failure kind for anything but the answer
// expected: unauthorized (401: an unknown or revoked token, or an account without access to this
// server), forbidden (403: a friend asking for an owner-only thing), not_found, bad_request,
// unreachable, timeout, bad_response (not the JSON expected: HTML, XML, garbage), http_error,
// blocked (the SSRF guard refused the address). The shapes every client reads are here too.
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
import { BlockedUrlError, type SsrfGuard } from '../../platform/ssrf.js';

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

export const fail = (service: MediaService, failure: MediaServerFailure, status?: number) => new MediaServerError(service, failure, failureSentence(service, failure, status), status);

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

export interface CommonOptions {
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

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  token?: string | null;
  query?: Record<string, string | number | undefined | readonly string[]>;
  headers?: Record<string, string>;
  /** The bare PUT discover's watchlist actions want (§7): no Accept. */
  bare?: boolean;
  signal?: AbortSignal;
}

export const trimBase = (raw: string) => raw.replace(/\/+$/, '');

export function buildUrl(base: string, path: string, query: CallOptions['query'] = {}): string {
  const url = new URL(trimBase(base) + path);
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const one of v as readonly string[]) url.searchParams.append(k, one);
    else url.searchParams.set(k, String(v as string | number));
  }
  return url.href;
}

/** One request through the guard, no redirects followed; the answer's status and body stream. */
export async function send(
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

export function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

export function statusFailure(status: number): MediaServerFailure {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 400) return 'bad_request';
  return 'http_error';
}

export function pathOf(url: string): string {
  return new URL(url).pathname;
}

/** A JSON call: 2xx with JSON parsed by `schema`, or a MediaServerError. */
export async function callJson<T>(service: MediaService, o: CommonOptions, path: string, schema: z.ZodType<T>, c: CallOptions = {}): Promise<T> {
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
export const EMPTY = z.unknown();

// ---------------------------------------------------------------------------------------------
// Shapes. Plex leaves out what is zero or empty (§2), so everything optional has a default.

export const str = z.string();
export const optStr = z.string().nullish().catch(null).transform((v) => v ?? null);
export const optNum = z.coerce.number().nullish().catch(null).transform((v) => v ?? null);
export const zero = z.coerce.number().nullish().catch(0).transform((v) => v ?? 0);
export const keyStr = z.union([z.string(), z.number()]).transform(String);

export const GuidList = z
  .array(z.object({ id: str }))
  .nullish()
  .transform((v) => (v ?? []).map((g) => g.id));
