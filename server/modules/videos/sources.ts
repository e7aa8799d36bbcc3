// What the video hub reads from outside (reference/media-hubs.md §2) into plain data: a YouTube
// channel's Atom feed (yt:videoId, media:group), a channel page's channel id, Invidious's and Piped's
// search answers, and PeerTube's video lists and details with their licence and files. Anything that
// is not the expected shape throws (the fetch counts as failed; the last good copy is kept).
import type * as Fxp from 'fast-xml-parser';
import { lazyRequire } from '../../platform/lazy.js';
import { httpUrl, parseDate, plainText } from '../today/public.js';
import { CHANNEL_ID, VIDEO_ID } from './schema.js';

const loadFxp = lazyRequire<typeof Fxp>('fast-xml-parser');
type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null);
function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (isNode(v) && '#text' in v) return text(v['#text']);
  return '';
}
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** One upload in a channel's feed (the feed holds the latest 15). */
export interface YtEntry {
  videoId: string;
  title: string;
  author: string | null;
  publishedAt: string | null;
  /** The picture's outside address (served by Hearth, never answered). */
  thumbnail: string | null;
}
export interface YtFeed {
  title: string;
  entries: YtEntry[];
}

let parser: Fxp.XMLParser | null = null;
/** A channel's Atom feed (`/feeds/videos.xml?channel_id=`). */
export function parseChannelFeed(body: Buffer): YtFeed {
  const xml = body.toString('utf8');
  if (loadFxp().XMLValidator.validate(xml) !== true) throw new Error('malformed XML');
  parser ??= new (loadFxp().XMLParser)({ ignoreAttributes: false, attributeNamePrefix: '@_', textNodeName: '#text', parseTagValue: false, parseAttributeValue: false, trimValues: true });
  const feed = (parser.parse(xml) as Node).feed;
  if (!isNode(feed)) throw new Error('not an Atom feed');
  const entries: YtEntry[] = [];
  for (const raw of list(feed.entry).slice(0, 50)) {
    if (!isNode(raw)) continue;
    const videoId = text(raw['yt:videoId']).trim();
    if (!VIDEO_ID.test(videoId)) continue;
    const group = isNode(raw['media:group']) ? raw['media:group'] : {};
    const thumb = list(group['media:thumbnail'])[0];
    entries.push({
      videoId,
      title: plainText(text(raw.title), 300) || 'Untitled video',
      author: isNode(raw.author) ? plainText(text(raw.author.name), 200) || null : null,
      publishedAt: parseDate(text(raw.published)),
      thumbnail: isNode(thumb) ? httpUrl(text(thumb['@_url'])) : null,
    });
  }
  const author = isNode(feed.author) ? text(feed.author.name) : '';
  return { title: plainText(text(feed.title) || author, 200) || 'Untitled channel', entries };
}

/** The channel id a channel's public page names (its canonical link, meta tags or page data); null when none. */
export function channelIdInPage(html: string): string | null {
  const patterns = [
    /<link[^>]+rel="canonical"[^>]+href="[^"]*\/channel\/(UC[\w-]{22})"/i,
    /<meta[^>]+itemprop="(?:identifier|channelId)"[^>]+content="(UC[\w-]{22})"/i,
    /feeds\/videos\.xml\?channel_id=(UC[\w-]{22})/,
    /"(?:externalId|channelId|browseId)"\s*:\s*"(UC[\w-]{22})"/,
  ];
  for (const p of patterns) {
    const m = p.exec(html);
    if (m?.[1] && CHANNEL_ID.test(m[1])) return m[1];
  }
  return null;
}

/** A search hit on a YouTube front-end: a YouTube video (it plays in the embed). */
export interface YtHit {
  videoId: string;
  title: string;
  author: string | null;
  durationSec: number | null;
  publishedAt: string | null;
}
const json = (body: Buffer): unknown => JSON.parse(body.toString('utf8')) as unknown;
const unix = (v: unknown): string | null => {
  const n = num(v);
  if (n === null || n <= 0) return null;
  return new Date(n > 1e12 ? n : n * 1000).toISOString();
};

/** Invidious `/api/v1/search?type=video`: an array of typed items. */
export function parseInvidiousSearch(body: Buffer): YtHit[] {
  const raw = json(body);
  if (!Array.isArray(raw)) throw new Error('not an Invidious search answer');
  return raw.flatMap((i): YtHit[] => {
    if (!isNode(i) || i.type !== 'video' || typeof i.videoId !== 'string' || !VIDEO_ID.test(i.videoId)) return [];
    return [{ videoId: i.videoId, title: plainText(str(i.title) ?? '', 300) || 'Untitled video', author: str(i.author), durationSec: num(i.lengthSeconds), publishedAt: unix(i.published) }];
  }).slice(0, 40);
}

/** Piped `/search?filter=videos`: `{items[{url: "/watch?v=…", title, uploaderName, duration, uploaded}]}`. */
export function parsePipedSearch(body: Buffer): YtHit[] {
  const raw = json(body);
  if (!isNode(raw) || !Array.isArray(raw.items)) throw new Error('not a Piped search answer');
  return raw.items.flatMap((i): YtHit[] => {
    if (!isNode(i) || typeof i.url !== 'string') return [];
    const videoId = /[?&]v=([\w-]{11})/.exec(i.url)?.[1];
    if (!videoId) return [];
    const d = num(i.duration);
    return [{ videoId, title: plainText(str(i.title) ?? '', 300) || 'Untitled video', author: str(i.uploaderName), durationSec: d !== null && d >= 0 ? d : null, publishedAt: unix(i.uploaded) }];
  }).slice(0, 40);
}

export interface PtVideo {
  uuid: string;
  name: string;
  channel: string | null;
  durationSec: number | null;
  publishedAt: string | null;
  thumbnailPath: string | null;
  licenceId: number | null;
  licence: string | null;
}
export interface PtFile {
  url: string;
  size: number | null;
  height: number;
}
export interface PtVideoDetail extends PtVideo {
  files: PtFile[];
}

function ptVideo(raw: unknown): PtVideo | null {
  if (!isNode(raw)) return null;
  const uuid = str(raw.uuid);
  if (!uuid || !/^[0-9a-f-]{36}$/i.test(uuid)) return null;
  const licence = isNode(raw.licence) ? raw.licence : {};
  const channel = isNode(raw.channel) ? (str(raw.channel.displayName) ?? str(raw.channel.name)) : isNode(raw.account) ? str(raw.account.displayName) : null;
  const thumb = str(raw.thumbnailPath) ?? str(raw.previewPath);
  return {
    uuid: uuid.toLowerCase(),
    name: plainText(str(raw.name) ?? '', 300) || 'Untitled video',
    channel,
    durationSec: num(raw.duration),
    publishedAt: parseDate(str(raw.publishedAt) ?? '') ?? null,
    thumbnailPath: thumb && thumb.startsWith('/') ? thumb : null,
    licenceId: num(licence.id),
    licence: str(licence.label),
  };
}

/** `/api/v1/videos` (or `/search/videos`): `{total, data[]}`. */
export function parsePeertubeList(body: Buffer): PtVideo[] {
  const raw = json(body);
  if (!isNode(raw) || !Array.isArray(raw.data)) throw new Error('not a PeerTube video list');
  return raw.data.flatMap((v) => ptVideo(v) ?? []).slice(0, 30);
}

/** `/api/v1/videos/:uuid`: the video with its files (web videos, else the HLS playlist's fragmented MP4s). */
export function parsePeertubeVideo(body: Buffer): PtVideoDetail {
  const raw = json(body);
  const video = ptVideo(raw);
  if (!video || !isNode(raw)) throw new Error('not a PeerTube video');
  const filesOf = (v: unknown): PtFile[] =>
    list(v).flatMap((f): PtFile[] => {
      if (!isNode(f)) return [];
      const url = httpUrl(str(f.fileDownloadUrl) ?? str(f.fileUrl));
      if (!url) return [];
      const height = isNode(f.resolution) ? (num(f.resolution.id) ?? 0) : 0;
      return [{ url, size: num(f.size), height }];
    });
  const playlists = list(raw.streamingPlaylists).flatMap((p) => (isNode(p) ? filesOf(p.files) : []));
  const files = filesOf(raw.files);
  return { ...video, files: files.length > 0 ? files : playlists };
}

/** PeerTube's licences 1–7: the six Creative Commons licences and the public-domain dedication. */
export const isLicenceClean = (id: number | null): boolean => id !== null && Number.isInteger(id) && id >= 1 && id <= 7;

/** The file a phone plays and the cache keeps: the largest at or under 720p, else the smallest (0 = audio only, skipped). */
export function pickFile(files: PtFile[]): PtFile | null {
  const video = files.filter((f) => f.height > 0);
  const under = video.filter((f) => f.height <= 720).sort((a, b) => b.height - a.height);
  return under[0] ?? video.sort((a, b) => a.height - b.height)[0] ?? null;
}
