// Local copies of a page's assets under outDir/assets/<sha256-prefix>.<ext>. Bodies the browser
// already received (through the route handler) are reused; anything else is fetched through the
// guard. Stylesheets are rewritten so their url() and @import point at local copies too.
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import createDOMPurify from 'dompurify';
import { JSDOM, VirtualConsole } from 'jsdom';
import type { SsrfGuard } from '../../../platform/ssrf.js';
import { guardedGet, isHostFailure, mimeOf } from './net.js';

export interface SeenResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface AssetStoreOptions {
  guard: SsrfGuard;
  outDir: string;
  /** Bodies already received (by URL without fragment). */
  seen?: Map<string, SeenResponse>;
  signal?: AbortSignal;
  maxAssetBytes?: number;
  maxTotalBytes?: number;
  /** Allow fetching what the browser did not already load (true for static/client-snapshot paths). */
  fetchMissing?: boolean;
  maxCssDepth?: number;
  /** Hosts already known to fail at the network level in this capture (shared with the browser's router). */
  deadHosts?: Set<string>;
  /** Sanitizes an SVG's text (default: sanitizeSvgText here; the engine runs it in the parse worker). */
  sanitizeSvg?: (svg: string) => Promise<string>;
}

const EXT_BY_MIME: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
  'image/x-icon': 'ico',
  'image/vnd.microsoft.icon': 'ico',
  'image/bmp': 'bmp',
  'text/css': 'css',
  'font/woff': 'woff',
  'font/woff2': 'woff2',
  'application/font-woff': 'woff',
  'application/font-woff2': 'woff2',
  'font/ttf': 'ttf',
  'font/otf': 'otf',
  'application/x-font-ttf': 'ttf',
  'application/vnd.ms-fontobject': 'eot',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'text/vtt': 'vtt',
};

const KNOWN_EXT = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif', 'svg', 'ico', 'bmp', 'css', 'woff', 'woff2', 'ttf', 'otf', 'eot', 'mp4', 'webm', 'mp3', 'ogg', 'vtt']);

function extFor(url: string, mime: string): string {
  const byMime = EXT_BY_MIME[mime];
  if (byMime) return byMime;
  const m = /\.([a-z0-9]{2,5})$/i.exec(new URL(url).pathname);
  const e = m?.[1]?.toLowerCase();
  if (e && KNOWN_EXT.has(e)) return e === 'jpeg' ? 'jpg' : e;
  return 'bin';
}

/** The extension a body's first bytes say it has, for responses with no useful type. */
export function sniffExt(body: Buffer): string | null {
  const head = body.subarray(0, 16);
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47) return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  const ascii = head.toString('latin1');
  if (ascii.startsWith('GIF8')) return 'gif';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'webp';
  if (ascii.slice(4, 12) === 'ftypavif') return 'avif';
  if (ascii.startsWith('wOF2')) return 'woff2';
  if (ascii.startsWith('wOFF')) return 'woff';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x00000100) return 'ico';
  const text = body.subarray(0, 512).toString('utf8').trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(text)) return 'svg';
  return null;
}

export function stripHash(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}

/** Absolute http(s) URL of `ref` against `base`, or null (data:, blob:, javascript:, invalid). */
export function absoluteHttp(ref: string, base: string): string | null {
  const t = ref.trim();
  if (!t) return null;
  try {
    const u = new URL(t, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s][^)]*?))\s*\)/gi;
const CSS_IMPORT = /@import\s+(?:"([^"]*)"|'([^']*)')/gi;

interface CssJob {
  start: number;
  end: number;
  ref: string;
  isImport: boolean;
  prefix: string;
  suffix: string;
}

/** Every url(...) and string @import in css, in source order. */
function cssJobs(css: string): CssJob[] {
  const jobs: CssJob[] = [];
  for (const m of css.matchAll(CSS_URL)) {
    const ref = m[1] ?? m[2] ?? m[3] ?? '';
    const before = css.slice(Math.max(0, m.index - 12), m.index);
    jobs.push({ start: m.index, end: m.index + m[0].length, ref, isImport: /@import\s*$/i.test(before), prefix: 'url("', suffix: '")' });
  }
  for (const m of css.matchAll(CSS_IMPORT)) {
    jobs.push({ start: m.index, end: m.index + m[0].length, ref: m[1] ?? m[2] ?? '', isImport: true, prefix: '@import url("', suffix: '")' });
  }
  jobs.sort((a, b) => a.start - b.start);
  return jobs;
}

const skipRef = (ref: string) => /^(data:|#)/i.test(ref.trim());

/** The references rewriteCssUrls would hand to its `map`, in the order it would (data: and #fragment skipped). */
export function cssRefs(css: string): string[] {
  return cssJobs(css)
    .filter((j) => !skipRef(j.ref))
    .map((j) => j.ref);
}

/** Calls `map` for every url(...) and string @import in css; returns the rewritten text. */
export async function rewriteCssUrls(css: string, map: (ref: string, isImport: boolean) => Promise<string | null | undefined>): Promise<string> {
  const jobs = cssJobs(css);
  if (!jobs.length) return css;
  const replaced = await Promise.all(jobs.map((j) => (skipRef(j.ref) ? Promise.resolve(undefined) : map(j.ref, j.isImport))));
  let out = '';
  let pos = 0;
  jobs.forEach((j, i) => {
    if (j.start < pos) return;
    out += css.slice(pos, j.start);
    const r = replaced[i];
    if (r === undefined) out += css.slice(j.start, j.end);
    else out += j.prefix + (r ?? 'about:blank').replace(/["\\\n]/g, '') + j.suffix;
    pos = j.end;
  });
  return out + css.slice(pos);
}

/** DOMPurify's SVG profile over an SVG document's text (no scripts, handlers or foreign objects). */
export function sanitizeSvgText(svg: string): string {
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { virtualConsole: new VirtualConsole() });
  try {
    const purify = createDOMPurify(dom.window as unknown as Parameters<typeof createDOMPurify>[0]);
    const clean = purify.sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: true }, FORBID_TAGS: ['foreignObject', 'script'] });
    return clean.includes('xmlns=') ? clean : clean.replace(/^<svg/, '<svg xmlns="http://www.w3.org/2000/svg"');
  } finally {
    dom.window.close();
  }
}

/** At most `n` of the returned function's tasks run at once. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((r) => queue.push(r));
    active++;
    try {
      return await task();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

export interface ImageSize {
  width: number;
  height: number;
}

const PICTURE_EXT = new Set(['jpg', 'png', 'gif', 'webp', 'avif', 'svg']);

/**
 * A picture's size as it is drawn (EXIF orientation applied), from its header only (sharp reads no
 * pixels for this), or null when it cannot be read. sharp is loaded on first use: it is heavy at start-up.
 */
export async function imageSize(body: Buffer): Promise<ImageSize | null> {
  try {
    const { default: sharp } = await import('sharp');
    const m = await sharp(body, { limitInputPixels: false }).metadata();
    if (!m.width || !m.height) return null;
    // orientations 5-8 turn the picture a quarter
    return (m.orientation ?? 1) >= 5 ? { width: m.height, height: m.width } : { width: m.width, height: m.height };
  } catch {
    return null;
  }
}

export class AssetStore {
  private readonly byUrl = new Map<string, Promise<string | null>>();
  /** Hosts that failed at the network level (DNS, refused, blocked): not tried again in this capture. */
  private readonly deadHosts: Set<string>;
  private readonly limit = limiter(6);
  private total = 0;
  readonly written = new Set<string>();
  /** The pixel size of each stored picture (by its file name), read from its header: the reader view's <img> get it as width/height. */
  readonly imageSizes = new Map<string, ImageSize>();
  private dirReady: Promise<unknown> | null = null;

  constructor(private readonly opts: AssetStoreOptions) {
    this.deadHosts = opts.deadHosts ?? new Set();
  }

  /** Relative file name ('assets/<hash>.<ext>') for an absolute http(s) URL, or null if it could not be stored. */
  localize(url: string, depth = 0): Promise<string | null> {
    const key = stripHash(url);
    let p = this.byUrl.get(key);
    if (!p) {
      p = this.load(key, depth).catch(() => null);
      this.byUrl.set(key, p);
    }
    return p;
  }

  private async load(url: string, depth: number): Promise<string | null> {
    if (this.opts.signal?.aborted) return null;
    let got = this.opts.seen?.get(url);
    if (!got || got.status < 200 || got.status >= 300) {
      if (this.opts.fetchMissing === false) return null;
      const host = new URL(url).host;
      if (this.deadHosts.has(host)) return null;
      const res = await this.limit(async () => {
        if (this.deadHosts.has(host) || this.opts.signal?.aborted) return null;
        try {
          return await guardedGet(this.opts.guard, url, { signal: this.opts.signal, maxBytes: this.opts.maxAssetBytes ?? 25_000_000, timeoutMs: 20_000 });
        } catch (err) {
          if (isHostFailure(err)) this.deadHosts.add(host);
          return null;
        }
      });
      if (!res || res.status < 200 || res.status >= 300) return null;
      got = { status: res.status, contentType: mimeOf(res.headers), body: res.body };
    }
    let body = got.body;
    let ext = extFor(url, got.contentType);
    if (ext === 'bin') ext = sniffExt(body) ?? 'bin';
    if (ext === 'css' || got.contentType === 'text/css') {
      const maxDepth = this.opts.maxCssDepth ?? 4;
      const css = await rewriteCssUrls(body.toString('utf8'), async (ref) => {
        const abs = absoluteHttp(ref, url);
        if (!abs) return null;
        if (depth >= maxDepth) return null;
        const local = await this.localize(abs, depth + 1);
        return local ? path.posix.basename(local) : null; // same folder as this stylesheet
      });
      body = Buffer.from(css, 'utf8');
    }
    if (ext === 'svg') body = Buffer.from(this.opts.sanitizeSvg ? await this.opts.sanitizeSvg(body.toString('utf8')) : sanitizeSvgText(body.toString('utf8')), 'utf8'); // served from Hearth's origin: no scripts, handlers or foreign objects
    if (this.total + body.length > (this.opts.maxTotalBytes ?? 200_000_000)) return null;
    this.total += body.length;
    const name = `assets/${createHash('sha256').update(body).digest('hex').slice(0, 32)}.${ext}`;
    if (!this.written.has(name)) {
      this.written.add(name);
      if (PICTURE_EXT.has(ext)) {
        const size = await imageSize(body);
        if (size) this.imageSizes.set(name, size);
      }
      this.dirReady ??= mkdir(path.join(this.opts.outDir, 'assets'), { recursive: true });
      await this.dirReady;
      await writeFile(path.join(this.opts.outDir, name), body);
    }
    return name;
  }

  /** Rewrites CSS text found in the page itself (inline <style> / style=""); local refs get `prefix`. */
  async rewriteInlineCss(css: string, base: string, prefix = ''): Promise<string> {
    return rewriteCssUrls(css, async (ref) => {
      const abs = absoluteHttp(ref, base);
      if (!abs) return null;
      const local = await this.localize(abs);
      return local ? prefix + local : null;
    });
  }
}
