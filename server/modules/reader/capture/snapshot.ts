// The full-page snapshot: the captured DOM made inert (no scripts, handlers, javascript: URLs,
// frames, <base>, meta refresh) with every asset it shows copied under assets/ and referenced
// relatively. Nothing in the saved file points at the network except plain <a href> links.
import type { AssetStore } from './assets.js';
import { absoluteHttp, cssRefs, rewriteCssUrls } from './assets.js';
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

/** Local file ('assets/<hash>.<ext>') of an absolute asset URL, or null when it was not stored. */
export type AssetLookup = (absUrl: string) => string | null;

/**
 * A parsed, inert snapshot document waiting for its assets. `urls` are the absolute asset URLs it
 * shows, in the order a capture asks for them; `render` points them at their local copies (or drops
 * them) and serializes. `dispose` frees the document without rendering.
 */
export interface SnapshotPlan {
  urls: string[];
  render(lookup: AssetLookup): Promise<string>;
  dispose(): void;
}

/** Parses and neutralizes the page (no network); the asset URLs are fetched by the caller. */
export function planSnapshot(html: string, url: string, opts: SnapshotOptions): SnapshotPlan {
  const dom = parseHtml(html, url);
  let open = true;
  const dispose = () => {
    if (open) dom.window.close();
    open = false;
  };
  const doc = dom.window.document;
  const base = doc.baseURI || url; // a <base href> resolves relative URLs before it is removed
  // absolutize against the document base before <base> goes away
  const abs = (ref: string | null) => (ref == null ? null : absoluteHttp(ref, base));
  try {
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

    const urls: string[] = [];
    const edits: Array<(lookup: AssetLookup) => void | Promise<void>> = [];
    const localizeAttr = (el: Element, attr: string) => {
      const src = abs(el.getAttribute(attr));
      if (!src) return;
      urls.push(src);
      edits.push((lookup) => {
        const local = lookup(src);
        if (local) el.setAttribute(attr, local);
        else el.removeAttribute(attr);
      });
    };
    const localizeSrcset = (el: Element, attr: string) => {
      const v = el.getAttribute(attr);
      if (!v) return;
      const parts = parseSrcset(v).map((p) => ({ ...p, src: p.url.startsWith('data:') ? null : abs(p.url) }));
      for (const p of parts) if (p.src) urls.push(p.src);
      edits.push((lookup) => {
        const kept = parts
          .map((p) => {
            if (p.url.startsWith('data:')) return `${p.url}${p.descriptor ? ' ' + p.descriptor : ''}`;
            const local = p.src ? lookup(p.src) : null;
            return local ? `${local}${p.descriptor ? ' ' + p.descriptor : ''}` : null;
          })
          .filter((x): x is string => !!x);
        if (kept.length) el.setAttribute(attr, kept.join(', '));
        else el.removeAttribute(attr);
      });
    };
    const localizeCss = (css: string, write: (out: string) => void) => {
      for (const ref of cssRefs(css)) {
        const src = absoluteHttp(ref, base);
        if (src) urls.push(src);
      }
      edits.push(async (lookup) => {
        write(
          await rewriteCssUrls(css, async (ref) => {
            const src = absoluteHttp(ref, base);
            return src ? lookup(src) : null;
          }),
        );
      });
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
      localizeCss(style.textContent ?? '', (out) => (style.textContent = out));
    }
    for (const el of Array.from(doc.querySelectorAll('[style]'))) {
      const css = el.getAttribute('style') ?? '';
      if (/url\(/i.test(css)) localizeCss(css, (out) => el.setAttribute('style', out));
    }
    return { urls, render: (lookup) => render(lookup), dispose };

    async function render(lookup: AssetLookup): Promise<string> {
      if (!open) throw new Error('the snapshot document was already rendered or disposed');
      try {
        await Promise.all(edits.map((edit) => edit(lookup)));
        return finalize();
      } finally {
        dispose();
      }
    }
  } catch (err) {
    dispose();
    throw err;
  }

  function finalize(): string {
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
  }
}

/** planSnapshot, then every asset through `assets` (fetched or reused), then render. */
export async function buildSnapshot(html: string, url: string, assets: AssetStore, opts: SnapshotOptions): Promise<string> {
  const plan = planSnapshot(html, url, opts);
  try {
    const found = new Map<string, string | null>();
    await Promise.all(plan.urls.map(async (u) => found.set(u, await assets.localize(u))));
    return await plan.render((u) => found.get(u) ?? null);
  } finally {
    plan.dispose();
  }
}
