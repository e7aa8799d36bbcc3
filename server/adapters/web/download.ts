// Resumable HTTP download to disk through the SSRF guard. Writes <dest>.part, resumes with Range
// (and If-Range, so a file that changed upstream restarts instead of mixing two versions), falls
// back to a full restart when the server ignores Range, hashes while streaming, verifies size and
// sha256, then renames into place. Memory stays flat: the body is read into one reused buffer
// (guardedGet), hashed, copied into a small ring of write buffers and written in order; reading
// pauses while the ring is full.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, truncate, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { BlockedUrlError, type AddressGuard } from '../../platform/ssrf-address.js';
import { guardedGet, type GetResponse } from './http-get.js';

/**
 * What went wrong, for the one mapper (adapter-errors/web-fetch.ts): the address refused by the SSRF
 * guard (blocked), no connection (unreachable), no data in time (timeout), a refusing status
 * (http_error), a wrong part, size or checksum (bad_response), or the transfer cut short (cut_off).
 */
export type DownloadFailure = 'blocked' | 'unreachable' | 'timeout' | 'http_error' | 'bad_response' | 'cut_off';

export class DownloadError extends Error {
  constructor(
    message: string,
    /** false when trying again cannot help (404, checksum of a finished file the catalog disagrees with…) */
    readonly retryable: boolean,
    readonly failure: DownloadFailure,
    /** The whole file arrived but its size or checksum is not the one expected. */
    readonly mismatch = false,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

export interface DownloadOptions {
  guard: AddressGuard;
  url: string;
  /** Absolute destination path. */
  dest: string;
  expectedBytes?: number | null;
  sha256?: string | null;
  signal: AbortSignal;
  stallTimeoutMs: number;
  onProgress?: (p: { bytesDone: number; bytesTotal: number | null }) => void;
  /** Extra request headers (a hub's Authorization); sent to the URL's own origin only, never past a redirect to another. */
  headers?: Record<string, string>;
}

export interface DownloadResult {
  bytes: number;
  sha256: string;
  /** Bytes that were already on disk from an earlier attempt. */
  resumedFrom: number;
}

interface PartMeta {
  url: string;
  etag?: string;
  lastModified?: string;
}

const WRITE_BATCH_BYTES = 1024 * 1024;
const WRITE_BUFFERS = 4;

/**
 * Copies body bytes into WRITE_BUFFERS buffers of WRITE_BATCH_BYTES and writes each full one at its
 * place in the file, one write at a time on libuv's pool and in order (so the file is always a
 * prefix of the body, and a failed write stops the ones after it). add() says false once every
 * buffer but the one being filled is waiting to be written, and throws once a write has failed;
 * onRoom is called each time a write has finished.
 */
class BatchWriter {
  private readonly buffers = Array.from({ length: WRITE_BUFFERS }, () => Buffer.allocUnsafe(WRITE_BATCH_BYTES));
  private current = 0;
  private fill = 0;
  private queued = 0;
  private chain: Promise<void> = Promise.resolve();
  private error: unknown = null;

  constructor(
    private readonly file: FileHandle,
    private position: number,
    private readonly onRoom: () => void,
  ) {}

  add(chunk: Buffer): boolean {
    if (this.error) throw this.error;
    for (let at = 0; at < chunk.length; ) {
      const n = chunk.copy(this.buffers[this.current]!, this.fill, at);
      this.fill += n;
      at += n;
      if (this.fill === WRITE_BATCH_BYTES) this.submit();
    }
    return this.queued < WRITE_BUFFERS - 1;
  }

  private submit(): void {
    if (!this.fill) return;
    const bytes = this.buffers[this.current]!.subarray(0, this.fill);
    const at = this.position;
    this.position += this.fill;
    this.current = (this.current + 1) % WRITE_BUFFERS;
    this.fill = 0;
    this.queued++;
    this.chain = this.chain.then(async () => {
      try {
        if (this.error) return;
        for (let done = 0; done < bytes.length; ) done += (await this.file.write(bytes, done, bytes.length - done, at + done)).bytesWritten;
      } catch (err) {
        this.error = err;
      } finally {
        this.queued--;
        this.onRoom();
      }
    });
  }

  /** Writes what is left and waits for every write; throws the first write error. */
  async finish(): Promise<void> {
    this.submit();
    await this.chain;
    if (this.error) throw this.error;
  }
}

export const partPath = (dest: string) => `${dest}.part`;
const metaPath = (dest: string) => `${dest}.part.json`;

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

async function hashFile(file: string, hash: Hash): Promise<void> {
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
}

async function readMeta(dest: string): Promise<PartMeta | null> {
  try {
    return JSON.parse(await readFile(metaPath(dest), 'utf8')) as PartMeta;
  } catch {
    return null;
  }
}

/** Removes a download's partial files (cancel). */
export async function removePartial(dest: string): Promise<void> {
  await rm(partPath(dest), { force: true });
  await rm(metaPath(dest), { force: true });
}

const header = (h: Record<string, string | string[] | undefined>, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

export async function downloadToFile(opts: DownloadOptions): Promise<DownloadResult> {
  const part = partPath(opts.dest);
  await mkdir(path.dirname(opts.dest), { recursive: true });
  let existing = await sizeOf(part);
  const meta = await readMeta(opts.dest);
  if (existing > 0 && (meta?.url !== opts.url || (opts.expectedBytes != null && existing > opts.expectedBytes))) {
    await truncate(part, 0);
    existing = 0;
  }
  const resumedFrom = existing;

  // A stall (no bytes for stallTimeoutMs) aborts the request like a cancel would, with its own reason.
  const stall = new AbortController();
  const signal = AbortSignal.any([opts.signal, stall.signal]);
  let stallTimer: NodeJS.Timeout | undefined;
  const armStall = () => {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(() => stall.abort(new DownloadError(`No data for ${Math.round(opts.stallTimeoutMs / 1000)} s.`, true, 'timeout')), opts.stallTimeoutMs);
  };

  const hash = createHash('sha256');
  let res: GetResponse | undefined;
  try {
    const headers: Record<string, string> = { ...opts.headers, 'accept-encoding': 'identity' };
    if (existing > 0) {
      headers.range = `bytes=${existing}-`;
      const validator = meta?.etag && !meta.etag.startsWith('W/') ? meta.etag : meta?.lastModified;
      if (validator) headers['if-range'] = validator;
    }
    armStall();
    try {
      res = await guardedGet(opts.guard, opts.url, { headers, signal, headersTimeoutMs: opts.stallTimeoutMs, bodyTimeoutMs: opts.stallTimeoutMs });
    } catch (err) {
      if (signal.aborted) throw signal.reason ?? err;
      if (err instanceof BlockedUrlError) throw new DownloadError(err.message, false, 'blocked');
      throw new DownloadError(`Could not connect: ${(err as Error).message}`, true, 'unreachable');
    }
    const { statusCode } = res;
    const response = res;
    let total: number | null = null;
    if (statusCode === 416 && existing > 0) {
      res.discard();
      const m = /\*\/(\d+)/.exec(header(res.headers, 'content-range') ?? '');
      if (m && Number(m[1]) === existing) {
        await hashFile(part, hash);
        return await finish(opts, existing, hash.digest('hex'), resumedFrom);
      }
      await truncate(part, 0);
      throw new DownloadError('The server refused to resume; starting again.', true, 'http_error');
    }
    if (statusCode !== 200 && statusCode !== 206) {
      res.discard();
      const retryable = statusCode >= 500 || statusCode === 408 || statusCode === 429;
      throw new DownloadError(`The server answered ${statusCode}.`, retryable, 'http_error');
    }
    let start = 0;
    if (statusCode === 206) {
      const m = /bytes (\d+)-(\d+)\/(\d+|\*)/.exec(header(res.headers, 'content-range') ?? '');
      if (!m || Number(m[1]) !== existing) {
        res.discard();
        await truncate(part, 0);
        throw new DownloadError('The server sent the wrong part of the file; starting again.', true, 'bad_response');
      }
      start = existing;
      total = m[3] === '*' ? null : Number(m[3]);
      await hashFile(part, hash);
    } else {
      // 200: a fresh start, or a server that ignores Range (or whose file changed): restart from 0.
      if (existing > 0) await truncate(part, 0);
      const len = header(res.headers, 'content-length');
      total = len ? Number(len) : null;
    }
    if (opts.expectedBytes != null && total != null && total !== opts.expectedBytes) {
      res.discard();
      throw new DownloadError(`The file is ${total} bytes, not the ${opts.expectedBytes} expected.`, false, 'bad_response');
    }
    await writeFile(metaPath(opts.dest), JSON.stringify({ url: opts.url, etag: header(res.headers, 'etag'), lastModified: header(res.headers, 'last-modified') } satisfies PartMeta));

    let done = start;
    const bytesTotal = total ?? opts.expectedBytes ?? null;
    opts.onProgress?.({ bytesDone: done, bytesTotal });
    // Bytes are hashed as they arrive and written in batches (BatchWriter). Whatever arrived before
    // a drop or an abort is still written out, so the next attempt resumes after it.
    const file = await open(part, start > 0 ? 'r+' : 'w');
    const writer = new BatchWriter(file, start, () => response.resume());
    let failure: unknown = null;
    try {
      await res.readBody((chunk) => {
        armStall();
        hash.update(chunk);
        done += chunk.length;
        opts.onProgress?.({ bytesDone: done, bytesTotal });
        return writer.add(chunk);
      });
    } catch (err) {
      failure = err;
    } finally {
      try {
        await writer.finish();
      } finally {
        await file.close();
      }
    }
    if (failure) {
      if (signal.aborted) throw signal.reason ?? failure;
      throw new DownloadError(`The connection dropped after ${done} bytes.`, true, 'cut_off');
    }
    if (bytesTotal != null && done !== bytesTotal) throw new DownloadError(`The connection ended after ${done} of ${bytesTotal} bytes.`, true, 'cut_off');
    return await finish(opts, done, hash.digest('hex'), resumedFrom);
  } finally {
    clearTimeout(stallTimer);
    res?.discard(); // a response left unread (a step above failed) must not hold its connection open
  }
}

async function finish(opts: DownloadOptions, bytes: number, digest: string, resumedFrom: number): Promise<DownloadResult> {
  if (opts.expectedBytes != null && bytes !== opts.expectedBytes) {
    await removePartial(opts.dest);
    throw new DownloadError(`The file is ${bytes} bytes, not the ${opts.expectedBytes} expected.`, true, 'bad_response', true);
  }
  if (opts.sha256 && digest !== opts.sha256.toLowerCase()) {
    // A corrupt copy is thrown away so the next attempt starts clean.
    await removePartial(opts.dest);
    throw new DownloadError('The downloaded file is damaged (its checksum does not match).', true, 'bad_response', true);
  }
  await rename(partPath(opts.dest), opts.dest);
  await rm(metaPath(opts.dest), { force: true });
  return { bytes, sha256: digest, resumedFrom };
}
