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
 * Runs Readability on `html` as if served at `url`. `rewriteImage` maps an absolute image URL to
 * the reader view's local copy (or null to drop the image).
 */
export async function buildReaderView(html: string, url: string, rewriteImage: (absUrl: string) => Promise<string | null>): Promise<ReaderView> {
  const dom = parseHtml(html, url);
  try {
    const doc = dom.window.document;
    const head = headMetadata(doc, url);
    removeConsentOverlays(doc);
    const article = new Readability(doc).parse();
    let contentHtml: string | null = null;
    let contentText = '';
    if (article?.content) {
      const purify = createDOMPurify(dom.window as unknown as Parameters<typeof createDOMPurify>[0]);
      const clean = purify.sanitize(article.content, {
        FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'frame', 'object', 'embed'],
        FORBID_ATTR: ['style', 'srcset', 'sizes'],
        ALLOW_DATA_ATTR: false,
        RETURN_DOM_FRAGMENT: true,
      }) as unknown as DocumentFragment;
      const imgs = Array.from(clean.querySelectorAll('img, source, video[poster]'));
      await Promise.all(
        imgs.map(async (el) => {
          const attr = el.tagName === 'VIDEO' ? 'poster' : 'src';
          const src = absolute(el.getAttribute(attr), url);
          const local = src ? await rewriteImage(src) : null;
          if (local) el.setAttribute(attr, local);
          else if (el.tagName === 'IMG') el.remove();
          else el.removeAttribute(attr);
          el.removeAttribute('srcset');
        }),
      );
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
      contentHtml = box.innerHTML;
      contentText = normalizeText(article.textContent);
    }
    const wordCount = countWords(contentText);
    return {
      title: nonEmpty(article?.title) ?? head.title,
      byline: nonEmpty(article?.byline) ?? head.byline,
      siteName: nonEmpty(article?.siteName) ?? head.siteName,
      excerpt: nonEmpty(article?.excerpt) ?? head.excerpt,
      lang: nonEmpty(article?.lang) ?? head.lang,
      publishedTime: nonEmpty(article?.publishedTime) ?? head.publishedTime,
      faviconUrl: head.faviconUrl,
      ogImageUrl: head.ogImageUrl,
      contentHtml,
      contentText,
      wordCount,
      readingMins: readingMinutes(wordCount),
    };
  } finally {
    dom.window.close();
  }
}
