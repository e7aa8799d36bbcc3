// Request and response plumbing for the image routes: a multipart upload streamed to the file the
// service named (busboy, capped: over the cap is 413 and the caller removes the partial file), its
// text fields collected; a stored picture piped out with its headers. Transport only.
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { BadRequestError, PayloadTooLargeError } from '../../errors.js';
import { pipeToResponse } from '../../http/body.js';

/** Room for the multipart framing and the text fields around the file. */
const FORM_OVERHEAD = 64 * 1024;
const HEAD_BYTES = 64;

const size = (n: number) => (n >= 1024 ** 3 ? `${Math.round(n / 1024 ** 3)} GB` : `${Math.round(n / 1024 ** 2)} MB`);

export interface ReceivedFile {
  bytes: number;
  /** The name the browser sent (without folders), if any. */
  filename: string | null;
  /** The file's first bytes (what the picture really is). */
  head: Buffer;
  fields: Record<string, string>;
}

/**
 * Reads a multipart form with one file (field `file`) into `target`, at most `max` bytes. With
 * `fileOptional`, a form with no file answers `bytes: 0` (an edit of a picture from history).
 */
export function receiveFile(req: Request, target: string, max: number, opts: { fileOptional?: boolean; what?: string } = {}): Promise<ReceivedFile> {
  const tooLarge = () => new PayloadTooLargeError(`That file is larger than ${size(max)}. Hearth takes ${opts.what ?? 'files'} up to ${size(max)}.`);
  if (!/^multipart\/form-data/i.test(req.get('content-type') ?? '')) {
    req.resume();
    return Promise.reject(new BadRequestError('Send the file as a form upload (multipart/form-data) with a field named file.'));
  }
  const declared = Number(req.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max + FORM_OVERHEAD) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: max, fields: 20, fieldSize: 4_000, parts: 22 } });
    } catch {
      req.resume();
      reject(new BadRequestError('The form upload could not be read. Choose the file again.'));
      return;
    }
    const fields: Record<string, string> = {};
    let filename: string | null = null;
    let bytes = 0;
    const head: Buffer[] = [];
    let headLength = 0;
    let writing: Promise<void> | null = null;
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(bb);
      req.resume();
      reject(err);
    };
    bb.on('field', (name, value) => {
      fields[name] = value;
    });
    bb.on('file', (_name, stream, info) => {
      if (writing) {
        stream.resume();
        return;
      }
      filename = info.filename ? info.filename.replace(/^.*[\\/]/, '').slice(0, 200) : null;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (headLength < HEAD_BYTES) {
          head.push(chunk.subarray(0, HEAD_BYTES - headLength));
          headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
        }
      });
      stream.on('limit', () => fail(tooLarge()));
      writing = pipeline(stream, createWriteStream(target)).catch((err: unknown) => fail(err instanceof Error ? err : new Error(String(err))));
    });
    bb.on('error', () => fail(new BadRequestError('The form upload could not be read. Choose the file again.')));
    bb.on('close', () => {
      void (async () => {
        // the file's own write finishes after the form is read
        await writing;
        if (failed) return;
        if (!writing && !opts.fileOptional) return fail(new BadRequestError('The form has no file in it. Choose a file to upload.'));
        resolve({ bytes, filename, head: Buffer.concat(head), fields });
      })();
    });
    req.pipe(bb);
  });
}

/** Sends a stored picture: its type, nosniff, never a page of Hearth's origin. */
export function sendPicture(res: Response, file: { stream: NodeJS.ReadableStream & { destroy(): void }; size: number; contentType: string; fileName: string }): Promise<void> {
  res.status(200).set({
    'Content-Type': file.contentType,
    'Content-Length': String(file.size),
    'Content-Disposition': `inline; filename="${file.fileName.replace(/[^\w.-]/g, '_')}"`,
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Content-Security-Policy': "default-src 'none'; img-src 'self'; sandbox",
  });
  return pipeToResponse(res, file.stream);
}
