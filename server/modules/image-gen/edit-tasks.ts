// The local edits (auto_color, adjust) run in a worker thread (server/platform/workers/
// parse-worker.ts), and so does decoding a reference face before it is kept (checkPicture), so the
// HTTP server's event loop never waits behind a 24-megapixel picture and sharp is loaded there, not
// at start. The worker reads and writes the files itself (the main thread
// resolves both paths through the path guard first). This module is both the worker's `handlers`
// and the main thread's typed client; input is parsed in the worker and the answer on the main thread.
import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { UnsupportedMediaError } from '../../errors.js';
import type { ParseWorker, RunOptions } from '../../platform/workers/parse-worker.js';

/** This module, as the worker loads it (source under tsx/vitest, compiled under dist). */
export const EDIT_TASKS_MODULE = new URL(import.meta.url);

/** local-ops' sliders: each -1..1 (sharpness 0..1), clockwise quarter turns. */
const Adjustments = z.object({
  brightness: z.number().optional(),
  contrast: z.number().optional(),
  saturation: z.number().optional(),
  warmth: z.number().optional(),
  sharpness: z.number().optional(),
  rotate: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]).optional(),
});
export type LocalAdjustments = z.infer<typeof Adjustments>;
const EditInput = z.object({ op: z.enum(['auto_color', 'adjust']), from: z.string().min(1), to: z.string().min(1), adjust: Adjustments.optional() });
const EditOutput = z.union([
  z.object({ ok: z.literal(true), width: z.number().int(), height: z.number().int(), bytes: z.number().int() }),
  z.object({ ok: z.literal(false), message: z.string() }),
]);

const CheckInput = z.object({ path: z.string().min(1) });
const CheckOutput = z.union([z.object({ ok: z.literal(true), width: z.number().int(), height: z.number().int() }), z.object({ ok: z.literal(false) })]);

// ---- worker side ----

export const handlers = {
  /** Decodes the whole picture (every pixel, not only its header): ok with its size, or not a picture sharp can read. */
  async checkPicture(raw: unknown): Promise<z.infer<typeof CheckOutput>> {
    const { path } = CheckInput.parse(raw);
    const { default: sharp } = await import('sharp');
    const { LOCAL_OP_MAX_PIXELS } = await import('./local-ops.js');
    try {
      const img = sharp(path, { failOn: 'error', limitInputPixels: LOCAL_OP_MAX_PIXELS });
      const meta = await img.metadata();
      if (!meta.width || !meta.height) return { ok: false };
      await img.stats();
      return { ok: true, width: meta.width, height: meta.height };
    } catch {
      return { ok: false };
    }
  },

  async localEdit(raw: unknown): Promise<z.infer<typeof EditOutput>> {
    const { op, from, to, adjust: adj } = EditInput.parse(raw);
    const ops = await import('./local-ops.js');
    const input = await readFile(from);
    try {
      const out = op === 'auto_color' ? await ops.autoColor(input) : await ops.adjust(input, adj ?? {});
      const { default: sharp } = await import('sharp');
      const meta = await sharp(out).metadata();
      await writeFile(to, out);
      return { ok: true, width: meta.width ?? 0, height: meta.height ?? 0, bytes: out.length };
    } catch (err) {
      // a picture sharp cannot read is the member's to fix (415), said in local-ops' own sentence
      if (err instanceof ops.UnreadablePictureError) return { ok: false, message: err.message };
      throw err;
    }
  },
};

// ---- main thread ----

export class LocalEditTasks {
  constructor(private readonly worker: ParseWorker) {}

  /** Runs one edit from `from` into `to` (a PNG); 415 with a sentence when the picture cannot be read. */
  async run(op: 'auto_color' | 'adjust', from: string, to: string, adjust?: LocalAdjustments, opts?: RunOptions): Promise<{ width: number; height: number; bytes: number }> {
    const res = EditOutput.parse(await this.worker.run('localEdit', { op, from, to, adjust }, opts));
    if (!res.ok) throw new UnsupportedMediaError(res.message);
    return res;
  }

  /** Whether the file is a whole picture sharp can decode (in the worker: a large photo never holds the event loop). */
  async checkPicture(path: string, opts?: RunOptions): Promise<{ width: number; height: number } | null> {
    const res = CheckOutput.parse(await this.worker.run('checkPicture', { path }, opts));
    return res.ok ? { width: res.width, height: res.height } : null;
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
