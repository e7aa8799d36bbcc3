// "On this day" from the household's installed Wikipedia archive (catalog id `wikipedia`), for when
// Hearth is offline or in OFFLINE_MODE (reference/briefing.md §2): the day article ("May_20") has h2
// sections Events, Births, Deaths and Holidays_and_observances whose list items start with a year, a
// dash and the text — read with htmlparser2 and the same year rule as Wikipedia's own feed
// (wikifeeds' `^(AD )?(\d+) (BC|BCE|AD|CE)? – text`). `selected` does not exist offline (its page is
// outside the article namespace), and there are no thumbnails. Links point at the archive viewer.
import type * as Htmlparser2 from 'htmlparser2';
import { lazyRequire } from '../../platform/lazy.js';
import type { OnThisDayDay, OnThisDayItem } from './schema.js';

const loadHtml = lazyRequire<typeof Htmlparser2>('htmlparser2');

/** The day article's title in English Wikipedia, e.g. "05-20" → "May_20". */
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const dayArticleTitle = (day: string): string => {
  const [mm, dd] = day.split('-').map(Number) as [number, number];
  return `${MONTHS[mm - 1]}_${dd}`;
};

const YEAR_LINE = /^\s*(?:AD\s+)?(\d{1,4})\s*(BCE?|AD|CE)?\s*[-–—−]\s*(.+)$/is;
const MAX_ITEMS = 40;
const MAX_PAGES = 3;
type Kind = 'events' | 'births' | 'deaths' | 'holidays';

function kindOf(heading: string): Kind | null {
  const h = heading.replace(/_/g, ' ').trim().toLowerCase();
  if (h.startsWith('events')) return 'events';
  if (h.startsWith('births')) return 'births';
  if (h.startsWith('deaths')) return 'deaths';
  if (h.startsWith('holidays')) return 'holidays';
  return null;
}

interface OpenItem {
  kind: Kind;
  text: string;
  links: Array<{ href: string; text: string; title: string | null }>;
}

/**
 * The day article's HTML → the lists Hearth keeps. `articlePath` is the article's path in the archive
 * (relative links are resolved against it); `viewerUrl` turns an archive path into the web app's
 * viewer address.
 */
export function parseDayArticle(html: string, articlePath: string, viewerUrl: (path: string) => string): OnThisDayDay {
  const out: Record<Kind, OnThisDayItem[]> = { events: [], births: [], deaths: [], holidays: [] };
  let section: Kind | null = null;
  let inH2 = false;
  let h2Text = '';
  let h2Id: string | null = null;
  let skip = 0; // inside <sup>, <style>, <script>: reference marks and code are not text
  const stack: OpenItem[] = [];
  let link: { href: string; text: string; title: string | null } | null = null;
  const base = new URL(`http://archive.invalid/${articlePath.split('/').map(encodeURIComponent).join('/')}`);

  const toPage = (l: { href: string; text: string; title: string | null }) => {
    if (!l.href || /^[a-z][a-z0-9+.-]*:/i.test(l.href) || l.href.startsWith('#') || l.href.startsWith('//')) return null;
    let path: string;
    try {
      const u = new URL(l.href, base);
      if (u.origin !== base.origin) return null;
      path = u.pathname
        .slice(1)
        .split('/')
        .map((s) => decodeURIComponent(s))
        .join('/');
    } catch {
      return null;
    }
    const title = (l.title ?? l.text).replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
    return path && title ? { title, url: viewerUrl(path) } : null;
  };

  const close = (item: OpenItem) => {
    const text = item.text.replace(/\s+/g, ' ').trim();
    if (!text) return;
    if (item.kind === 'holidays') {
      // a heading line over a nested list ("Christian feast day:") is not an observance itself
      if (text.endsWith(':')) return;
      const pages = item.links.flatMap((l) => toPage(l) ?? []).slice(0, MAX_PAGES);
      out.holidays.push({ year: null, text, pages });
      return;
    }
    const m = YEAR_LINE.exec(text);
    if (!m) return;
    const era = (m[2] ?? '').toUpperCase();
    const year = era.startsWith('BC') ? -Number(m[1]) : Number(m[1]);
    const pages = item.links
      .filter((l) => l.text.trim() !== m[1])
      .flatMap((l) => toPage(l) ?? [])
      .slice(0, MAX_PAGES);
    out[item.kind].push({ year, text: m[3]!.trim(), pages });
  };

  const { Parser } = loadHtml();
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'sup' || name === 'style' || name === 'script') skip++;
        else if (name === 'h2') {
          inH2 = true;
          h2Text = '';
          h2Id = attrs.id ?? null;
        } else if (inH2 && attrs.id && !h2Id) h2Id = attrs.id;
        else if (name === 'li' && section) stack.push({ kind: section, text: '', links: [] });
        else if (name === 'a' && stack.length) link = { href: attrs.href ?? '', text: '', title: attrs.title ?? null };
      },
      ontext(text) {
        if (skip) return;
        if (inH2) h2Text += text;
        const top = stack[stack.length - 1];
        if (top) top.text += text;
        if (link) link.text += text;
      },
      onclosetag(name) {
        if (name === 'sup' || name === 'style' || name === 'script') skip = Math.max(0, skip - 1);
        else if (name === 'h2' && inH2) {
          inH2 = false;
          section = kindOf(h2Id ?? h2Text) ?? kindOf(h2Text);
          stack.length = 0;
        } else if (name === 'a' && link) {
          stack[stack.length - 1]?.links.push(link);
          link = null;
        } else if (name === 'li' && stack.length) close(stack.pop()!);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  // the feed lists the newest year first; the article oldest first
  const newestFirst = (list: OnThisDayItem[]) => [...list].sort((a, b) => (b.year ?? 0) - (a.year ?? 0)).slice(0, MAX_ITEMS);
  return { selected: [], events: newestFirst(out.events), births: newestFirst(out.births), deaths: newestFirst(out.deaths), holidays: out.holidays.slice(0, MAX_ITEMS) };
}
