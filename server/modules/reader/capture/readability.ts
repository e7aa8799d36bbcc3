// Reader view and metadata: Mozilla Readability over a jsdom of the captured HTML, DOMPurify over
// its output (same jsdom window), og/meta fallbacks for the metadata Readability leaves empty.
import { Readability } from '@mozilla/readability';
import createDOMPurify from 'dompurify';
import { JSDOM, VirtualConsole } from 'jsdom';
import { removeConsentOverlays } from './challenge.js';

export interface PageMetadata {
  title: string | null;
  byline: string | null;
  siteName: string | null;
  excerpt: string | null;
  lang: string | null;
  publishedTime: string | null;
  faviconUrl: string | null;
  ogImageUrl: string | null;
}

export interface ReaderView extends PageMetadata {
  contentHtml: string | null;
  contentText: string;
  wordCount: number;
  readingMins: number;
}

export const WORDS_PER_MINUTE = 230;

export function normalizeText(s: string | null | undefined): string {
  return (s ?? '').replace(/\s+/g, ' ').trim();
}

export function countWords(text: string): number {
  if (!text) return 0;
  // CJK scripts have no spaces between words: count their characters as words.
  const cjk = text.match(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/g)?.length ?? 0;
  const rest = text.replace(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/g, ' ').split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  return cjk + rest;
}

export function readingMinutes(words: number): number {
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}

const nonEmpty = (s: string | null | undefined): string | null => {
  const t = normalizeText(s);
  return t ? t : null;
};

function meta(doc: Document, ...keys: string[]): string | null {
  for (const key of keys) {
    const el = doc.querySelector(`meta[property="${key}" i], meta[name="${key}" i], meta[itemprop="${key}" i]`);
    const v = nonEmpty(el?.getAttribute('content'));
    if (v) return v;
  }
  return null;
}

function absolute(ref: string | null | undefined, base: string): string | null {
  if (!ref) return null;
  try {
    const u = new URL(ref.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** Metadata from <head> alone (thumbnail mode, and fallbacks for the reader view). */
export function headMetadata(doc: Document, url: string): PageMetadata {
  const icon = Array.from(doc.querySelectorAll('link[rel][href]')).find((l) => /(^|\s)(icon|shortcut icon|apple-touch-icon)(\s|$)/i.test(l.getAttribute('rel') ?? ''));
  let faviconUrl = absolute(icon?.getAttribute('href'), url);
  if (!faviconUrl) {
    try {
      const u = new URL(url);
      faviconUrl = u.protocol.startsWith('http') ? `${u.origin}/favicon.ico` : null;
    } catch {
      faviconUrl = null;
    }
  }
  return {
    title: meta(doc, 'og:title', 'twitter:title') ?? nonEmpty(doc.title),
    byline: meta(doc, 'author', 'article:author', 'parsely-author', 'sailthru.author', 'dc.creator'),
    siteName: meta(doc, 'og:site_name', 'application-name'),
    excerpt: meta(doc, 'og:description', 'description', 'twitter:description'),
    lang: nonEmpty(doc.documentElement.getAttribute('lang')) ?? meta(doc, 'og:locale', 'language', 'content-language'),
    publishedTime: meta(doc, 'article:published_time', 'datePublished', 'date', 'dc.date', 'pubdate', 'parsely-pub-date'),
    faviconUrl,
    ogImageUrl: absolute(meta(doc, 'og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src'), url),
  };
}

export function parseHtml(html: string, url: string): JSDOM {
  // no scripts, no subresources: jsdom only parses
  // a silent console: jsdom reports every stylesheet it cannot parse
  return new JSDOM(html, { url, contentType: 'text/html', virtualConsole: new VirtualConsole() });
}

/**
 * The reader view of a parsed page, waiting for its images: everything but contentHtml is known;
 * `images` are the absolute URLs of its images (one per element, in document order); `render`
 * points them at their local copies (or drops them) and serializes the sanitized content.
 */
export interface ReaderPlan {
  view: ReaderView;
  images: string[];
  /**
   * contentHtml given a lookup from image URL to its local URL (null drops it), and optionally the
   * picture's pixel size: an <img> then carries it as width and height unless it states both
   * itself, so the page keeps the picture's place before it has arrived (the CSS scales it).
   */
  render(lookup: (absUrl: string) => string | null, sizeOf?: (absUrl: string) => { width: number; height: number } | null): string | null;
  dispose(): void;
}

/** A width or height attribute a browser takes as a number of pixels ("640", not "100%" or "auto"). */
const isPixels = (v: string | null) => v !== null && /^\s*\d+(\.\d+)?\s*$/.test(v) && Number(v) > 0;

/** Runs Readability and DOMPurify on `html` as if served at `url` (no network). */
export function planReaderView(html: string, url: string): ReaderPlan {
  const dom = parseHtml(html, url);
  let open = true;
  const dispose = () => {
    if (open) dom.window.close();
    open = false;
  };
  try {
    const doc = dom.window.document;
    const head = headMetadata(doc, url);
    removeConsentOverlays(doc);
    const article = new Readability(doc).parse();
    let clean: DocumentFragment | null = null;
    let contentText = '';
    const images: string[] = [];
    const targets: Array<{ el: Element; attr: string; src: string | null }> = [];
    if (article?.content) {
      const purify = createDOMPurify(dom.window as unknown as Parameters<typeof createDOMPurify>[0]);
      clean = purify.sanitize(article.content, {
        FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'frame', 'object', 'embed'],
        FORBID_ATTR: ['style', 'srcset', 'sizes'],
        ALLOW_DATA_ATTR: false,
        RETURN_DOM_FRAGMENT: true,
      }) as unknown as DocumentFragment;
      for (const el of Array.from(clean.querySelectorAll('img, source, video[poster]'))) {
        const attr = el.tagName === 'VIDEO' ? 'poster' : 'src';
        const src = absolute(el.getAttribute(attr), url);
        if (src) images.push(src);
        targets.push({ el, attr, src });
      }
      contentText = normalizeText(article.textContent);
    }
    const wordCount = countWords(contentText);
    const view: ReaderView = {
      title: nonEmpty(article?.title) ?? head.title,
      byline: nonEmpty(article?.byline) ?? head.byline,
      siteName: nonEmpty(article?.siteName) ?? head.siteName,
      excerpt: nonEmpty(article?.excerpt) ?? head.excerpt,
      lang: nonEmpty(article?.lang) ?? head.lang,
      publishedTime: nonEmpty(article?.publishedTime) ?? head.publishedTime,
      faviconUrl: head.faviconUrl,
      ogImageUrl: head.ogImageUrl,
      contentHtml: null,
      contentText,
      wordCount,
      readingMins: readingMinutes(wordCount),
    };
    const render: ReaderPlan['render'] = (lookup, sizeOf) => {
      if (!open) throw new Error('the reader view was already rendered or disposed');
      try {
        if (!clean) return null;
        for (const { el, attr, src } of targets) {
          const local = src ? lookup(src) : null;
          if (local) {
            el.setAttribute(attr, local);
            const size = el.tagName === 'IMG' && src ? sizeOf?.(src) : null;
            if (size && !(isPixels(el.getAttribute('width')) && isPixels(el.getAttribute('height')))) {
              el.setAttribute('width', String(size.width));
              el.setAttribute('height', String(size.height));
            }
          } else if (el.tagName === 'IMG') el.remove();
          else el.removeAttribute(attr);
          el.removeAttribute('srcset');
        }
        for (const a of Array.from(clean.querySelectorAll('a[href]'))) {
          const href = absolute(a.getAttribute('href'), url);
          if (href) {
            a.setAttribute('href', href);
            a.setAttribute('rel', 'noopener noreferrer');
            a.setAttribute('target', '_blank');
          } else if (!(a.getAttribute('href') ?? '').startsWith('#')) a.removeAttribute('href');
        }
        const box = doc.createElement('div');
        box.appendChild(clean);
        return box.innerHTML;
      } finally {
        dispose();
      }
    };
    return { view, images, render, dispose };
  } catch (err) {
    dispose();
    throw err;
  }
}

/**
 * Runs Readability on `html` as if served at `url`. `rewriteImage` maps an absolute image URL to
 * the reader view's local copy (or null to drop the image).
 */
export async function buildReaderView(html: string, url: string, rewriteImage: (absUrl: string) => Promise<string | null>): Promise<ReaderView> {
  const plan = planReaderView(html, url);
  try {
    const found = new Map<string, string | null>();
    await Promise.all(plan.images.map(async (src) => found.set(src, await rewriteImage(src))));
    return { ...plan.view, contentHtml: plan.render((src) => found.get(src) ?? null) };
  } finally {
    plan.dispose();
  }
}
