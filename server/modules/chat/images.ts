// Pictures attached to a chat message: base64 from the client, checked by their first bytes (JPEG,
// PNG, WebP, GIF) and size, stored under DATA_DIR/chat/<member>/<conversation>/ and always reached
// through the one path guard.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BadRequestError, PayloadTooLargeError } from '../../errors.js';
import { resolveInside } from '../../platform/path-guard.js';
import { MAX_IMAGE_BYTES } from './schema.js';

export interface CheckedImage {
  bytes: Buffer;
  contentType: 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif';
  ext: string;
}

const EXT = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif' } as const;

function imageType(b: Buffer): CheckedImage['contentType'] | null {
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  const head = b.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes and checks each picture; a 4xx with a sentence for the first one that is not acceptable. */
export function checkImages(encoded: readonly string[]): CheckedImage[] {
  return encoded.map((e, i) => {
    const which = encoded.length > 1 ? `Picture ${i + 1}` : 'The picture';
    const clean = e.replace(/\s+/g, '');
    if (clean.length % 4 !== 0 || !BASE64.test(clean)) throw new BadRequestError(`${which} is not a picture Hearth can read (send it as base64).`);
    if ((clean.length / 4) * 3 > MAX_IMAGE_BYTES + 3) throw new PayloadTooLargeError(`${which} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB. Send a smaller one.`);
    const bytes = Buffer.from(clean, 'base64');
    if (bytes.length > MAX_IMAGE_BYTES) throw new PayloadTooLargeError(`${which} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB. Send a smaller one.`);
    const contentType = imageType(bytes);
    if (!contentType) throw new BadRequestError(`${which} is not a JPEG, PNG, WebP or GIF image.`);
    return { bytes, contentType, ext: EXT[contentType] };
  });
}

export class ChatImageFiles {
  constructor(private readonly dataDir: string) {}

  get root(): string {
    return path.join(this.dataDir, 'chat');
  }

  private resolve(relative: string): string | null {
    return resolveInside(this.root, relative);
  }

  /** Writes one picture; returns the path relative to the chat folder. */
  async write(userId: string, conversationId: string, imageId: string, image: CheckedImage): Promise<string> {
    const relative = path.posix.join(userId, conversationId, `${imageId}.${image.ext}`);
    const target = this.resolve(relative);
    if (!target) throw new BadRequestError('That picture cannot be stored.');
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, image.bytes);
    return relative;
  }

  /** A stored picture's bytes, or null when its file is gone or its path leads outside. */
  async read(relative: string): Promise<Buffer | null> {
    const target = this.resolve(relative);
    if (!target) return null;
    try {
      return await readFile(target);
    } catch {
      return null;
    }
  }

  async removeConversation(userId: string, conversationId: string): Promise<void> {
    const dir = this.resolve(path.posix.join(userId, conversationId));
    if (dir && dir !== this.root) await rm(dir, { recursive: true, force: true });
  }

  async removeUser(userId: string): Promise<void> {
    const dir = this.resolve(userId);
    if (dir && dir !== this.root) await rm(dir, { recursive: true, force: true });
  }
}
