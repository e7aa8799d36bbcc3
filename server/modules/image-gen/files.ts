// Image generation's files on disk, always reached through the one path guard: each member's
// pictures and reference faces under DATA_DIR/images/<userId>/ (the rows keep the path relative to
// DATA_DIR/images), and the household's LoRAs in the engine's models/loras folder (the rows keep
// the file name relative to it).
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { resolveInside } from '../../platform/path-guard.js';

/**
 * The LoRA files the engine's loras folder may hold (recover-disk registers what an admin copied there
 * by hand); an import adds only .safetensors (safetensors.ts checkLoraFile).
 */
export const LORA_EXTENSIONS = ['.safetensors', '.ckpt', '.pt'] as const;
export const isLoraFileName = (name: string): boolean => LORA_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext));

export class ImageFiles {
  constructor(
    private readonly dataDir: string,
    /** The engine's loras folder as set up now (it follows the engine's install folder). */
    private readonly lorasDir: () => Promise<string>,
  ) {}

  get root(): string {
    return path.join(this.dataDir, 'images');
  }

  /** The absolute path of a stored relative path, or null when it leads outside (or is the root). */
  resolve(relative: string): string | null {
    const p = resolveInside(this.root, relative);
    return p && p !== this.root ? p : null;
  }

  relativeFor(userId: string, name: string): string {
    return path.posix.join(userId, name);
  }

  /** The member's folder, made when missing; its absolute path. */
  async userDir(userId: string): Promise<string> {
    const dir = this.resolve(userId);
    if (!dir) throw new Error('bad user folder');
    await mkdir(dir, { recursive: true });
    return dir;
  }

  async size(relative: string | null): Promise<number | null> {
    const p = relative ? this.resolve(relative) : null;
    if (!p) return null;
    try {
      const s = await stat(p);
      return s.isFile() ? s.size : null;
    } catch {
      return null;
    }
  }

  async open(relative: string | null): Promise<{ stream: NodeJS.ReadableStream & { destroy(): void }; size: number } | null> {
    const size = await this.size(relative);
    const p = relative ? this.resolve(relative) : null;
    if (size === null || !p) return null;
    return { stream: createReadStream(p), size };
  }

  async remove(relative: string | null): Promise<void> {
    const p = relative ? this.resolve(relative) : null;
    if (p) await rm(p, { force: true });
  }

  async removeUserDir(userId: string): Promise<void> {
    const dir = this.resolve(userId);
    if (dir && !userId.includes('/')) await rm(dir, { recursive: true, force: true });
  }

  // ---- LoRAs -------------------------------------------------------------------------------
  async loraDir(): Promise<string> {
    return this.lorasDir();
  }

  /** A LoRA file's absolute path, or null when the name leads outside the loras folder. */
  async loraPath(fileName: string): Promise<string | null> {
    const dir = await this.lorasDir();
    const p = resolveInside(dir, fileName);
    return p && p !== path.resolve(dir) ? p : null;
  }

  async loraSize(fileName: string): Promise<number | null> {
    const p = await this.loraPath(fileName);
    if (!p) return null;
    try {
      const s = await stat(p);
      return s.isFile() ? s.size : null;
    } catch {
      return null;
    }
  }

  /** The LoRA files in the folder (top level), by name. */
  async loraFiles(): Promise<string[]> {
    try {
      const entries = await readdir(await this.lorasDir(), { withFileTypes: true });
      return entries.filter((e) => e.isFile() && isLoraFileName(e.name)).map((e) => e.name).sort();
    } catch {
      return [];
    }
  }

  async removeLora(fileName: string): Promise<void> {
    const p = await this.loraPath(fileName);
    if (p) await rm(p, { force: true });
  }
}
