// Feeds and OPML into plain data (reference/briefing.md §1): RSS 2.0, RDF (RSS 1.0), Atom and JSON
// Feed; an HTML page's <link rel="alternate"> for autodiscovery; OPML outlines. XML is read with
// fast-xml-parser (a maintained parser, loaded at first use) and HTML with htmlparser2 — never
// regexes over markup. The charset comes from the HTTP header or the XML prolog (ISO-8859-1 feeds
// exist). Summaries are plain text; links are http(s) only; dates are parsed here (RFC 822,
// RFC 3339) and left null when unreadable. Identity: guid/id, else the link, else title + date.
import { createHash } from 'node:crypto';
import type * as Fxp from 'fast-xml-parser';
import type * as Htmlparser2 from 'htmlparser2';
import { BadRequestError } from '../../errors.js';
import { lazyRequire } from '../../platform/lazy.js';

const loadFxp = lazyRequire<typeof Fxp>('fast-xml-parser');
const loadHtml = lazyRequire<typeof Htmlparser2>('htmlparser2');
let xmlParser: Fxp.XMLParser | null = null;

export const MAX_ITEMS_PER_FEED = 50;
const MAX_SUMMARY = 400;

export interface ParsedItem {
  key: string;
  title: string;
  url: string | null;
  summary: string;
  publishedAt: string | null;
  imageUrl: string | null;
}

export interface ParsedFeed {
  format: 'rss' | 'atom' | 'rdf' | 'json';
  title: string;
  siteUrl: string | null;
  items: ParsedItem[];
}

export class NotAFeedError extends Error {
  constructor(message = 'not a feed') {
    super(message);
    this.name = 'NotAFeedError';
  }
}

type Node = Record<string, unknown>;
const arr = <T>(v: T | T[] | undefined | null): T[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const textOf = (v: unknown): string => {
  if (v === undefined || v === null) return '';
  if (typeof v === 'object') return '#text' in (v as Node) ? String((v as Node)['#text']) : '';
  return String(v);
};
const attr = (v: unknown, name: string): string | null => (v && typeof v === 'object' && typeof (v as Node)[`@_${name}`] === 'string' ? ((v as Node)[`@_${name}`] as string) : null);

export function httpUrl(raw: string | null | undefined, base?: string | null): string | null {
  if (!raw) return null;
  try {
    const u = new URL(raw.trim(), base ?? undefined);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** HTML (or text) to plain text, collapsed and cut at a word. */
export function plainText(html: string, max = MAX_SUMMARY): string {
  let out = '';
  const { Parser } = loadHtml();
  let skip = 0;
  const parser = new Parser(
    {
      onopentag: (name) => {
        if (name === 'script' || name === 'style') skip++;
        if (['p', 'br', 'div', 'li'].includes(name)) out += ' ';
      },
      onclosetag: (name) => {
        if ((name === 'script' || name === 'style') && skip > 0) skip--;
      },
      ontext: (t) => {
        if (skip === 0) out += t;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  const text = out.replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max - 40)).trimEnd()}…`;
}

/** The first <img src> of an HTML fragment (a feed's only picture is often in its description). */
function firstImage(html: string, base: string | null): string | null {
  let found: string | null = null;
  const { Parser } = loadHtml();
  const parser = new Parser({ onopentag: (name, a) => void (name === 'img' && !found && (found = httpUrl(a.src, base))) }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return found;
}

/** RFC 822 (with lenient day/zone names), RFC 3339, or anything Date.parse reads → ISO; null otherwise. */
export function parseDate(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const s = raw.trim().replace(/\s+/g, ' ');
  const t = Date.parse(s) || Date.parse(s.replace(/^[A-Za-z]+,?\s*/, '')) || Date.parse(s.replace(/ (?:[A-Z]{3,4})$/, ' GMT'));
  return Number.isFinite(t) && t > 0 ? new Date(t).toISOString() : null;
}

/** Decodes with the HTTP charset, else the XML prolog's, else UTF-8. */
export function decodeBody(body: Buffer, contentType: string): string {
  const fromHeader = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  const head = body.subarray(0, 200).toString('latin1');
  const fromProlog = /^\s*<\?xml[^>]*encoding=["']([\w-]+)["']/i.exec(head)?.[1];
  const label = (fromHeader ?? fromProlog ?? 'utf-8').toLowerCase();
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return body.toString('utf8');
  }
}

const keyOf = (guid: string | null, url: string | null, title: string, date: string | null) =>
  createHash('sha256')
    .update(guid ? `g:${guid}` : url ? `u:${url}` : `t:${title}|${date ?? ''}`)
    .digest('hex')
    .slice(0, 32);

function item(base: string | null, f: { guid: string | null; title: string; link: string | null; html: string; date: string | null; image: string | null }): ParsedItem | null {
  const url = httpUrl(f.link, base);
  const title = plainText(f.title, 300) || plainText(f.html, 120);
  if (!title && !url) return null;
  const publishedAt = parseDate(f.date);
  return { key: keyOf(f.guid?.trim() || null, url, title, publishedAt), title: title || url!, url, summary: plainText(f.html), publishedAt, imageUrl: httpUrl(f.image, base) ?? (f.html ? firstImage(f.html, base) : null) };
}

function mediaImage(n: Node): string | null {
  for (const key of ['media:thumbnail', 'media:content']) {
    for (const m of arr(n[key] as Node | Node[])) {
      const url = attr(m, 'url');
      const medium = attr(m, 'medium') ?? attr(m, 'type') ?? 'image';
      if (url && (key === 'media:thumbnail' || medium.startsWith('image'))) return url;
    }
  }
  const group = n['media:group'] as Node | undefined;
  if (group) return mediaImage(group);
  for (const e of arr(n.enclosure as Node | Node[])) if ((attr(e, 'type') ?? '').startsWith('image/') && attr(e, 'url')) return attr(e, 'url');
  return null;
}

function parseXml(text: string): Node {
  xmlParser ??= new (loadFxp().XMLParser)({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    textNodeName: '#text',
    processEntities: true,
    htmlEntities: true,
    removeNSPrefix: false,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
  });
  const validated = loadFxp().XMLValidator.validate(text);
  if (validated !== true) throw new NotAFeedError('malformed XML');
  return xmlParser.parse(text) as Node;
}

function rssItems(items: Node[], base: string | null): ParsedItem[] {
  return items.map((n) => {
    const guid = textOf(n.guid) || null;
    const html = textOf(n['content:encoded']) || textOf(n.description);
    return item(base, { guid, title: textOf(n.title), link: textOf(n.link) || (attr(n.guid, 'isPermaLink') !== 'false' ? guid : null), html: textOf(n.description) || html, date: textOf(n.pubDate) || textOf(n['dc:date']) || null, image: mediaImage(n) });
  }).filter((i): i is ParsedItem => i !== null);
}

function atomLink(n: Node): string | null {
  const links = arr(n.link as Node | Node[]);
  const alt = links.find((l) => (attr(l, 'rel') ?? 'alternate') === 'alternate') ?? links[0];
  return alt ? attr(alt, 'href') : null;
}

function parseJsonFeed(text: string): ParsedFeed {
  const raw = JSON.parse(text) as Node;
  if (typeof raw.version !== 'string' || !raw.version.startsWith('https://jsonfeed.org/version/') || !Array.isArray(raw.items)) throw new NotAFeedError();
  const base = httpUrl(raw.home_page_url as string) ?? null;
  const items = (raw.items as Node[])
    .map((n) =>
      item(base, {
        guid: n.id === undefined ? null : String(n.id as string),
        title: typeof n.title === 'string' ? n.title : '',
        link: typeof n.url === 'string' ? n.url : null,
        html: typeof n.summary === 'string' ? n.summary : typeof n.content_html === 'string' ? n.content_html : typeof n.content_text === 'string' ? n.content_text : '',
        date: typeof n.date_published === 'string' ? n.date_published : typeof n.date_modified === 'string' ? n.date_modified : null,
        image: typeof n.image === 'string' ? n.image : typeof n.banner_image === 'string' ? n.banner_image : null,
      }),
    )
    .filter((i): i is ParsedItem => i !== null);
  return { format: 'json', title: plainText(String((raw.title as string) ?? ''), 200), siteUrl: base, items: items.slice(0, MAX_ITEMS_PER_FEED) };
}

/** A feed body → ParsedFeed; throws NotAFeedError for anything else (HTML, garbage, malformed XML). */
export function parseFeed(body: Buffer, contentType: string): ParsedFeed {
  const text = decodeBody(body, contentType).replace(/^\uFEFF/, '');
  const start = text.trimStart();
  if (start.startsWith('{')) {
    try {
      return parseJsonFeed(start);
    } catch (err) {
      throw err instanceof NotAFeedError ? err : new NotAFeedError('malformed JSON');
    }
  }
  if (!start.startsWith('<')) throw new NotAFeedError();
  const doc = parseXml(start);
  const rss = doc.rss as Node | undefined;
  if (rss && typeof rss === 'object') {
    const channel = (rss.channel ?? {}) as Node;
    const site = httpUrl(textOf(arr(channel.link as unknown[]).find((l) => typeof l === 'string') ?? ''));
    return { format: 'rss', title: plainText(textOf(channel.title), 200), siteUrl: site, items: rssItems(arr(channel.item as Node | Node[]), site).slice(0, MAX_ITEMS_PER_FEED) };
  }
  const rdf = doc['rdf:RDF'] as Node | undefined;
  if (rdf && typeof rdf === 'object') {
    const channel = (rdf.channel ?? {}) as Node;
    const site = httpUrl(textOf(channel.link));
    return { format: 'rdf', title: plainText(textOf(channel.title), 200), siteUrl: site, items: rssItems(arr(rdf.item as Node | Node[]), site).slice(0, MAX_ITEMS_PER_FEED) };
  }
  const feed = doc.feed as Node | undefined;
  if (feed && typeof feed === 'object') {
    const site = httpUrl(atomLink(feed));
    const items = arr(feed.entry as Node | Node[])
      .map((n) => {
        const html = textOf(n.summary) || textOf(n.content) || textOf((n['media:group'] as Node | undefined)?.['media:description']);
        return item(site, { guid: textOf(n.id) || null, title: textOf(n.title), link: atomLink(n), html, date: textOf(n.published) || textOf(n.updated) || null, image: mediaImage(n) });
      })
      .filter((i): i is ParsedItem => i !== null);
    return { format: 'atom', title: plainText(textOf(feed.title), 200), siteUrl: site, items: items.slice(0, MAX_ITEMS_PER_FEED) };
  }
  throw new NotAFeedError();
}

/** An HTML page's feed links (<link rel="alternate" type="application/rss+xml|atom+xml|feed+json" href>). */
export function discoverFeeds(html: string, pageUrl: string): string[] {
  const found: string[] = [];
  const { Parser } = loadHtml();
  const parser = new Parser(
    {
      onopentag: (name, a) => {
        if (name !== 'link') return;
        const rel = (a.rel ?? '').toLowerCase().split(/\s+/);
        const type = (a.type ?? '').toLowerCase();
        if (!rel.includes('alternate') || !/application\/(rss\+xml|atom\+xml|feed\+json|rdf\+xml)/.test(type)) return;
        const url = httpUrl(a.href, pageUrl);
        if (url && !found.includes(url)) found.push(url);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return found;
}

export interface OpmlOutline {
  xmlUrl: string;
  title: string;
  category: string | null;
}

/** An uploaded OPML file (news, podcasts, YouTube channels) → its feeds; not OPML at all is a 400 with a sentence. */
export function readOpmlUpload(body: Buffer): { feeds: OpmlOutline[]; skipped: number } {
  try {
    return parseOpml(decodeBody(body, ''));
  } catch {
    throw new BadRequestError('That is not an OPML file (an XML list of feeds).');
  }
}

/** OPML → the feeds it lists (outlines with xmlUrl; a parent outline without one is a folder), and how many lines were skipped. */
export function parseOpml(text: string): { feeds: OpmlOutline[]; skipped: number } {
  let doc: Node;
  try {
    doc = parseXml(text.replace(/^\uFEFF/, '').trimStart());
  } catch {
    throw new NotAFeedError('malformed OPML');
  }
  const opml = doc.opml as Node | undefined;
  if (!opml || typeof opml !== 'object') throw new NotAFeedError('not OPML');
  const feeds: OpmlOutline[] = [];
  let skipped = 0;
  const walk = (nodes: Node[], folder: string | null) => {
    for (const n of nodes) {
      const xmlUrl = attr(n, 'xmlUrl');
      const label = attr(n, 'title') ?? attr(n, 'text') ?? '';
      if (xmlUrl) {
        const url = httpUrl(xmlUrl);
        if (url && !feeds.some((f) => f.xmlUrl === url)) feeds.push({ xmlUrl: url, title: label, category: attr(n, 'category') ?? folder });
        else skipped++;
      }
      walk(arr(n.outline as Node | Node[]), xmlUrl ? folder : label || folder);
    }
  };
  walk(arr(((opml.body ?? {}) as Node).outline as Node | Node[]), null);
  return { feeds, skipped };
}
