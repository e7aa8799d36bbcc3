// The full-page snapshot: the captured DOM made inert (no scripts, handlers, javascript: URLs,
// frames, <base>, meta refresh) with every asset it shows copied under assets/ and referenced
// relatively. Nothing in the saved file points at the network except plain <a href> links.
import type { AssetStore } from './assets.js';
import { absoluteHttp } from './assets.js';
import { removeConsentOverlays } from './challenge.js';
import { parseHtml } from './readability.js';

const REMOVE = 'script, template, iframe, frame, frameset, object, embed, applet, portal, base, meta[http-equiv="refresh" i], meta[http-equiv="content-security-policy" i], meta[http-equiv="set-cookie" i], link[rel~="preload" i], link[rel~="prefetch" i], link[rel~="preconnect" i], link[rel~="dns-prefetch" i], link[rel~="modulepreload" i], link[rel~="prerender" i], link[rel~="manifest" i], link[rel~="serviceworker" i], link[rel~="import" i]';

/** Attributes that can carry a URL the browser would load or navigate to. */
const URL_ATTRS = ['src', 'href', 'srcset', 'poster', 'data', 'action', 'formaction', 'background', 'xlink:href', 'ping', 'cite', 'longdesc', 'manifest', 'lowsrc', 'dynsrc', 'codebase', 'archive', 'profile', 'usemap', 'imagesrcset'];

export interface SnapshotOptions {
  /** True when the HTML is a rendered DOM (scripts already ran): <noscript> is dropped. Otherwise it is unwrapped. */
  rendered: boolean;
  /** Also remove consent banners (already done in the browser for the rendered path). */
  removeConsent?: boolean;
}

/** The HTML spec's srcset parsing, simplified: URLs may contain commas, descriptors end at a comma. */
export function parseSrcset(srcset: string): Array<{ url: string; descriptor: string }> {
  const out: Array<{ url: string; descriptor: string }> = [];
  let i = 0;
  const s = srcset;
  while (i < s.length) {
    while (i < s.length && /[\s,]/.test(s[i]!)) i++;
    if (i >= s.length) break;
    let j = i;
    while (j < s.length && !/\s/.test(s[j]!)) j++;
    let url = s.slice(i, j);
    i = j;
    let descriptor = '';
    if (/,+$/.test(url)) url = url.replace(/,+$/, '');
    else {
      let depth = 0;
      let k = i;
      while (k < s.length && !(s[k] === ',' && depth === 0)) {
        if (s[k] === '(') depth++;
        else if (s[k] === ')') depth = Math.max(0, depth - 1);
        k++;
      }
      descriptor = s.slice(i, k).trim();
      i = k + 1;
    }
    if (url) out.push({ url, descriptor });
  }
  return out;
}

function looksPlaceholder(src: string | null): boolean {
  return !src || src.startsWith('data:') || /(?:blank|spacer|placeholder|transparent|pixel|lazy)[^/]*\.(?:gif|png|svg)/i.test(src);
}

export async function buildSnapshot(html: string, url: string, assets: AssetStore, opts: SnapshotOptions): Promise<string> {
  const dom = parseHtml(html, url);
  try {
    const doc = dom.window.document;
    const base = doc.baseURI || url; // a <base href> resolves relative URLs before it is removed
    if (opts.removeConsent) removeConsentOverlays(doc);

    // <noscript>: the rendered DOM already has what scripts produced; a static page shows its fallbacks
    for (const ns of Array.from(doc.querySelectorAll('noscript'))) {
      if (opts.rendered) ns.remove();
      else {
        const tpl = doc.createElement('template');
        tpl.innerHTML = ns.innerHTML.includes('<') ? ns.innerHTML : (ns.textContent ?? '');
        const prev = ns.previousElementSibling;
        const img = tpl.content.querySelector('img');
        if (img && prev?.tagName === 'IMG' && looksPlaceholder(prev.getAttribute('src'))) prev.remove();
        ns.replaceWith(tpl.content);
      }
    }

    // lazy-loading conventions of pages whose scripts never ran
    if (!opts.rendered) {
      for (const img of Array.from(doc.querySelectorAll('img, source'))) {
        for (const [from, to] of [
          ['data-src', 'src'],
          ['data-lazy-src', 'src'],
          ['data-original', 'src'],
          ['data-srcset', 'srcset'],
          ['data-lazy-srcset', 'srcset'],
        ] as const) {
          const v = img.getAttribute(from);
          if (v && (to === 'srcset' ? !img.getAttribute('srcset') : looksPlaceholder(img.getAttribute('src')))) img.setAttribute(to, v);
        }
      }
    }

    // absolutize against the document base before <base> goes away
    const abs = (ref: string | null) => (ref == null ? null : absoluteHttp(ref, base));

    // frames: replaced by a link to what they showed
    for (const f of Array.from(doc.querySelectorAll('iframe, frame'))) {
      const src = abs(f.getAttribute('src'));
      if (src && f.parentNode) {
        const a = doc.createElement('a');
        a.setAttribute('href', src);
        a.setAttribute('class', 'hearth-frame-placeholder');
        a.textContent = `[embedded content: ${new URL(src).host}]`;
        f.replaceWith(a);
      }
    }
    for (const el of Array.from(doc.querySelectorAll(REMOVE))) el.remove();

    // inline handlers and javascript: anywhere
    for (const el of Array.from(doc.querySelectorAll('*'))) {
      for (const attr of Array.from(el.attributes)) {
        const name = attr.name.toLowerCase();
        if (name.startsWith('on')) el.removeAttribute(attr.name);
        else if (URL_ATTRS.includes(name) && /^\s*(javascript|vbscript|data:text\/html)/i.test(attr.value.replace(/[\s\u0000-\u001f]/g, ''))) el.removeAttribute(attr.name);
      }
    }

    // SVG animations that would set a link to javascript:
    for (const el of Array.from(doc.querySelectorAll('animate, set, animateMotion, animateTransform'))) {
      if (/javascript:/i.test(`${el.getAttribute('to') ?? ''} ${el.getAttribute('values') ?? ''} ${el.getAttribute('from') ?? ''}`)) el.remove();
    }

    const jobs: Array<Promise<unknown>> = [];
    const localizeAttr = (el: Element, attr: string) => {
      const src = abs(el.getAttribute(attr));
      if (!src) return;
      jobs.push(
        assets.localize(src).then((local) => {
          if (local) el.setAttribute(attr, local);
          else el.removeAttribute(attr);
        }),
      );
    };
    const localizeSrcset = (el: Element, attr: string) => {
      const v = el.getAttribute(attr);
      if (!v) return;
      const parts = parseSrcset(v);
      jobs.push(
        Promise.all(
          parts.map(async (p) => {
            if (p.url.startsWith('data:')) return `${p.url}${p.descriptor ? ' ' + p.descriptor : ''}`;
            const src = abs(p.url);
            const local = src ? await assets.localize(src) : null;
            return local ? `${local}${p.descriptor ? ' ' + p.descriptor : ''}` : null;
          }),
        ).then((list) => {
          const kept = list.filter((x): x is string => !!x);
          if (kept.length) el.setAttribute(attr, kept.join(', '));
          else el.removeAttribute(attr);
        }),
      );
    };

    for (const el of Array.from(doc.querySelectorAll('img, input[type="image" i]'))) {
      localizeAttr(el, 'src');
      localizeSrcset(el, 'srcset');
    }
    for (const el of Array.from(doc.querySelectorAll('picture source, video source, audio source, video, audio, track'))) {
      if (el.hasAttribute('src')) localizeAttr(el, 'src');
      if (el.hasAttribute('srcset')) localizeSrcset(el, 'srcset');
      if (el.hasAttribute('poster')) localizeAttr(el, 'poster');
    }
    for (const el of Array.from(doc.querySelectorAll('[background]'))) localizeAttr(el, 'background');
    for (const el of Array.from(doc.querySelectorAll('image, use, feImage'))) {
      for (const attr of ['href', 'xlink:href']) {
        const v = el.getAttribute(attr);
        if (v && !v.startsWith('#')) localizeAttr(el, attr);
      }
    }
    for (const link of Array.from(doc.querySelectorAll('link[href]'))) {
      const rel = (link.getAttribute('rel') ?? '').toLowerCase();
      if (/\bstylesheet\b/.test(rel) || /\bicon\b/.test(rel) || rel === 'apple-touch-icon' || rel === 'mask-icon') {
        link.removeAttribute('integrity');
        link.removeAttribute('crossorigin');
        localizeAttr(link, 'href');
      } else link.remove(); // canonical, alternate, … : metadata only, and they point at the network
    }
    for (const style of Array.from(doc.querySelectorAll('style'))) {
      const css = style.textContent ?? '';
      jobs.push(assets.rewriteInlineCss(css, base).then((out) => (style.textContent = out)));
    }
    for (const el of Array.from(doc.querySelectorAll('[style]'))) {
      const css = el.getAttribute('style') ?? '';
      if (/url\(/i.test(css)) jobs.push(assets.rewriteInlineCss(css, base).then((out) => el.setAttribute('style', out)));
    }
    await Promise.all(jobs);

    // Anything still pointing at the network goes, except the links a reader clicks.
    for (const el of Array.from(doc.querySelectorAll('*'))) {
      const tag = el.tagName.toLowerCase();
      for (const attr of Array.from(el.attributes)) {
        const name = attr.name.toLowerCase();
        if (!URL_ATTRS.includes(name)) continue;
        if (name === 'href' && (tag === 'a' || tag === 'area')) {
          const h = abs(attr.value);
          if (h) el.setAttribute(attr.name, h);
          continue;
        }
        if (/^\s*(https?:)?\/\//i.test(attr.value) || (name !== 'href' && name !== 'src' && name !== 'srcset' && name !== 'poster' && !attr.value.startsWith('assets/'))) el.removeAttribute(attr.name);
      }
    }
    for (const form of Array.from(doc.querySelectorAll('form'))) form.removeAttribute('action');
    const head = doc.head ?? doc.documentElement;
    const charset = doc.createElement('meta');
    charset.setAttribute('charset', 'utf-8');
    head.prepend(charset);
    for (const m of Array.from(doc.querySelectorAll('meta[charset]'))) if (m !== charset) m.remove();
    const note = doc.createComment(` Saved by Hearth from ${url} `);
    doc.documentElement.prepend(note);
    return '<!DOCTYPE html>\n' + doc.documentElement.outerHTML;
  } finally {
    dom.window.close();
  }
}
