// The one translation of a notification channel failure (adapters/notify/) into an answer, for the
// admin's connect check (a bot token Telegram does not take, a server that does not answer): 422
// with a sentence about what was typed. Deliveries never answer with one: the dispatcher logs the
// adapter's fixed sentence (no address, no token, no upstream words) in the delivery log.
import { NotifyError } from '../adapters/notify/http.js';
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
