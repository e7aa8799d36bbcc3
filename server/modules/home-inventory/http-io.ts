// Request and response plumbing for the inventory routes: a multipart upload streamed to the temp
// file the service named (server/http/upload.ts, with the inventory's sentences), a raw body read up to
// a limit, and a stored file piped out with its headers. Transport only; the rules are the services'.
import type { Request, Response } from 'express';
import { pipeToResponse } from '../../http/body.js';
import { receiveFile, receiveFileInMemory, uploadSize, type ReceivedFile } from '../../http/upload.js';
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
  return receiveFileInMemory(req, max, {
    tooLarge: `That file is larger than ${uploadSize(max)}. Split it and import each part.`,
    noFile: 'The form has no file in it. Choose the CSV file to import.',
    maxFields: 10,
  });
}
