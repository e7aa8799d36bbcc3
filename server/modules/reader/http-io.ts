// Request and response plumbing for the Reader routes: a raw body read up to a limit, a generated
// body written piece by piece, a stream piped out until either side stops, and a capture file sent
// with the archive's headers. Transport, so not in the services; nothing here is Reader's rule.
import { once } from 'node:events';
import type { Request, Response } from 'express';
import { PayloadTooLargeError } from '../../errors.js';
import type { ArchiveFile } from './archive-files.js';
import { ARCHIVE_CSP } from './schema.js';

/** Reads a raw request body up to `max` bytes; over it is 413 (checked on Content-Length first). */
export async function readRawBody(req: Request, max: number): Promise<Buffer> {
  const declared = Number(req.get('content-length') ?? NaN);
  const tooLarge = () => new PayloadTooLargeError(`The upload is larger than ${Math.round(max / 1024 / 1024)} MB.`);
  if (Number.isFinite(declared) && declared > max) {
    req.resume();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      req.resume();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

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

/** Pipes a stream into the response (headers already set): a failed stream cuts the response, a closed response stops the stream. */
export function pipeToResponse(res: Response, stream: NodeJS.ReadableStream & { destroy(): void }): Promise<void> {
  return new Promise((resolve) => {
    stream.once('error', () => {
      res.destroy();
      resolve();
    });
    res.once('close', () => {
      stream.destroy();
      resolve();
    });
    stream.pipe(res);
  });
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
