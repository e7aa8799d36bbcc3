// A small GET of a whole body through the one SSRF guard (every redirect hop checked), with a time
// budget and a size cap: web pages and pictures the inventory's lookup reads, and the JSON answers
// of the web search and the model hub. Large files stream through http-get.ts / download.ts instead.
// A body over the cap throws FetchTooLargeError, the time budget running out FetchTimeoutError;
// each caller turns those (and a non-200 status, answered with an empty body) into its own sentence.
import { BlockedUrlError, guardedRequest, type SsrfGuard } from '../../platform/ssrf.js';

export class FetchTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The response is larger than ${Math.round(limit / 1024 / 1024)} MB.`);
    this.name = 'FetchTooLargeError';
  }
}

export class FetchTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`No answer within ${Math.round(timeoutMs / 1000)} s.`);
    this.name = 'FetchTimeoutError';
  }
}

export interface CappedResponse {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

export interface FetchCappedOptions {
  maxBytes: number;
  timeoutMs: number;
  accept?: string;
  /** More request headers (an API key's authorization). */
  headers?: Record<string, string>;
  maxRedirects?: number;
  signal?: AbortSignal;
}

export async function fetchCapped(guard: SsrfGuard, url: string, opts: FetchCappedOptions): Promise<CappedResponse> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  try {
    return await read(guard, url, opts, signal);
  } catch (err) {
    if (timeout.aborted && !opts.signal?.aborted && !(err instanceof FetchTooLargeError)) throw new FetchTimeoutError(opts.timeoutMs);
    throw err;
  }
}

/** Why a JSON GET failed before its status could be judged, or after (`bad_response`). */
export type CappedJsonFailure = 'too_large' | 'timeout' | 'blocked' | 'unreachable' | 'bad_response';

export interface FetchCappedJsonOptions extends FetchCappedOptions {
  /** Throws the caller's own error for a status it does not accept (the body is empty then). */
  checkStatus(status: number): void;
  /** The caller's error, with its sentence, for each failure; `detail` is the guard's reason for `blocked`. */
  fail(kind: CappedJsonFailure, detail: string): Error;
}

/**
 * A JSON GET of an outside service's API (the web search, the model hub): fetchCapped, then each way
 * it can fail turned into the caller's own error. Aborting through `signal` throws the abort's reason.
 */
export async function fetchCappedJson(guard: SsrfGuard, url: string, opts: FetchCappedJsonOptions): Promise<unknown> {
  const { checkStatus, fail, ...fetchOpts } = opts;
  let res: CappedResponse;
  try {
    res = await fetchCapped(guard, url, { accept: 'application/json', ...fetchOpts });
  } catch (err) {
    if (err instanceof FetchTooLargeError) throw fail('too_large', '');
    if (opts.signal?.aborted) throw opts.signal.reason ?? err;
    if (err instanceof FetchTimeoutError) throw fail('timeout', '');
    if (err instanceof BlockedUrlError) throw fail('blocked', err.message);
    throw fail('unreachable', '');
  }
  checkStatus(res.status);
  try {
    return JSON.parse(res.body.toString('utf8')) as unknown;
  } catch {
    throw fail('bad_response', '');
  }
}

async function read(guard: SsrfGuard, url: string, opts: FetchCappedOptions, signal: AbortSignal): Promise<CappedResponse> {
  const headers = { accept: opts.accept ?? '*/*', 'accept-encoding': 'identity', ...opts.headers };
  const res = await guardedRequest(guard, url, {
    signal,
    headers,
    headersTimeoutMs: opts.timeoutMs,
    bodyTimeoutMs: opts.timeoutMs,
    ...(opts.maxRedirects !== undefined ? { maxRedirects: opts.maxRedirects } : {}),
  });
  const contentType = String(res.headers['content-type'] ?? '');
  const discard = () => {
    res.body.on('error', () => undefined);
    res.body.destroy();
  };
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > opts.maxBytes) {
    discard();
    throw new FetchTooLargeError(opts.maxBytes);
  }
  if (res.statusCode !== 200) {
    discard();
    return { url: res.url, status: res.statusCode, contentType, body: Buffer.alloc(0) };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > opts.maxBytes) {
      discard();
      throw new FetchTooLargeError(opts.maxBytes);
    }
    chunks.push(chunk as Buffer);
  }
  return { url: res.url, status: res.statusCode, contentType, body: Buffer.concat(chunks) };
}
