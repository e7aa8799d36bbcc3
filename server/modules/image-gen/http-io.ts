// Request and response plumbing for the image routes: a multipart upload streamed to the file the
// service named (server/http/upload.ts, with the image routes' sentences), a stored picture piped
// out with its headers. Transport only.
import type { Request, Response } from 'express';
import { pipeToResponse } from '../../http/body.js';
import { receiveFile as receiveUpload, uploadSize, type ReceivedFile } from '../../http/upload.js';

export type { ReceivedFile };

/**
 * Reads a multipart form with one file (field `file`) into `target`, at most `max` bytes. With
 * `fileOptional`, a form with no file answers `bytes: 0` (an edit of a picture from history).
 */
export function receiveFile(req: Request, target: string, max: number, opts: { fileOptional?: boolean; what?: string } = {}): Promise<ReceivedFile> {
  return receiveUpload(req, target, max, {
    tooLarge: `That file is larger than ${uploadSize(max)}. Hearth takes ${opts.what ?? 'files'} up to ${uploadSize(max)}.`,
    noFile: 'The form has no file in it. Choose a file to upload.',
    fileOptional: opts.fileOptional,
    maxFields: 20,
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
