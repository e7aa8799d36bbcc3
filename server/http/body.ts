// Raw request bodies and streamed responses, for routes that move bytes rather than JSON (the
// Reader's imports and thumbnails, the inventory's CSV import and its files).
import type { Request, Response } from 'express';
import { PayloadTooLargeError } from '../errors.js';

/**
 * Reads a raw request body up to `max` bytes; over it (checked on Content-Length first, then as the
 * bytes arrive) is 413 with `tooLargeMessage`, the rest of the body drained.
 */
export async function readRawBody(req: Request, max: number, tooLargeMessage: string): Promise<Buffer> {
  const declared = Number(req.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) {
    req.resume();
    throw new PayloadTooLargeError(tooLargeMessage);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      req.resume();
      throw new PayloadTooLargeError(tooLargeMessage);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
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
