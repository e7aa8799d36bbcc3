// Reading a Homebox CSV import, run in the parse worker (server/platform/workers/parse-worker.ts),
// so the HTTP server's event loop never waits behind a large or hostile file (issue 29: a 1.6 MB
// header of 100,000 columns held every other request for 1.6 s on the main thread). The worker
// parses and maps every row (homebox-csv.ts); the main thread checks the header's width before
// sending the file (a cheap count), validates what comes back row by row and writes the rows. This
// module is both the worker's `handlers` and the main thread's typed client.
import { z } from 'zod';
import { AppError, BadRequestError } from '../../errors.js';
// types only: the worker's entry imports this module, so a value import back would be a cycle
import type { ParseWorker, RunOptions } from '../../platform/workers/parse-worker.js';
import { checkHomeboxHeader, mapHomeboxFile } from './homebox-csv.js';
import { CreateDeviceBody } from './schema.js';

/** This module, as the parse worker loads it (source under tsx/vitest, compiled under dist). */
export const CSV_TASKS_MODULE = new URL(import.meta.url);

const FileInput = z.object({ text: z.string() });
const Refusal = z.object({ ok: z.literal(false), code: z.string(), message: z.string() });
const Rows = z.object({ ok: z.literal(true), rows: z.array(z.unknown()) });
const Output = z.union([Rows, Refusal]);

/** One row as the worker mapped it: checked again on this side of the thread boundary. */
export const RowResult = z.union([
  z.object({ line: z.number().int().positive(), body: CreateDeviceBody, ref: z.string().nullable() }),
  z.object({ line: z.number().int().positive(), reason: z.string() }),
]);
export type RowResult = z.infer<typeof RowResult>;

// ---- worker side ----

export const handlers = {
  homeboxRows(raw: unknown): z.infer<typeof Output> {
    const { text } = FileInput.parse(raw);
    try {
      return { ok: true, rows: mapHomeboxFile(text) };
    } catch (err) {
      if (err instanceof AppError && err.status === 400) return { ok: false, code: err.code, message: err.message };
      throw err;
    }
  },
};

// ---- main thread ----

/** The typed face of the handlers above, run in `worker`. */
export class CsvTasks {
  constructor(private readonly worker: ParseWorker) {}

  /**
   * The rows of a Homebox file, each still to be checked with RowResult; 400 with the worker's
   * sentence when the file is not one Hearth can read. A header wider than the cap is refused here,
   * before the file is sent anywhere. A worker that runs out of time or memory rejects with the
   * parse worker's WorkerTimeoutError / WorkerCrashedError (the caller says what that means).
   */
  async homeboxRows(text: string, opts?: RunOptions): Promise<unknown[]> {
    checkHomeboxHeader(text.replace(/^\uFEFF/, ''));
    const out = Output.parse(await this.worker.run('homeboxRows', { text }, opts));
    if (!out.ok) throw new BadRequestError(out.message, undefined, out.code);
    return out.rows;
  }

  /** Stops the worker (a later task starts a new one). */
  close(): Promise<void> {
    return this.worker.close();
  }
}
