// A multipart upload with one file, streamed to the file a service named (busboy, capped: over the
// cap is 413 and the partial file is left for the caller to remove), its first bytes kept for
// sniffing and its text fields collected; or, for a small import file, read into memory. The
// inventory's and image generation's upload routes use it, each with its own sentences.
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Request } from 'express';
import { BadRequestError, PayloadTooLargeError } from '../errors.js';

/** Room for the multipart framing and the text fields around the file. */
export const FORM_OVERHEAD = 64 * 1024;
const HEAD_BYTES = 64;

/** "25 MB", "2 GB": an upload cap as a person reads it. */
export const uploadSize = (n: number): string => (n >= 1024 ** 3 ? `${Math.round(n / 1024 ** 3)} GB` : `${Math.round(n / 1024 ** 2)} MB`);

export interface ReceivedFile {
  bytes: number;
  /** The name the browser sent (without folders), if any. */
  filename: string | null;
  /** The file's first bytes (what the file really is). */
  head: Buffer;
  fields: Record<string, string>;
}

export interface ReceiveFileOptions {
  /** The 413's sentence. */
  tooLarge: string;
  /** The 400's sentence for a form without a file. */
  noFile: string;
  /** A form with no file answers `bytes: 0` instead of 400 (an edit of a picture already stored). */
  fileOptional?: boolean;
  /** Text fields the form may carry besides the file. */
  maxFields: number;
}

const unreadable = () => new BadRequestError('The form upload could not be read. Choose the file again.');

interface OpenForm {
  bb: busboy.Busboy;
  /** Rejects once: stops reading the request and drains it. */
  fail: (err: Error) => void;
  failed: () => boolean;
}

/**
 * The part every one-file form shares: a declared size over the cap is refused before reading, busboy
 * is opened with the caps, an unreadable form is 400; `read` wires the file and answers.
 */
function readForm<T>(req: Request, max: number, maxFields: number, tooLarge: () => Error, read: (form: OpenForm, resolve: (value: T) => void) => void, fieldSize = 4_000): Promise<T> {
  const declared = Number(req.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max + FORM_OVERHEAD) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: max, fields: maxFields, fieldSize, parts: maxFields + 2 } });
    } catch {
      req.resume();
      reject(unreadable());
      return;
    }
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(bb);
      req.resume();
      reject(err);
    };
    read({ bb, fail, failed: () => failed }, resolve);
    bb.on('error', () => fail(unreadable()));
    req.pipe(bb);
  });
}

/**
 * Refuses a request that is not a multipart form (400 with a sentence), draining what it sent: for a
 * route that checks its form before anything else (a request that could never work is 4xx, even when
 * the feature behind it is unavailable).
 */
export function assertMultipartForm(req: Request): void {
  if (!/^multipart\/form-data/i.test(req.get('content-type') ?? '')) {
    req.resume();
    throw new BadRequestError('Send the file as a form upload (multipart/form-data) with a field named file.');
  }
}

/** Reads a multipart form with one file (the first file part) into `target`, at most `max` bytes. */
export function receiveFile(req: Request, target: string, max: number, opts: ReceiveFileOptions): Promise<ReceivedFile> {
  try {
    assertMultipartForm(req);
  } catch (err) {
    return Promise.reject(err as Error);
  }
  const tooLarge = () => new PayloadTooLargeError(opts.tooLarge);
  return readForm<ReceivedFile>(req, max, opts.maxFields, tooLarge, ({ bb, fail, failed }, resolve) => {
    const fields: Record<string, string> = {};
    let filename: string | null = null;
    let bytes = 0;
    const head: Buffer[] = [];
    let headLength = 0;
    let writing: Promise<void> | null = null;
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
      // over the cap: answer once the partial file is closed, so the caller's removal of it is final
      // (a write stream still opening would otherwise make the file again after it was removed)
      stream.on('limit', () => void (writing ?? Promise.resolve()).then(() => fail(tooLarge())));
      writing = pipeline(stream, createWriteStream(target)).catch((err: unknown) => fail(err instanceof Error ? err : new Error(String(err))));
    });
    bb.on('close', () => {
      void (async () => {
        // the file's own write finishes after the form is read
        await writing;
        if (failed()) return;
        if (!writing && !opts.fileOptional) return fail(new BadRequestError(opts.noFile));
        resolve({ bytes, filename, head: Buffer.concat(head), fields });
      })();
    });
  });
}

/** The one file of a small multipart form, in memory (an import file), at most `max` bytes. */
export async function receiveFileInMemory(req: Request, max: number, opts: Pick<ReceiveFileOptions, 'tooLarge' | 'noFile' | 'maxFields'>): Promise<Buffer> {
  return (await receiveFormInMemory(req, max, opts)).bytes;
}

export interface FormInMemoryOptions extends Pick<ReceiveFileOptions, 'tooLarge' | 'noFile' | 'maxFields'> {
  /** A text field's longest value in bytes (default 4,000); a longer one is cut and named in `truncated`. */
  fieldSize?: number;
}

/**
 * A small multipart form held in memory, never on disk (a photo to look at once): its one file, at
 * most `max` bytes, and its text fields, with the names of those cut at `fieldSize`.
 */
export function receiveFormInMemory(req: Request, max: number, opts: FormInMemoryOptions): Promise<{ bytes: Buffer; fields: Record<string, string>; truncated: string[] }> {
  const tooLarge = () => new PayloadTooLargeError(opts.tooLarge);
  return readForm(
    req,
    max,
    opts.maxFields,
    tooLarge,
    ({ bb, fail, failed }, resolve: (v: { bytes: Buffer; fields: Record<string, string>; truncated: string[] }) => void) => {
      const chunks: Buffer[] = [];
      const fields: Record<string, string> = {};
      const truncated: string[] = [];
      let got = false;
      bb.on('field', (name, value, info) => {
        fields[name] = value;
        if (info.valueTruncated) truncated.push(name);
      });
      bb.on('file', (_name, stream) => {
        if (got) {
          stream.resume();
          return;
        }
        got = true;
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('limit', () => fail(tooLarge()));
      });
      bb.on('close', () => {
        if (failed()) return;
        if (!got) return fail(new BadRequestError(opts.noFile));
        resolve({ bytes: Buffer.concat(chunks), fields, truncated });
      });
    },
    opts.fieldSize,
  );
}
