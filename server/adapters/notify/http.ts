// What the notification adapters share: their one error (a failure kind and a fixed sentence that
// never names an address, a token or the other side's words) and one guarded POST through the
// SSRF guard the caller hands in (its URL check and its dispatcher, which checks every address at
// DNS-lookup time).
import type { SsrfGuard } from '../../platform/ssrf.js';
import { undici } from '../../platform/lazy.js';

export type NotifyFailure = 'unreachable' | 'timeout' | 'blocked' | 'refused' | 'blocked_by_user' | 'server_error' | 'bad_response';

export class NotifyError extends Error {
  constructor(
    readonly failure: NotifyFailure,
    message: string,
    /** The HTTP status the server answered, when it answered. */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'NotifyError';
  }

  /** An outage or a refusal, logged as its message without a stack (platform/logger.ts). */
  readonly expected = true;
}

/** A failure that a later attempt may get past (down, slow, a 5xx); a refusal will not. */
export const isRetryable = (err: unknown): boolean => err instanceof NotifyError && (err.failure === 'unreachable' || err.failure === 'timeout' || err.failure === 'server_error');

export interface PostOptions {
  headers?: Record<string, string>;
  body: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The parts of one answer a notification adapter reads. */
export interface PostAnswer {
  status: number;
  text: string;
}

/** POST through the guard; an address the guard refuses, no answer or no answer in time is a NotifyError. */
export async function guardedPost(guard: SsrfGuard, what: string, raw: string, o: PostOptions): Promise<PostAnswer> {
  let url: URL;
  try {
    url = guard.checkUrl(raw);
  } catch {
    throw new NotifyError('blocked', `The ${what} address was refused by the outbound guard.`);
  }
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  try {
    const res = await undici().fetch(url, { method: 'POST', headers: o.headers, body: o.body, signal, dispatcher: guard.dispatcher, redirect: 'manual' });
    const text = await res.text();
    return { status: res.status, text };
  } catch (err) {
    if (timeout.aborted) throw new NotifyError('timeout', `The ${what} did not answer in time.`);
    if (o.signal?.aborted) throw err;
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code === 'ESSRFBLOCKED') throw new NotifyError('blocked', `The ${what} address was refused by the outbound guard.`);
    throw new NotifyError('unreachable', `The ${what} could not be reached.`);
  }
}

/** An answer's status as a NotifyError (2xx passes). */
export function checkStatus(what: string, status: number): void {
  if (status >= 200 && status < 300) return;
  if (status === 401 || status === 403) throw new NotifyError('refused', `The ${what} refused the credentials.`, status);
  if (status >= 500) throw new NotifyError('server_error', `The ${what} had an error (${status}).`, status);
  throw new NotifyError('refused', `The ${what} refused the message (${status}).`, status);
}
