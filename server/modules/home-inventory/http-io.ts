// Request and response plumbing for the inventory routes: a multipart upload streamed to the temp
// file the service named (server/http/upload.ts, with the inventory's sentences), a raw body read up to
// a limit, and a stored file piped out with its headers. Transport only; the rules are the services'.
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { BadRequestError, PayloadTooLargeError } from '../../errors.js';
import { pipeToResponse } from '../../http/body.js';
import { FORM_OVERHEAD, receiveFile, uploadSize, type ReceivedFile } from '../../http/upload.js';
import type { OpenedFile } from './device-files-service.js';

/**
 * Reads a multipart form with one file: the file is written to `target` (at most `max` bytes, or
 * 413 and the partial file left for the caller to remove), the text fields are collected.
 */
export function receiveUpload(req: Request, target: string, max: number): Promise<ReceivedFile> {
  return receiveFile(req, target, max, {
    tooLarge: `That file is larger than ${uploadSize(max)}. Hearth keeps files up to ${uploadSize(max)}.`,
    noFile: 'The form has no file in it. Choose a photo or a file to upload.',
    maxFields: 10,
  });
}

/** `filename="..."` for plain names and `filename*=` for the exact one. */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Sends a stored file: its type, a safe name, nosniff; a failed read cuts the response. */
export function sendFile(res: Response, file: OpenedFile): Promise<void> {
  res.status(200).set({
    'Content-Type': file.contentType,
    'Content-Length': String(file.size),
    'Content-Disposition': contentDisposition(file.disposition, file.filename),
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
  });
  // a file opened on its own is never a page of Hearth's origin (the PDF viewer needs no sandbox: it runs no page script)
  if (file.contentType !== 'application/pdf') res.set('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
  return pipeToResponse(res, file.stream);
}

/** The one file of a small multipart form, in memory (an import file), up to `max` bytes. */
export function receiveFormFile(req: Request, max: number): Promise<Buffer> {
  const tooLarge = () => new PayloadTooLargeError(`That file is larger than ${uploadSize(max)}. Split it and import each part.`);
  const declared = Number(req.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max + FORM_OVERHEAD) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: max, fields: 10, parts: 12 } });
    } catch {
      req.resume();
      reject(new BadRequestError('The form upload could not be read. Choose the file again.'));
      return;
    }
    const chunks: Buffer[] = [];
    let got = false;
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(bb);
      req.resume();
      reject(err);
    };
    bb.on('file', (_name, stream) => {
      got = true;
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => fail(tooLarge()));
    });
    bb.on('error', () => fail(new BadRequestError('The form upload could not be read. Choose the file again.')));
    bb.on('close', () => {
      if (failed) return;
      if (!got) return fail(new BadRequestError('The form has no file in it. Choose the CSV file to import.'));
      resolve(Buffer.concat(chunks));
    });
    req.pipe(bb);
  });
}
