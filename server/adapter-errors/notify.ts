// The one translation of a notification channel failure (adapters/notify/) into an answer, for the
// admin's connect check (a bot token Telegram does not take, a server that does not answer): 422
// with a sentence about what was typed. Deliveries never answer with one: the dispatcher logs the
// adapter's fixed sentence (no address, no token, no upstream words) in the delivery log.
import { isRetryable, NotifyError, type NotifyFailure } from '../adapters/notify/http.js';
import { AppError } from '../errors.js';

export function notifyCheckAppError(err: unknown, service: string): unknown {
  if (!(err instanceof NotifyError)) return err;
  switch (err.failure) {
    case 'refused':
    case 'blocked_by_user':
      return new AppError(422, 'notify_token_refused', `${service} did not accept that token. Copy it again from where you made it, and try again.`);
    case 'blocked':
      return new AppError(422, 'notify_address_refused', `Hearth may not send to that address. Check the server address.`);
    case 'unreachable':
    case 'timeout':
    case 'server_error':
      return new AppError(422, 'notify_unreachable', `${service} could not be reached to check the settings. Check the address and the network, then try again.`);
    case 'bad_response':
      return new AppError(422, 'notify_bad_response', `${service} answered in a way Hearth could not read. Check the address.`);
  }
}

/** A notification channel failure's kind, for a log line; null for anything else. */
export function notifyFailureKind(err: unknown): NotifyFailure | null {
  return err instanceof NotifyError ? err.failure : null;
}

/** The adapter's fixed sentence (no address, token or upstream words) for the delivery log; null for anything else. */
export function notifyFailureSentence(err: unknown): string | null {
  return err instanceof NotifyError ? err.message : null;
}

/** Whether a later try may get past the failure (down, slow, a 5xx); a refusal will not. */
export const isRetryableNotifyFailure = (err: unknown): boolean => isRetryable(err);
