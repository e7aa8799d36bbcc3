// The one translation of an archive server failure (adapters/archive-server/kiwix.ts) into an
// answer: one status, code and sentence per kind (docs/architecture.md, "Adapter failures"). Most
// callers fall back instead of answering with it (a search lists nothing from that archive, the
// viewer shows its own page); what does answer (serving the archives again after an install, a
// delete or a check) answers this. The adapter's message names paths and titles: log only.
import { ArchiveServerError, type ArchiveServerFailure } from '../adapters/archive-server/kiwix.js';
import { AppError } from '../errors.js';

/** The archive server's failure kind, for a log line; null for anything else. */
export function archiveServerFailureKind(err: unknown): ArchiveServerFailure | null {
  return err instanceof ArchiveServerError ? err.failure : null;
}

/** An archive server failure as its AppError; anything else comes back unchanged. */
export function archiveServerAppError(err: unknown): unknown {
  if (!(err instanceof ArchiveServerError)) return err;
  switch (err.failure) {
    case 'unreachable':
      return new AppError(503, 'archive_server_unavailable', 'The archive server is not answering right now. Hearth keeps trying; try again in a minute.');
    case 'timeout':
      return new AppError(504, 'archive_server_timeout', 'The archive server took too long to answer. Try again in a minute.');
    case 'http_error':
    case 'bad_response':
      return new AppError(502, 'archive_server_error', 'The archive server gave an answer Hearth could not use. Try again; if it keeps happening, restart it from the Archives page.');
  }
}
