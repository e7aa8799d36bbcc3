// The local copy of a reader item's site icon, made beside each capture (the web app shows
// same-origin images only). Fetched through the SSRF guard, small and quick, image types only
// (the header must allow it and the bytes must be one); stored as a 64x64 PNG when sharp can read
// it, or as the ICO it came as (sharp cannot read ICO; browsers render it). SVG is never stored as
// is: opened from Hearth's origin its scripts would run there, so it is rasterized.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { withoutUrls, type Logger } from '../../platform/logger.js';
import { guardedRequest, type SsrfGuard } from '../../platform/ssrf.js';
import { readCapped, USER_AGENT } from './capture/net.js';
import { sniff } from './files.js';
import { FAVICON_MAX_BYTES, FAVICON_SIZE_PX, FAVICON_TIMEOUT_MS } from './schema.js';

export type IconType = 'image/png' | 'image/x-icon' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/svg+xml';

export const FAVICON_PNG = 'favicon.png';
export const FAVICON_ICO = 'favicon.ico';

/** A decoded icon bigger than this (e.g. an SVG declaring 100000x100000) is refused, not rasterized. */
const MAX_ICON_PIXELS = 4096 * 4096;

const SHARP_TYPES: readonly IconType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'];

/**
 * Content types an icon may be sent with. Many servers send favicon.ico as octet-stream or with no
 * type at all, so those pass and the bytes decide; HTML (a soft 404), text and the rest do not.
 */
const ICON_HEADER_TYPES = new Set([
  '',
  'application/octet-stream',
  'image/png',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'image/ico',
  'image/icon',
  'image/jpeg',
  'image/jpg',
  'image/pjpeg',
  'image/gif',
  'image/webp',
  'image/svg+xml',
]);

export class NotAnIconError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotAnIconError';
  }
}

/** The media type of a Content-Type header, lowercased, without parameters. */
const mimeOf = (header: string | string[] | undefined) => (Array.isArray(header) ? (header[0] ?? '') : (header ?? '')).split(';')[0]!.trim().toLowerCase();

export function isIconHeaderType(contentType: string | string[] | undefined): boolean {
  return ICON_HEADER_TYPES.has(mimeOf(contentType));
}

/** An ICO file's directory: reserved 0, type 1 (icon), 1..255 entries, each one's data inside the file. */
export function isIco(b: Buffer): boolean {
  if (b.length < 22 || b.readUInt16LE(0) !== 0 || b.readUInt16LE(2) !== 1) return false;
  const count = b.readUInt16LE(4);
  const dirEnd = 6 + 16 * count;
  if (count === 0 || b.length < dirEnd) return false;
  for (let i = 0; i < count; i++) {
    const entry = 6 + 16 * i;
    const size = b.readUInt32LE(entry + 8);
    const offset = b.readUInt32LE(entry + 12);
    if (b[entry + 3] !== 0 || size === 0 || offset < dirEnd || offset + size > b.length) return false;
  }
  return true;
}

/** Which of the icon types Hearth keeps the bytes are, or null (HTML, text, BMP, anything else). */
export function sniffIconType(b: Buffer): IconType | null {
  if (isIco(b)) return 'image/x-icon';
  const t = sniff(b);
  return SHARP_TYPES.find((x) => x === t) ?? null;
}

export interface FaviconFetch {
  guard: SsrfGuard;
  logger?: Logger;
  /** What the log names this icon's page by (its Reader item's id), never the address. */
  logId?: string;
  maxBytes?: number;
  timeoutMs?: number;
}

/** GETs the icon through the guard: 2xx, an icon-ish Content-Type, at most maxBytes; throws otherwise. */
async function fetchIcon(opts: FaviconFetch, url: string, signal: AbortSignal): Promise<Buffer> {
  const maxBytes = opts.maxBytes ?? FAVICON_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? FAVICON_TIMEOUT_MS;
  const res = await guardedRequest(opts.guard, url, {
    headers: { 'user-agent': USER_AGENT, accept: 'image/png,image/x-icon,image/svg+xml,image/*;q=0.8,*/*;q=0.5', 'accept-encoding': 'identity' },
    signal,
    maxRedirects: 5,
    headersTimeoutMs: timeoutMs,
    bodyTimeoutMs: timeoutMs,
  });
  const refuse = (message: string): never => {
    // undici answers an unread body's destroy() with an 'error' event: without a listener it is uncaught
    res.body.on('error', () => undefined);
    res.body.destroy();
    throw new NotAnIconError(message);
  };
  if (res.statusCode < 200 || res.statusCode >= 300) refuse(`the icon answered ${res.statusCode}`);
  if (!isIconHeaderType(res.headers['content-type'])) refuse(`the icon was sent as ${mimeOf(res.headers['content-type'])}`);
  const declared = Number(res.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) refuse(`the icon is ${declared} bytes`);
  return readCapped(res.body, maxBytes);
}

/** A 64x64 PNG of an image sharp reads (sharp is loaded here, on first use: it is heavy at start-up). */
async function toPng(body: Buffer, type: IconType): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const input = { limitInputPixels: MAX_ICON_PIXELS, animated: false };
  let density: number | undefined;
  if (type === 'image/svg+xml') {
    // rasterize near the target size: a 16-unit SVG would be blurry at the default 72 dpi, a
    // 5000-unit one needlessly large
    const meta = await sharp(body, input).metadata();
    const side = Math.max(meta.width ?? 0, meta.height ?? 0) || FAVICON_SIZE_PX;
    density = Math.min(2400, Math.max(1, (72 * FAVICON_SIZE_PX) / side));
  }
  return sharp(body, { ...input, density })
    .resize(FAVICON_SIZE_PX, FAVICON_SIZE_PX, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
}

/**
 * Fetches the icon at `url` and writes it into `dir` (favicon.png, or favicon.ico as it came).
 * Resolves the file name, or null when there is no usable icon: a refused address, an error
 * status, too large, not an image, unreadable, unreachable or too slow. Never rejects: an icon is
 * never a reason for a capture to fail.
 */
export async function saveFavicon(opts: FaviconFetch, url: string | null, dir: string, signal?: AbortSignal): Promise<string | null> {
  if (!url) return null;
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? FAVICON_TIMEOUT_MS);
  try {
    const body = await fetchIcon(opts, url, signal ? AbortSignal.any([signal, timeout]) : timeout);
    const type = sniffIconType(body);
    if (!type) throw new NotAnIconError('the icon is not a PNG, ICO, JPEG, GIF, WebP or SVG image');
    if (type === 'image/x-icon') {
      await writeFile(path.join(dir, FAVICON_ICO), body);
      return FAVICON_ICO;
    }
    await writeFile(path.join(dir, FAVICON_PNG), await toPng(body, type));
    return FAVICON_PNG;
  } catch (err) {
    opts.logger?.info({ item: opts.logId, err: withoutUrls((err as Error).message) }, 'capture: site icon not saved');
    return null;
  }
}
