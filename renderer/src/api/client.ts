// The one way the web app calls the Hearth API: same-origin fetch with the session cookie, JSON in
// and out, and every failure turned into an ApiError carrying the server's {code, message}.
// A 401 `unauthenticated` is also broadcast, so the app can send the user back to the profile picker.
import type { EarlyAnswers } from '../app/boot-loader.js';

export interface FieldIssue {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** From Retry-After (or details.retryAfterSeconds) on 429 answers. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Field-level problems from a 400 invalid_request, keyed by the first path segment. */
  get fieldIssues(): Record<string, string> {
    const out: Record<string, string> = {};
    if (!Array.isArray(this.details)) return out;
    for (const d of this.details as unknown[]) {
      if (d && typeof d === 'object' && 'message' in d) {
        const issue = d as { path?: unknown; message: unknown };
        const key = String(Array.isArray(issue.path) ? (issue.path[0] ?? '') : (issue.path ?? '')).split('.')[0] ?? '';
        out[key] ??= String(issue.message);
      }
    }
    return out;
  }
}

const NETWORK_MESSAGE = 'Hearth cannot be reached. Check that this device is on the home network, then try again.';

/** Turns anything thrown into a sentence a person can act on. */
/** What a refusal without a message of its own means to a person: what happened and what to do, never the status code. */
export function refusalSentence(status: number): string {
  if (status >= 500) return 'Hearth had a problem answering. Please try again in a moment.';
  switch (status) {
    case 401:
      return 'You are signed out. Choose your profile and enter your PIN again.';
    case 403:
      return 'Only an admin can do that. Ask an admin in your household.';
    case 404:
      return 'That is not here any more. Go back and look again.';
    case 409:
      return 'That changed meanwhile. Look again and try once more.';
    case 413:
      return 'That is too big for Hearth to take. Try a smaller one.';
    case 429:
      return 'That was tried too often. Wait a minute, then try again.';
    default:
      return 'Hearth could not do that. Check what you entered and try again.';
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error && err.message) return err.message;
  return 'Something went wrong. Please try again.';
}

type UnauthorizedListener = (path: string) => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Called whenever the server says the session is missing or over (401 unauthenticated). */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

type NetworkErrorListener = () => void;
const networkErrorListeners = new Set<NetworkErrorListener>();

/** Called whenever a call to Hearth fails without an answer (the server is off or out of reach), not on an HTTP error. */
export function onNetworkError(listener: NetworkErrorListener): () => void {
  networkErrorListeners.add(listener);
  return () => networkErrorListeners.delete(listener);
}

export interface RequestOptions {
  signal?: AbortSignal;
}

function retryAfter(res: Response, details: unknown): number | undefined {
  const header = Number(res.headers.get('Retry-After'));
  if (Number.isFinite(header) && header > 0) return header;
  const fromDetails = (details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return typeof fromDetails === 'number' ? fromDetails : undefined;
}

/** Low-level: the raw Response, for the few routes whose non-2xx status is an answer (ready). */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(path, { credentials: 'same-origin', ...init });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    for (const l of networkErrorListeners) l();
    throw new ApiError(0, 'network_error', NETWORK_MESSAGE);
  }
}

// Reads asked for ahead: at start-up the opened page's first data and the shell's are asked for
// before the app needs them (by the loader in index.html, renderer/src/app/boot-loader.ts, before
// this code has even arrived; else by App.tsx beside the session), and the page's own GET of the same
// path takes that answer, once, within a few seconds, if it was a good one (a refusal or no answer
// is asked again, in the open). Forgotten whenever the signed-in person changes (dropPrefetched).
const PREFETCH_TTL_MS = 10_000;
const prefetched = new Map<string, { at: number; res: Promise<Response | null> }>();

/**
 * The loader's answers, by path (`window.__hearthEarly`). A path is taken once: its entry is then
 * null, which also tells the loader this app is asking for it itself.
 */
function earlyAnswers(): EarlyAnswers | undefined {
  return typeof window === 'undefined' ? undefined : (window as { __hearthEarly?: EarlyAnswers }).__hearthEarly;
}

/** The loader's raw answer for `path` (for readiness, whose 503 is an answer), once; undefined if it has none. */
export function takeEarly(path: string): Promise<Response> | undefined {
  const early = earlyAnswers();
  const res = early?.[path];
  if (!early || !res) return undefined;
  early[path] = null;
  return res;
}

const goodOrNull = (res: Promise<Response>) => res.then((r) => (r.ok ? r : null), () => null);

export function prefetch(path: string): void {
  if (prefetched.has(path)) return;
  const early = takeEarly(path);
  if (early) {
    // asked for when the page opened
    prefetched.set(path, { at: performance.timeOrigin, res: goodOrNull(early) });
    return;
  }
  const answers = earlyAnswers();
  if (answers) answers[path] = null; // asked for here: the loader need not
  prefetched.set(path, { at: Date.now(), res: goodOrNull(fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' } })) });
}

export function dropPrefetched(): void {
  prefetched.clear();
  const early = earlyAnswers();
  if (early) for (const path of Object.keys(early)) early[path] = null;
}

async function takePrefetched(path: string): Promise<Response | null> {
  const early = takeEarly(path);
  if (early) return Date.now() - performance.timeOrigin > PREFETCH_TTL_MS ? null : goodOrNull(early);
  const entry = prefetched.get(path);
  if (!entry) return null;
  prefetched.delete(path);
  return Date.now() - entry.at > PREFETCH_TTL_MS ? null : entry.res;
}

/** A body sent as it is (not JSON), with its own content type: an OPML file. */
class TextBody {
  constructor(
    readonly text: string,
    readonly type: string,
  ) {}
}

async function request<T>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = body instanceof TextBody ? body.type : 'application/json';
  const early = method === 'GET' ? await takePrefetched(path) : null;
  const res = early ?? await apiFetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : body instanceof TextBody ? body.text : JSON.stringify(body),
    signal: opts.signal,
  });
  const text = await res.text().catch(() => '');
  let json: unknown = undefined;
  if (text && (res.headers.get('Content-Type') ?? '').includes('json')) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  if (res.ok) return json as T;

  const err = (json as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  const code = typeof err?.code === 'string' ? err.code : `http_${res.status}`;
  const message =
    typeof err?.message === 'string' && err.message
      ? err.message
      : refusalSentence(res.status);
  const apiError = new ApiError(res.status, code, message, err?.details, retryAfter(res, err?.details));
  if (res.status === 401 && code === 'unauthenticated') for (const l of unauthorizedListeners) l(path);
  throw apiError;
}

export const api = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, undefined, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, body ?? {}, opts),
  /** POSTs text as it is (not JSON) with its content type, e.g. an OPML file as text/xml. */
  postText: <T>(path: string, text: string, contentType: string, opts?: RequestOptions) => request<T>('POST', path, new TextBody(text, contentType), opts),
  put: <T>(path: string, body: unknown, opts?: RequestOptions) => request<T>('PUT', path, body, opts),
  patch: <T>(path: string, body: unknown, opts?: RequestOptions) => request<T>('PATCH', path, body, opts),
  delete: <T>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, undefined, opts),
};
