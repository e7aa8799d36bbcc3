// A small GET of a whole body through the one SSRF guard (every redirect hop checked), with a time
// budget and a size cap: web pages and pictures the inventory's lookup reads. Large files stream
// through http-get.ts / download.ts instead.
import { guardedRequest, type SsrfGuard } from '../../platform/ssrf.js';

export class FetchTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The response is larger than ${Math.round(limit / 1024 / 1024)} MB.`);
    this.name = 'FetchTooLargeError';
  }
}

export interface CappedResponse {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

export async function fetchCapped(guard: SsrfGuard, url: string, opts: { maxBytes: number; timeoutMs: number; accept?: string; signal?: AbortSignal }): Promise<CappedResponse> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const res = await guardedRequest(guard, url, { signal, headers: { accept: opts.accept ?? '*/*', 'accept-encoding': 'identity' }, headersTimeoutMs: opts.timeoutMs, bodyTimeoutMs: opts.timeoutMs });
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
