// Manual text extraction with pdf-parse, run in the parse worker (server/platform/workers/
// parse-worker.ts) so the HTTP server's event loop never waits behind a 100-page PDF. The worker
// reads the file itself (the main thread resolves its path through the path guard first), so a
// 50 MB manual is not copied between threads. This module is both the worker's `handlers` and the
// main thread's typed client; the input is parsed in the worker and the answer on the main thread.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { ParseWorker, RunOptions } from '../../platform/workers/parse-worker.js';

/** This module, as the parse worker loads it (source under tsx/vitest, compiled under dist). */
export const PDF_TASKS_MODULE = new URL(import.meta.url);

/** Characters of manual text kept (a long manual's text is cut here). */
export const MAX_MANUAL_TEXT_CHARS = 2_000_000;

const TextInput = z.object({ path: z.string().min(1), maxChars: z.number().int().positive() });
const TextOutput = z.object({ text: z.string(), pages: z.number().int().nonnegative() });

/** Whitespace tidied: no page-marker lines, runs of blank lines folded, trailing spaces gone. */
export function tidyManualText(raw: string): string {
  return raw
    .replace(/\r\n?/g, '\n')
    .replace(/^\s*-- \d+ of \d+ --\s*$/gm, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

// ---- worker side ----

export const handlers = {
  async pdfText(raw: unknown): Promise<z.infer<typeof TextOutput>> {
    const { path, maxChars } = TextInput.parse(raw);
    const { PDFParse } = await import('pdf-parse');
    const parser = new PDFParse({ data: new Uint8Array(await readFile(path)) });
    try {
      const result = await parser.getText();
      const text = tidyManualText(result.text);
      return { text: text.length > maxChars ? text.slice(0, maxChars) : text, pages: result.total };
    } finally {
      await parser.destroy();
    }
  },
};

// ---- main thread ----

/** The typed face of the handlers above, run in `worker`. */
export class PdfTasks {
  constructor(private readonly worker: ParseWorker) {}

  async text(path: string, opts?: RunOptions & { maxChars?: number }): Promise<{ text: string; pages: number }> {
    return TextOutput.parse(await this.worker.run('pdfText', { path, maxChars: opts?.maxChars ?? MAX_MANUAL_TEXT_CHARS }, opts));
  }

  /** Stops the worker (a later task starts a new one). */
  close(): Promise<void> {
    return this.worker.close();
  }
}
