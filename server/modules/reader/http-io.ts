// Request and response plumbing for the Reader routes: a generated body written piece by piece and
// a capture file sent with the archive's headers (raw bodies and piping: server/http/body.ts). Transport, so not in the services; nothing here is Reader's rule.
import { once } from 'node:events';
import type { Response } from 'express';
import { pipeToResponse } from '../../http/body.js';
import type { ArchiveFile } from './archive-files-service.js';
import { ARCHIVE_CSP } from './schema.js';

/**
 * Writes a generated body piece by piece, waiting for the client to drain what it was sent. The
 * first piece is read before anything is sent, so an error there is still an ordinary JSON error;
 * a later one ends the response cut short (the error handler destroys it), never as a whole file.
 */
export async function sendPieces(res: Response, pieces: AsyncGenerator<string>): Promise<void> {
  const closed = new AbortController();
  res.once('close', () => closed.abort());
  try {
    for await (const piece of pieces) {
      if (closed.signal.aborted) return;
      if (!res.write(piece)) await once(res, 'drain', { signal: closed.signal }).catch(() => undefined);
    }
    res.end();
  } finally {
    await pieces.return(undefined);
  }
}

/** A capture file with the archive's headers (CSP sandbox, nosniff). */
export function sendArchiveFile(res: Response, file: ArchiveFile, opts: { sameOriginOnly: boolean }): Promise<void> {
  res.status(200).set({
    'Content-Type': file.contentType,
    'Content-Length': String(file.size),
    'Content-Security-Policy': ARCHIVE_CSP,
    'X-Content-Type-Options': 'nosniff',
  });
  // The snapshot page itself has an opaque origin (CSP sandbox): a same-origin CORP would block
  // its own assets on the token path. Files on the session path stay same-origin only.
  if (opts.sameOriginOnly) res.set('Cross-Origin-Resource-Policy', 'same-origin');
  return pipeToResponse(res, file.stream);
}
