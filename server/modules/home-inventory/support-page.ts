// What the web lookup takes from a maker's support page: a phone number (a tel: link first, else a
// phone-shaped number in the text, preferring one near "call", "phone" or "customer care") and the
// product pictures (og:image first, then the page's <img>s), as absolute http(s) URLs. Pure: the
// page was fetched through the SSRF guard, and each picture URL is fetched through it again.
import { Parser } from 'htmlparser2';

export interface SupportPageFacts {
  phone: string | null;
  images: string[];
}

const PHONE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,5}\)[\s.-]?)?\d{1,5}(?:[\s.-]\d{2,5}){1,4}/g;
const NEAR_PHONE = /(call|phone|tel|telephone|hotline|customer (care|service)|support line)/i;
const MAX_IMAGES = 12;

function cleanPhone(raw: string): string | null {
  const phone = raw.replace(/\s+/g, ' ').trim();
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return null;
  // a date, a year range or a price is not a phone number
  if (/^\d{4}[-.]\d{2}[-.]\d{2}$/.test(phone) || /^\d{1,2}[.:]\d{2}$/.test(phone)) return null;
  return phone;
}

function absolute(raw: string | undefined, base: string): string | null {
  if (!raw) return null;
  try {
    const u = new URL(raw.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

export function readSupportPage(html: string, pageUrl: string): SupportPageFacts {
  let telLink = null as string | null;
  let ogImage = null as string | null;
  const images: string[] = [];
  const text: string[] = [];
  let skip = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'script' || name === 'style' || name === 'noscript') skip++;
        if (name === 'meta' && (attrs.property === 'og:image' || attrs.name === 'og:image')) ogImage ??= absolute(attrs.content, pageUrl);
        if (name === 'a' && attrs.href?.toLowerCase().startsWith('tel:')) telLink ??= cleanPhone(decodeURIComponent(attrs.href.slice(4)));
        if (name === 'img' && images.length < MAX_IMAGES) {
          const src = absolute(attrs.src ?? attrs['data-src'], pageUrl);
          if (src && !/\.svg(\?|$)/i.test(src) && !/(logo|icon|sprite|pixel)/i.test(src)) images.push(src);
        }
        if (name === 'br' || name === 'p' || name === 'div' || name === 'li') text.push('\n');
      },
      onclosetag(name) {
        if (name === 'script' || name === 'style' || name === 'noscript') skip = Math.max(0, skip - 1);
      },
      ontext(t) {
        if (!skip) text.push(t);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();

  let phone = telLink;
  if (!phone) {
    const body = text.join(' ').replace(/[ \t]+/g, ' ');
    let fallback: string | null = null;
    for (const m of body.matchAll(PHONE)) {
      const p = cleanPhone(m[0]);
      if (!p) continue;
      const before = body.slice(Math.max(0, m.index - 80), m.index);
      if (NEAR_PHONE.test(before)) {
        phone = p;
        break;
      }
      fallback ??= p;
    }
    phone ??= fallback;
  }
  const all = ogImage ? [ogImage, ...images] : images;
  return { phone, images: [...new Set(all)] };
}
