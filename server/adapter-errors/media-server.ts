// The one translation of a media server failure (adapters/media-server/plex*.ts) into an answer:
// one status, code and sentence per service and kind, the same from every part of the media-server
// module (docs/architecture.md, "Adapter failures"). The adapter's error already carries a fixed
// sentence of its own; the answer never uses it, nor a status, an address or a token.
//
// Reactions that are not answers (a refused shared token tells the connection; a member's refused
// token marks their link; an unknown PIN is an expired one) read the kind with mediaServerFailure().
import { MediaServerError, type MediaServerFailure, type MediaService } from '../adapters/media-server/plex-call.js';
import { AppError } from '../errors.js';

export interface MediaServerContext {
  /**
   * Whose token the call carried: the household's shared one (default), the asking member's own
   * (a refusal is "link again"), or a PIN's fresh one (a refusal is "start again").
   */
  token?: 'shared' | 'member' | 'pin';
  /** The sentence for an item the media server does not know (404). */
  notFound?: string;
}

/**
 * The failure kind of a call to Plex (of one service's when `service` is given), for a reaction or
 * a log line; null for anything else.
 */
export function mediaServerFailure(err: unknown, service?: MediaService): MediaServerFailure | null {
  return err instanceof MediaServerError && (!service || err.service === service) ? err.failure : null;
}

/** Whether the failure is a Plex service (the media server by default) not being there: down, slow or its address refused. */
export function isMediaServerOutage(err: unknown, service: MediaService = 'server'): boolean {
  const kind = mediaServerFailure(err, service);
  return kind === 'unreachable' || kind === 'timeout' || kind === 'blocked';
}

const SENTENCES = {
  serverDown: 'The household’s media server is not answering right now. Try again in a little while.',
  serverSlow: 'The household’s media server took too long to answer. Try again in a little while.',
  serverRefused: 'The household’s media server no longer accepts Hearth’s sign-in. An admin needs to connect it again.',
  serverGarbled: 'The media server sent an answer Hearth could not read. Try again in a little while.',
  notFound: 'The media server does not have that.',
  linkRevoked: 'Plex no longer accepts your linked account (it may have been signed out). Link it again on the Media page.',
  signInRefused: 'Plex no longer accepts this sign-in. Sign in with Plex again.',
  pinRefused: 'Plex did not accept this sign-in. Start again to get a new code.',
  discoverDown: 'Plex’s watchlist service is not answering right now. Try again in a little while.',
  discoverSlow: 'Plex’s watchlist service took too long to answer. Try again in a little while.',
  discoverGarbled: 'Plex’s watchlist service sent an answer Hearth could not read. Try again in a little while.',
  unknownToPlex: 'Plex does not know this title, so it cannot go on a watchlist.',
  accountDown: 'Plex’s sign-in service could not be reached. Try again in a moment.',
  accountSlow: 'Plex’s sign-in service took too long to answer. Try again in a moment.',
  accountGarbled: 'Plex’s sign-in service sent an answer Hearth could not read. Try again in a moment.',
  // an address an admin is setting up
  tokenRefused: 'The media server did not accept that token. Check that it was copied whole, or sign in with Plex instead.',
  addressRefused: 'Hearth cannot use that address. Use the media server’s own address, such as http://192.168.1.20:32400.',
  unreachable: 'Hearth could not reach a media server at that address. Check the address and that the server is switched on.',
  notPlex: 'Something answered at that address, but it is not a Plex Media Server.',
} as const;

/**
 * A failure as a status line kept with a record (a library being set up, a folder check): the
 * adapter's own sentence for its service and kind, built from fixed words and never from an
 * address, a token or upstream text; null for anything else.
 */
export function mediaServerSentence(err: unknown): string | null {
  return err instanceof MediaServerError ? err.message : null;
}

/** A media server failure as its AppError; anything else comes back unchanged. */
export function mediaServerAppError(err: unknown, ctx: MediaServerContext = {}): unknown {
  if (!(err instanceof MediaServerError)) return err;
  const [status, code, sentence] = answer(err, ctx);
  return new AppError(status, code, sentence);
}

/**
 * A failure while an admin sets up the media server's address and token: the answer is about what
 * was typed, so every kind is a 422 naming what to check.
 */
export function mediaServerCheckAppError(err: unknown): unknown {
  if (!(err instanceof MediaServerError)) return err;
  switch (err.failure) {
    case 'unauthorized':
    case 'forbidden':
      return new AppError(422, 'media_token_refused', SENTENCES.tokenRefused);
    case 'blocked':
      return new AppError(422, 'media_address_refused', SENTENCES.addressRefused);
    case 'bad_response':
    case 'not_found':
    case 'bad_request':
    case 'http_error':
      return new AppError(422, 'media_not_plex', SENTENCES.notPlex);
    case 'unreachable':
    case 'timeout':
      return new AppError(422, 'media_server_unreachable', SENTENCES.unreachable);
  }
}

function answer(err: MediaServerError, ctx: MediaServerContext): [number, string, string] {
  const kind = err.failure;
  if (kind === 'unauthorized' && (ctx.token === 'member' || err.service === 'discover')) return [409, 'media_link_revoked', SENTENCES.linkRevoked];
  if (kind === 'unauthorized' && (ctx.token === 'pin' || err.service === 'account')) {
    return ctx.token === 'pin' ? [409, 'pin_refused', SENTENCES.pinRefused] : [409, 'media_sign_in_refused', SENTENCES.signInRefused];
  }
  switch (err.service) {
    case 'server':
      if (kind === 'unreachable' || kind === 'blocked') return [503, 'media_server_down', SENTENCES.serverDown];
      if (kind === 'timeout') return [504, 'media_server_timeout', SENTENCES.serverSlow];
      if (kind === 'unauthorized') return [503, 'media_server_refused', SENTENCES.serverRefused];
      if (kind === 'not_found') return [404, 'not_found', ctx.notFound ?? SENTENCES.notFound];
      return [502, 'media_server_error', SENTENCES.serverGarbled];
    case 'discover':
      if (kind === 'unreachable' || kind === 'blocked') return [503, 'media_discover_down', SENTENCES.discoverDown];
      if (kind === 'timeout') return [504, 'media_discover_timeout', SENTENCES.discoverSlow];
      if (kind === 'not_found') return [422, 'media_not_watchlistable', SENTENCES.unknownToPlex];
      return [502, 'media_discover_error', SENTENCES.discoverGarbled];
    case 'account':
      if (kind === 'unreachable' || kind === 'blocked') return [503, 'media_account_unavailable', SENTENCES.accountDown];
      if (kind === 'timeout') return [504, 'media_account_timeout', SENTENCES.accountSlow];
      return [502, 'media_account_error', SENTENCES.accountGarbled];
  }
}
