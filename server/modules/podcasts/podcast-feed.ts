// A podcast feed (RSS 2.0 with the itunes: namespace, reference/media-hubs.md §1) into plain data:
// the show's title and image, itunes:new-feed-url, and each item with an audio enclosure (url,
// length, type), its guid, itunes:duration (seconds, MM:SS or H:MM:SS) and date. XML is read with
// fast-xml-parser, loaded at first use. Items without an http(s) enclosure are left out.
import type * as Fxp from 'fast-xml-parser';
import { lazyRequire } from '../../platform/lazy.js';
import { httpUrl, NotAFeedError, parseDate, plainText } from '../today/public.js';

const loadFxp = lazyRequire<typeof Fxp>('fast-xml-parser');
export const MAX_EPISODES_PER_FEED = 300;

export interface PodcastItem {
  /** guid, else the enclosure's address: the episode's identity across polls. */
  key: string;
  title: string;
  audioUrl: string;
  audioType: string | null;
  audioLength: number | null;
  durationSec: number | null;
  publishedAt: string | null;
}
export interface PodcastFeed {
  title: string;
  imageUrl: string | null;
  newFeedUrl: string | null;
  items: PodcastItem[];
}

type Node = Record<string, unknown>;
const list = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (v && typeof v === 'object' && '#text' in v) return text((v as Node)['#text']);
  return '';
}

/** itunes:duration as seconds: "1832", "30:32" or "1:02:03"; null when unreadable. */
export function parseDuration(raw: string): number | null {
  const s = raw.trim();
  if (!/^\d+(:\d{1,2}){0,2}(\.\d+)?$/.test(s)) return null;
  const parts = s.split(':').map((p) => Math.floor(Number(p)));
  return parts.reduce((acc, n) => acc * 60 + n, 0);
}

let parser: Fxp.XMLParser | null = null;
export function parsePodcastFeed(body: Buffer): PodcastFeed {
  const xml = body.toString('utf8');
  if (loadFxp().XMLValidator.validate(xml) !== true) throw new NotAFeedError('malformed XML');
  parser ??= new (loadFxp().XMLParser)({ ignoreAttributes: false, attributeNamePrefix: '@_', textNodeName: '#text', parseTagValue: false, parseAttributeValue: false, trimValues: true });
  const doc = parser.parse(xml) as Node;
  const channel = (doc.rss as Node | undefined)?.channel as Node | undefined;
  if (!channel || typeof channel !== 'object') throw new NotAFeedError('not an RSS feed');
  const image = (channel['itunes:image'] as Node | undefined)?.['@_href'];
  const items: PodcastItem[] = [];
  for (const raw of list(channel.item).slice(0, MAX_EPISODES_PER_FEED)) {
    const item = raw as Node;
    const enc = list(item.enclosure)[0] as Node | undefined;
    const audioUrl = httpUrl(text(enc?.['@_url']));
    if (!audioUrl) continue;
    const length = Number(text(enc?.['@_length']));
    const guid = text(item.guid).trim();
    items.push({
      key: guid || audioUrl,
      title: plainText(text(item.title), 300) || 'Untitled episode',
      audioUrl,
      audioType: text(enc?.['@_type']) || null,
      audioLength: Number.isFinite(length) && length > 0 ? length : null,
      durationSec: parseDuration(text(item['itunes:duration'])),
      publishedAt: parseDate(text(item.pubDate)),
    });
  }
  return {
    title: plainText(text(channel.title), 300) || 'Untitled show',
    imageUrl: httpUrl(typeof image === 'string' ? image : null),
    newFeedUrl: httpUrl(text(channel['itunes:new-feed-url'])),
    items,
  };
}
