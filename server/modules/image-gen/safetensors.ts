// The header of a .safetensors file (8-byte little-endian length, then that many bytes of JSON:
// tensor entries and an optional `__metadata__` map of strings), read without loading the weights,
// and what a LoRA import wants from it: trigger words and the base model it was trained on. The
// header is bounded and checked, and anything else is refused with InvalidSafetensorsError.
// `checkLoraFile` is the one check both ways a LoRA comes in make (an upload, a model-hub import):
// only .safetensors, pickle formats refused by name, the header read and checked against the file.
import { open } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../errors.js';

/** The one LoRA format Hearth adds: plain tensors, nothing that runs when loaded. */
export const LORA_FORMAT = '.safetensors';
/** PyTorch's pickle formats: loading one can run any code its author put in it. */
export const PICKLE_EXTENSIONS = ['.ckpt', '.pt', '.pth', '.bin', '.pkl'] as const;

/** A LoRA in a pickle format: 422 `pickle_lora_refused`, before any byte of it is kept. */
export class PickleLoraError extends AppError {
  constructor(fileName: string) {
    super(
      422,
      'pickle_lora_refused',
      `${path.basename(fileName)} is a pickle file (.ckpt, .pt, .pth or .bin), which can run code on this computer when it is loaded. Hearth only adds LoRAs as .safetensors files: look for a .safetensors version of it.`,
    );
  }
}

/** Whether a file name is in a pickle format (refused by both imports). */
export const isPickleFileName = (name: string): boolean => (PICKLE_EXTENSIONS as readonly string[]).includes(path.extname(name).toLowerCase());

/** Whether a file name is a LoRA Hearth may add (.safetensors). */
export const isSafetensorsFileName = (name: string): boolean => path.extname(name).toLowerCase() === LORA_FORMAT;

/**
 * The check both LoRA imports make on the file they are about to add: a pickle name is refused
 * (PickleLoraError), any other name but .safetensors is `notLora`'s error, and the file's header
 * must read as a .safetensors header whose tensors lie inside the file (InvalidSafetensorsError).
 */
export async function checkLoraFile(fileName: string, filePath: string, notLora: () => Error): Promise<SafetensorsHeader> {
  assertLoraFileName(fileName, notLora);
  return readSafetensorsFile(filePath);
}

/** The name half of `checkLoraFile`, for a refusal before the bytes arrive. */
export function assertLoraFileName(fileName: string, notLora: () => Error): void {
  if (isPickleFileName(fileName)) throw new PickleLoraError(fileName);
  if (!isSafetensorsFileName(fileName)) throw notLora();
}

/**
 * Largest header read. The format allows 100 MB; real LoRA headers are a few hundred KB (a large
 * ss_tag_frequency reaches a few MB), so more than this is a broken or hostile file.
 */
export const SAFETENSORS_HEADER_MAX_BYTES = 16 * 1024 * 1024;

export type SafetensorsProblem = 'too_short' | 'header_too_large' | 'header_truncated' | 'not_json' | 'bad_entry';

/** Not a .safetensors file Hearth can read: 422 `invalid_safetensors`, with the reason for the logs. */
export class InvalidSafetensorsError extends AppError {
  constructor(readonly problem: SafetensorsProblem) {
    super(422, 'invalid_safetensors', 'That file is not a LoRA Hearth can read: its .safetensors header is damaged or missing.', { problem });
  }
}

export interface SafetensorsHeader {
  /** Bytes of JSON after the 8-byte length. */
  headerBytes: number;
  tensorCount: number;
  /** `__metadata__`: string keys to string values ({} when absent). */
  metadata: Record<string, string>;
}

const DTYPES = new Set(['BOOL', 'U8', 'I8', 'F8_E5M2', 'F8_E4M3', 'F8_E8M0', 'I16', 'U16', 'F16', 'BF16', 'I32', 'U32', 'F32', 'F64', 'I64', 'U64', 'F4', 'F6_E2M3', 'F6_E3M2', 'C64']);

/** The header's length from the file's first 8 bytes (checked against the cap and the file size). */
export function headerLengthOf(first: Uint8Array, fileSize?: number): number {
  if (first.byteLength < 8) throw new InvalidSafetensorsError('too_short');
  const n = Buffer.from(first.buffer, first.byteOffset, 8).readBigUInt64LE(0);
  if (n < 2n) throw new InvalidSafetensorsError('not_json');
  if (n > BigInt(SAFETENSORS_HEADER_MAX_BYTES)) throw new InvalidSafetensorsError('header_too_large');
  const len = Number(n);
  if (fileSize !== undefined && 8 + len > fileSize) throw new InvalidSafetensorsError('header_truncated');
  return len;
}

/**
 * Parses the header from the file's first bytes (at least 8 + its length; more is ignored). With
 * `fileSize`, every tensor's data must also lie inside the file.
 */
export function parseSafetensorsHeader(bytes: Uint8Array, fileSize?: number): SafetensorsHeader {
  const len = headerLengthOf(bytes, fileSize);
  if (bytes.byteLength < 8 + len) throw new InvalidSafetensorsError('header_truncated');
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + 8, len).toString('utf8');
  // the format: a JSON object starting with '{', possibly padded with spaces at the end
  if (!text.startsWith('{')) throw new InvalidSafetensorsError('not_json');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InvalidSafetensorsError('not_json');
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new InvalidSafetensorsError('not_json');

  const dataBytes = fileSize !== undefined ? fileSize - 8 - len : Infinity;
  let metadata: Record<string, string> = {};
  let tensorCount = 0;
  for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
    if (key === '__metadata__') {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InvalidSafetensorsError('bad_entry');
      const entries = Object.entries(value as Record<string, unknown>);
      if (entries.some(([, v]) => typeof v !== 'string')) throw new InvalidSafetensorsError('bad_entry');
      metadata = Object.fromEntries(entries) as Record<string, string>;
      continue;
    }
    const t = value as { dtype?: unknown; shape?: unknown; data_offsets?: unknown } | null;
    const offsets = t?.data_offsets;
    const ok =
      t !== null &&
      typeof t === 'object' &&
      typeof t.dtype === 'string' &&
      DTYPES.has(t.dtype) &&
      Array.isArray(t.shape) &&
      t.shape.every((d) => Number.isSafeInteger(d) && (d as number) >= 0) &&
      Array.isArray(offsets) &&
      offsets.length === 2 &&
      offsets.every((o) => Number.isSafeInteger(o) && (o as number) >= 0) &&
      (offsets[0] as number) <= (offsets[1] as number) &&
      (offsets[1] as number) <= dataBytes;
    if (!ok) throw new InvalidSafetensorsError('bad_entry');
    tensorCount++;
  }
  return { headerBytes: len, tensorCount, metadata };
}

/** Reads only the header of a file on disk. */
export async function readSafetensorsFile(path: string): Promise<SafetensorsHeader> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const first = Buffer.alloc(8);
    const { bytesRead } = await file.read(first, 0, 8, 0);
    const len = headerLengthOf(first.subarray(0, bytesRead), size);
    const all = Buffer.alloc(8 + len);
    first.copy(all);
    await file.read(all, 8, len, 8);
    return parseSafetensorsHeader(all, size);
  } finally {
    await file.close();
  }
}

// ── What a LoRA import takes from the metadata ──────────────────────────────────────────────────

export type BaseFamily = 'sd15' | 'sd2' | 'sdxl' | 'sd3' | 'flux';

export interface LoraFileInfo {
  /** Words that switch the LoRA on, best first (at most TRIGGER_WORDS_MAX). */
  triggerWords: string[];
  /** The base model as the file names it (ss_base_model_version or modelspec.architecture). */
  baseModel: string | null;
  baseFamily: BaseFamily | null;
  title: string | null;
}

export const TRIGGER_WORDS_MAX = 5;

const parseJsonObject = (s: string | undefined): Record<string, unknown> | null => {
  if (!s) return null;
  try {
    const v: unknown = JSON.parse(s);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/** kohya's dataset folders are named `<repeats>_<trigger> [class]`, e.g. `10_sks dog`. */
const DATASET_DIR = /^\d+_(.+)$/;

function triggerWordsOf(meta: Record<string, string>): string[] {
  const out: string[] = [];
  const push = (w: string): void => {
    const t = w.trim().replace(/\s+/g, ' ');
    if (t && t.length <= 100 && !out.some((o) => o.toLowerCase() === t.toLowerCase())) out.push(t);
  };
  // stated by the trainer: modelspec's trigger phrase (comma-separated)
  for (const key of ['modelspec.trigger_phrase', 'ss_trigger_phrase', 'trigger_phrase']) meta[key]?.split(',').forEach(push);
  // kohya: the folder names, then the captions' most frequent tags (the activation tag is in every caption)
  const dirs = parseJsonObject(meta.ss_dataset_dirs);
  if (dirs) for (const dir of Object.keys(dirs)) push(DATASET_DIR.exec(dir)?.[1] ?? '');
  const freq = parseJsonObject(meta.ss_tag_frequency);
  if (freq) {
    const counts = new Map<string, number>();
    for (const tags of Object.values(freq)) {
      if (tags === null || typeof tags !== 'object') continue;
      for (const [tag, n] of Object.entries(tags as Record<string, unknown>)) if (typeof n === 'number') counts.set(tag.trim(), (counts.get(tag.trim()) ?? 0) + n);
    }
    [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3).forEach(([tag]) => push(tag));
  }
  return out.slice(0, TRIGGER_WORDS_MAX);
}

/** The model family from what trainers write (ss_base_model_version: `sdxl_base_v1-0`, `sd_v1`; modelspec: `stable-diffusion-xl-v1-base/lora`). */
export function baseFamilyOf(name: string | null): BaseFamily | null {
  if (!name) return null;
  const n = name.toLowerCase();
  if (/flux/.test(n)) return 'flux';
  if (/sdxl|stable-diffusion-xl|\bxl\b|pony|illustrious/.test(n)) return 'sdxl';
  if (/sd3|stable-diffusion-3/.test(n)) return 'sd3';
  if (/sd_?v?2|stable-diffusion-v2|sd_2/.test(n)) return 'sd2';
  if (/sd_?v?1|stable-diffusion-v1|sd15|sd_1/.test(n)) return 'sd15';
  return null;
}

/** Trigger words, base model and title from a LoRA's `__metadata__`. */
export function loraInfoFromMetadata(meta: Record<string, string>): LoraFileInfo {
  const baseModel = meta.ss_base_model_version?.trim() || meta['modelspec.architecture']?.trim() || null;
  return {
    triggerWords: triggerWordsOf(meta),
    baseModel,
    baseFamily: baseFamilyOf(baseModel) ?? baseFamilyOf(meta['modelspec.architecture'] ?? null) ?? (meta.ss_sd_model_name ? baseFamilyOf(meta.ss_sd_model_name) : null),
    title: meta['modelspec.title']?.trim() || meta.ss_output_name?.trim() || null,
  };
}
