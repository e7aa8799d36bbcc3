// A device's manual: a PDF downloaded by the web lookup through the one SSRF guard (every redirect
// hop checked), streamed to the device's folder with its size counted as it arrives (over
// MAX_MANUAL_BYTES it is cut off and thrown away) and its first bytes checked for the PDF magic
// (a web page where a PDF was promised is refused); then its text is extracted with pdf-parse in
// the parse worker, within a time budget, into manualText. An uploaded PDF gets the same
// extraction when the device has no manual text yet (in the background; a failure is logged).
import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { guardedGet, type GetResponse } from '../../adapters/web/http-get.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import { BlockedUrlError, type AddressGuard } from '../../platform/ssrf-address.js';
import { WorkerCrashedError, WorkerTimeoutError } from '../../platform/workers/parse-worker.js';
import type { InventoryFiles } from './files.js';
import type { PdfTasks } from './pdf-tasks.js';
import type { ManualExtraction } from './parts.js';
import { MAX_MANUAL_BYTES } from './schema.js';
import type { HomeInventoryStore } from './store.js';

/** A manual that could not be used, with a sentence saying why (kept, never a raw error). */
export class ManualError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManualError';
  }

  readonly expected = true;
}

export interface ManualServiceDeps {
  store: HomeInventoryStore;
  files: InventoryFiles;
  /** The one SSRF guard (its address half is enough). */
  guard: AddressGuard;
  pdf: PdfTasks;
  clock: Clock;
  logger: Logger;
  /** Size cap of a downloaded manual (default MAX_MANUAL_BYTES). */
  maxBytes?: number;
  /** Longest wait for the server's headers and between body reads (default 30 s). */
  stallTimeoutMs?: number;
  /** Budget of one text extraction in the worker (default 60 s). */
  extractTimeoutMs?: number;
}

export interface FetchedManual {
  manualPath: string;
  bytes: number;
  chars: number;
  pages: number;
}

const PDF_MAGIC = Buffer.from('%PDF-');

export class ManualService implements ManualExtraction {
  private readonly running = new Set<Promise<void>>();
  private readonly maxBytes: number;

  constructor(private readonly deps: ManualServiceDeps) {
    this.maxBytes = deps.maxBytes ?? MAX_MANUAL_BYTES;
  }

  /**
   * Downloads the PDF at `url` into the device's folder and extracts its text; on success the
   * device's manualUrl, manualPath, manualText and manualFetchedAt are set (a previous cached manual
   * is removed). Throws ManualError (or the signal's reason) and leaves nothing behind otherwise.
   */
  async fetchManual(deviceId: string, url: string, signal?: AbortSignal): Promise<FetchedManual> {
    const relative = this.deps.files.relativeFor(deviceId, `manual-${randomUUID()}.pdf`);
    const bytes = await this.download(deviceId, url, relative, signal);
    try {
      const { text, pages } = await this.extract(relative, signal);
      const before = await this.deps.store.getDevice(deviceId);
      if (!before) throw new ManualError('The device was deleted during the lookup.');
      await this.deps.store.updateDevice(deviceId, { manualUrl: url, manualPath: relative, manualText: text, manualFetchedAt: this.deps.clock.now().toISOString(), updatedAt: this.deps.clock.now().toISOString() });
      if (before.manualPath && before.manualPath !== relative && (await this.isLookupManual(deviceId, before.manualPath))) await this.deps.files.remove(before.manualPath);
      return { manualPath: relative, bytes, chars: text.length, pages };
    } catch (err) {
      await this.deps.files.remove(relative);
      throw err;
    }
  }

  /** A cached manual the lookup wrote (not a file the member uploaded, which their files list keeps). */
  private async isLookupManual(deviceId: string, relative: string): Promise<boolean> {
    return !(await this.deps.store.listFiles(deviceId)).some((f) => f.filePath === relative);
  }

  /** Streams the PDF to `relative`; returns its size. */
  private async download(deviceId: string, url: string, relative: string, signal?: AbortSignal): Promise<number> {
    await this.deps.files.ensureDeviceDir(deviceId);
    const target = this.deps.files.resolve(relative);
    if (!target) throw new ManualError('The manual cannot be stored.');
    const stop = new AbortController();
    const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    const stall = this.deps.stallTimeoutMs ?? 30_000;
    let res: GetResponse;
    try {
      res = await guardedGet(this.deps.guard, url, { signal: both, headersTimeoutMs: stall, bodyTimeoutMs: stall, headers: { accept: 'application/pdf' } });
    } catch (err) {
      if (signal?.aborted) throw signal.reason ?? err;
      if (err instanceof BlockedUrlError) throw new ManualError(`The manual's address was refused: ${err.message}`);
      throw new ManualError("The manual's web site could not be reached.");
    }
    if (res.statusCode !== 200) {
      res.discard();
      throw new ManualError(`The manual's web site answered ${res.statusCode} instead of the PDF.`);
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBytes) {
      res.discard();
      throw new ManualError(`The manual is larger than ${Math.round(this.maxBytes / 1024 / 1024)} MB, so Hearth did not keep it.`);
    }

    const out: WriteStream = createWriteStream(target);
    const written = new Promise<void>((resolve, reject) => {
      out.on('finish', resolve);
      out.on('error', reject);
    });
    written.catch(() => undefined);
    out.on('drain', () => res.resume());
    let size = 0;
    let head = Buffer.alloc(0);
    let refusal: ManualError | null = null;
    const refuse = (e: ManualError) => {
      refusal ??= e;
      stop.abort(e);
    };
    try {
      await res.readBody((chunk) => {
        if (refusal) return false;
        if (head.length < PDF_MAGIC.length) {
          head = Buffer.concat([head, chunk.subarray(0, PDF_MAGIC.length - head.length)]);
          if (!head.equals(PDF_MAGIC.subarray(0, head.length))) return void refuse(new ManualError('The link led to a web page, not a PDF manual.'));
        }
        size += chunk.length;
        if (size > this.maxBytes) return void refuse(new ManualError(`The manual is larger than ${Math.round(this.maxBytes / 1024 / 1024)} MB, so Hearth did not keep it.`));
        // the chunk is a view into a reused buffer: copy it for the write
        return out.write(Buffer.from(chunk));
      });
      if (head.length < PDF_MAGIC.length) throw new ManualError('The link led to an empty or damaged file, not a PDF manual.');
    } catch (err) {
      // the stream opens its file on its own: wait until it is closed, or the file appears after the rm
      out.destroy();
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await rm(target, { force: true });
      if (refusal) throw refusal;
      if (signal?.aborted) throw signal.reason ?? err;
      if (err instanceof ManualError) throw err;
      throw new ManualError('The manual download was cut off before it finished.');
    } finally {
      res.discard();
    }
    out.end();
    try {
      await written;
    } catch {
      await rm(target, { force: true });
      throw new ManualError('The manual could not be saved on this computer.');
    }
    return size;
  }

  /** The text of a stored PDF (relative to the inventory root), extracted in the parse worker. */
  async extract(relative: string, signal?: AbortSignal): Promise<{ text: string; pages: number }> {
    const absolute = this.deps.files.resolve(relative);
    if (!absolute) throw new ManualError('The manual cannot be read.');
    try {
      const result = await this.deps.pdf.text(absolute, { signal, timeoutMs: this.deps.extractTimeoutMs ?? 60_000 });
      if (!result.text.trim()) throw new ManualError('The manual has no text Hearth can read (it may be scanned pages).');
      return result;
    } catch (err) {
      if (err instanceof ManualError) throw err;
      if (signal?.aborted) throw signal.reason ?? err;
      if (err instanceof WorkerTimeoutError) throw new ManualError('Reading the manual took too long, so its text was not kept.');
      if (err instanceof WorkerCrashedError) throw new ManualError('The manual was too large or complex to read.');
      throw new ManualError('The file is not a PDF Hearth can read.');
    }
  }

  fromUploadedFile(deviceId: string, fileId: string): void {
    const run = this.extractUpload(deviceId, fileId)
      .catch((err: unknown) => this.deps.logger.warn({ deviceId, fileId, err: (err as Error).message }, "inventory: an uploaded PDF's text was not extracted"))
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  private async extractUpload(deviceId: string, fileId: string): Promise<void> {
    const file = await this.deps.store.getFile(deviceId, fileId);
    if (!file || file.fileType !== 'pdf') return;
    const device = await this.deps.store.getDevice(deviceId);
    if (!device || device.manualText?.trim()) return;
    const { text } = await this.extract(file.filePath);
    // the device may have gained a manual (or gone) while the worker read this one
    const now = await this.deps.store.getDevice(deviceId);
    if (!now || now.manualText?.trim()) return;
    const at = this.deps.clock.now().toISOString();
    await this.deps.store.updateDevice(deviceId, { manualText: text, manualFetchedAt: at, updatedAt: at, ...(now.manualPath ? {} : { manualPath: file.filePath }) });
  }

  /** Waits for the uploads' extractions still running. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  /** Waits for the running extractions, then stops the parse worker (server close). */
  async close(): Promise<void> {
    await this.idle();
    await this.deps.pdf.close();
  }
}
