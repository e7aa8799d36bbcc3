// The one translation of a web search failure (adapters/web-search/searxng.ts) into an answer: one
// status, code and sentence per kind (docs/architecture.md, "Adapter failures"). The adapter's own
// message (which may name the search server's address or its settings) goes only to the log.
import { WebSearchError, type WebSearchFailure } from '../adapters/web-search/searxng.js';
import { AppError } from '../errors.js';

/** The web search's failure kind, for a log line; null for anything else. */
export function webSearchFailureKind(err: unknown): WebSearchFailure | null {
  return err instanceof WebSearchError ? err.failure : null;
}

/** A web search failure as its AppError; anything else comes back unchanged. */
export function webSearchAppError(err: unknown): unknown {
  if (!(err instanceof WebSearchError)) return err;
  switch (err.failure) {
    case 'unreachable':
      return new AppError(503, 'web_search_unavailable', 'Hearth could not reach its web search, so nothing was looked up. Try again later; if it keeps happening, the search server may be switched off.');
    case 'timeout':
      return new AppError(504, 'web_search_timeout', 'The web search took too long to answer, so nothing was looked up. Try again later.');
    case 'blocked':
      return new AppError(
        503,
        'web_search_address_refused',
        "Hearth's web search address leads to this computer or the home network, which Hearth does not search through. An admin can change the address on this page.",
      );
    case 'http_error':
    case 'bad_response':
    case 'too_large':
      return new AppError(502, 'web_search_bad_response', 'The web search gave an answer Hearth could not use, so nothing was looked up. Try again later; if it keeps happening, the search server may need a look.');
  }
}

/** The answer when no web search is set (an admin removed it while a lookup ran): the same as one that does not answer. */
export function webSearchDown(): AppError {
  return webSearchAppError(new WebSearchError('unreachable', 'No web search is set up.')) as AppError;
}
