// Where a reader item's capture lives on disk, how a request path under /:id/archive/ maps onto it
// (through the one path guard, after exactly one percent-decoding), how files are typed (extension,
// else magic bytes — never sniffed as HTML). The full-text query builder is in search/text.ts.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { resolveInside } from '../../platform/path-guard.js';

export const readerRoot = (dataDir: string) => path.join(dataDir, 'reader');
export const itemDir = (dataDir: string, id: string) => path.join(readerRoot(dataDir), id);
/** The client-rendered DOM waiting for the archive job (beside, not inside, the served folder). */
export const clientSnapshotFile = (dataDir: string, id: string) => path.join(readerRoot(dataDir), `${id}.client-snapshot.json`);
export const archivePublicBase = (id: string) => `/api/reader/${encodeURIComponent(id)}/archive/`;

/**
 * Maps the still-encoded path after /archive/ to a file under root, or null (answer 404).
 * Decodes once: "%2e%2e%2f" is "../" and is refused; "%252e%252e" stays the literal name "%2e%2e".
 */
export function resolveArchivePath(root: string, rawPath: string): string | null {
  if (rawPath === '' || rawPath.length > 1024) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/');
  if (segments.some((s) => s === '..' || s === '.' || s === '')) return null;
  return resolveInside(root, decoded);
}

const BY_EXTENSION: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.bmp': 'image/bmp',
  // served only with the archive CSP (no scripts run in it)
  '.svg': 'image/svg+xml',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.pdf': 'application/pdf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
};

/** The content type from the extension, else from the first bytes; unknown is application/octet-stream. */
export function contentTypeOf(file: string, head: Buffer): string {
  const byExt = BY_EXTENSION[path.extname(file).toLowerCase()];
  if (byExt) return byExt;
  return sniff(head);
}

export function sniff(b: Buffer): string {
  const starts = (...bytes: number[]) => bytes.every((x, i) => b[i] === x);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a') return 'image/gif';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (b.subarray(0, 4).toString('latin1') === 'wOF2') return 'font/woff2';
  if (b.subarray(0, 4).toString('latin1') === 'wOFF') return 'font/woff';
  if (b.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (b.subarray(4, 8).toString('latin1') === 'ftyp' && /^avi[fs]/.test(b.subarray(8, 12).toString('latin1'))) return 'image/avif';
  const text = b.subarray(0, 1024).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(text)) return 'image/svg+xml';
  return 'application/octet-stream';
}

export const isPng = (b: Buffer) => b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

/** sha256 of the text lowercased with whitespace collapsed: the change-detection baseline. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text.toLowerCase().replace(/\s+/g, ' ').trim()).digest('hex');
}
