// A small GET of a whole body through the one SSRF guard (every redirect hop checked), with a time
// budget and a size cap: web pages and pictures the inventory's lookup reads, and the JSON answers
// of the web search and the model hub. Large files stream through http-get.ts / download.ts instead.
// A body over the cap throws FetchTooLargeError, the time budget running out FetchTimeoutError;
// each caller turns those (and a non-200 status, answered with an empty body) into its own sentence.
import { guardedRequest, type SsrfGuard } from '../../platform/ssrf.js';

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
