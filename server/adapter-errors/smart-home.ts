// The one translation of a Home Assistant failure (adapters/smart-home/home-assistant.ts) into an
// answer: one status, code and sentence per kind (docs/architecture.md, "Adapter failures"). The
// adapter's own words go only to the log; no sentence here names an address or a token.
import { FrigateError } from '../adapters/smart-home/frigate.js';
import { HomeAssistantError, type HomeAssistantFailure } from '../adapters/smart-home/home-assistant.js';
import { AppError } from '../errors.js';

/** The failure kind, for a reaction or a log line; null for anything else. */
export function homeAssistantFailureKind(err: unknown): HomeAssistantFailure | null {
  return err instanceof HomeAssistantError ? err.failure : null;
}

const UNAVAILABLE = 'home_assistant_unavailable';

/** A failure while using the connected Home Assistant (a member's action, a read): its AppError; anything else unchanged. */
export function homeAssistantAppError(err: unknown): unknown {
  if (!(err instanceof HomeAssistantError)) return err;
  switch (err.failure) {
    case 'refused':
      return new AppError(422, 'home_assistant_refused', 'Home Assistant refused that action, so nothing changed. The device may not support it right now.');
    case 'timeout':
      return new AppError(503, UNAVAILABLE, 'Home Assistant did not answer within 10 seconds, so Hearth cannot tell whether anything changed. Look at the device, then try again.');
    case 'auth_failed':
      return new AppError(503, UNAVAILABLE, 'Home Assistant no longer accepts the access token Hearth was given, so nothing changed. An admin can connect it again with a new token.');
    case 'unreachable':
    case 'blocked':
    case 'not_home_assistant':
    case 'bad_response':
      return new AppError(503, UNAVAILABLE, 'Home Assistant is not answering right now, so nothing changed. Check that it is switched on and on the network, then try again.');
  }
}

/** The answer for Home Assistant being down or not connected before anything was asked (the same as one that does not answer). */
export function homeAssistantDown(): AppError {
  return homeAssistantAppError(new HomeAssistantError('unreachable', 'Not connected.')) as AppError;
}

/** A failure of the connect check an admin runs on a typed address and token: every kind a 422 about what was typed. */
export function homeAssistantCheckAppError(err: unknown): unknown {
  if (!(err instanceof HomeAssistantError)) return err;
  switch (err.failure) {
    case 'auth_failed':
      return new AppError(422, 'home_assistant_token_refused', 'Home Assistant did not accept that access token. Create a long-lived access token under your Home Assistant profile, Security, and paste it here.');
    case 'blocked':
      return new AppError(422, 'home_assistant_address_refused', 'Hearth does not connect to that address. Use the address of Home Assistant on the home network, or check whether Hearth runs in offline mode.');
    case 'not_home_assistant':
    case 'bad_response':
    case 'refused':
      return new AppError(422, 'home_assistant_not_found', 'Something answered at that address, but not as Home Assistant does. Check the address and its port (usually 8123).');
    case 'unreachable':
    case 'timeout':
      return new AppError(422, 'home_assistant_unreachable', 'Nothing answered at that address. Check that Home Assistant is running and that the address and port (usually 8123) are right.');
  }
}

/** The status line of a kept connection, in words for the admin page. */
export function homeAssistantStatusSentence(status: 'connecting' | 'connected' | 'auth_failed' | 'unreachable'): string | null {
  switch (status) {
    case 'connected':
      return null;
    case 'connecting':
      return 'Hearth is connecting to Home Assistant.';
    case 'auth_failed':
      return 'Home Assistant no longer accepts the access token Hearth was given (it may have been deleted). Create a new long-lived access token and connect again.';
    case 'unreachable':
      return 'Home Assistant is not answering. Hearth keeps trying; check that it is switched on and on the network.';
  }
}

// ---- Frigate, the camera recorder (adapters/smart-home/frigate.ts) ----------------------------

/** A failure while reading the set-up camera recorder (a snapshot or a clip): its AppError; anything else unchanged. */
export function frigateAppError(err: unknown, what: 'picture' | 'clip' = 'picture'): unknown {
  if (!(err instanceof FrigateError)) return err;
  if (err.failure === 'not_found') return new AppError(404, 'not_found', `The camera recorder no longer has that ${what}.`);
  return new AppError(503, 'camera_recorder_unavailable', `The camera recorder is not answering right now, so the ${what} cannot be shown. Try again later.`);
}

/** A failure of the check an admin runs on a typed camera recorder address: every kind a 422 about what was typed. */
export function frigateCheckAppError(err: unknown): unknown {
  if (!(err instanceof FrigateError)) return err;
  switch (err.failure) {
    case 'auth_failed':
      return new AppError(422, 'camera_recorder_sign_in_refused', 'The camera recorder did not accept that user name and password.');
    case 'blocked':
      return new AppError(422, 'camera_recorder_address_refused', 'Hearth does not connect to that address. Use the camera recorder’s address on the home network.');
    case 'not_frigate':
    case 'not_found':
      return new AppError(422, 'camera_recorder_not_found', 'Something answered at that address, but not as Frigate does. Check the address and its port (usually 5000, or 8971 with a sign-in).');
    case 'unreachable':
    case 'timeout':
      return new AppError(422, 'camera_recorder_unreachable', 'Nothing answered at that address. Check that Frigate is running and that the address and port are right.');
  }
}

/** The camera recorder's failure kind, for a log line; null for anything else. */
export function frigateFailureKind(err: unknown): string | null {
  return err instanceof FrigateError ? err.failure : null;
}
