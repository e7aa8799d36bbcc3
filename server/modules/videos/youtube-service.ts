// YouTube without an account and within its terms (reference/media-hubs.md §2.1): the channels the
// household follows (a channel's address or @handle read into its id through its public page), their
// public Atom feeds (the latest 15 uploads, cached and asked again every 2 h with validators), OPML
// in and out, and search only through an Invidious or Piped instance an admin set (Invidious first,
// Piped when Invidious fails). Nothing is downloaded from YouTube: its videos play in the embed.
import { randomUUID } from 'node:crypto';
import { isAdmin, type UserActor } from '../../actor.js';
import { AppError, BadRequestError, ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { FetchFailure, type Freshness, type SourceFetcher, type SourceSpec } from '../../platform/outside-sources/fetcher.js';
import { type CachedImage, parseCachedImage } from '../../platform/outside-sources/image.js';
import { readOpmlUpload } from '../today/public.js';
import { byNewest, youtubeVideo } from './items.js';
import { CHANNEL_ID, type AddChannelBody, type Channel, type FeedResponse, type OpmlImportResponse, type SearchResponse, type Video } from './schema.js';
import type { VideoSettingsService } from './settings-service.js';
import { channelIdInPage, parseChannelFeed, parseInvidiousSearch, parsePipedSearch, type YtFeed, type YtHit } from './sources.js';
import type { ChannelRow, VideosStore } from './store.js';

export const FEED_TTL_MS = 2 * 60 * 60_000;
const SEARCH_TTL_MS = 10 * 60_000;
const THUMB_TTL_MS = 30 * 24 * 60 * 60_000;
const MAX_THUMB_BYTES = 512 * 1024;
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com']);
/** Where an exported list points: YouTube's own feeds, whatever Hearth reads them through. */
const CANONICAL_FEED = 'https://www.youtube.com/feeds/videos.xml?channel_id=';

export const SEARCH_NOT_CONFIGURED =
  'Video search needs an Invidious or Piped instance, and none is set. An admin adds one in Admin, Videos; until then, follow channels by their address.';

export interface YoutubeDeps {
  store: VideosStore;
  fetcher: SourceFetcher;
  settings: VideoSettingsService;
  clock: Clock;
  /** YouTube's base (YOUTUBE_FEEDS_BASE): its channel pages and feeds. */
  baseUrl: string;
}

const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export class YoutubeService {
  constructor(private readonly deps: YoutubeDeps) {}

  private get base(): string {
    return this.deps.baseUrl.replace(/\/+$/, '');
  }

  private offline(what: string): string {
    return `Hearth is in offline mode, so ${what} cannot be reached. ${this.deps.fetcher.offlineWho}`;
  }

  feedSpec(channelId: string): SourceSpec<YtFeed> {
    return { key: `feed:${channelId}`, source: 'youtube-feed', url: `${this.base}/feeds/videos.xml?channel_id=${channelId}`, ttlMs: FEED_TTL_MS, accept: 'application/atom+xml, application/xml;q=0.9, */*;q=0.5', parse: parseChannelFeed };
  }

  private channel(actor: UserActor, r: ChannelRow): Channel {
    return { id: r.id, channelId: r.channelId, title: r.title, addedBy: r.addedBy, addedAt: r.addedAt, canRemove: r.addedById === actor.id || isAdmin(actor) };
  }

  async list(actor: UserActor): Promise<Channel[]> {
    return (await this.deps.store.channels()).map((r) => this.channel(actor, r));
  }

  /** A channel's address (youtube.com/@handle, /channel/UC…, /c/…, /user/…) or a bare @handle, read into its channel id. */
  private async resolve(raw: string): Promise<string> {
    const text = raw.trim();
    let path: string;
    if (/^@[\w.-]{1,100}$/.test(text)) path = `/${text}`;
    else {
      let url: URL;
      try {
        url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
      } catch {
        throw new BadRequestError('That is not a channel’s address. Paste it from the channel’s page (youtube.com/@name), or its @handle.');
      }
      if (!YOUTUBE_HOSTS.has(url.hostname.toLowerCase()) && url.origin !== new URL(this.base).origin) {
        throw new BadRequestError('That is not a YouTube address. Paste the channel’s address (youtube.com/@name) or its @handle.');
      }
      const id = /^\/channel\/(UC[\w-]{22})/.exec(url.pathname)?.[1] ?? url.searchParams.get('channel_id');
      if (id && CHANNEL_ID.test(id)) return id;
      if (url.pathname === '/' || url.pathname === '') throw new BadRequestError('That is YouTube’s front page. Paste the address of the channel itself.');
      path = `${url.pathname}${url.search}`;
    }
    let html: string;
    try {
      html = (await this.deps.fetcher.fetchOnce(`${this.base}${path}`, 'text/html')).body.toString('utf8');
    } catch (err) {
      if (this.deps.fetcher.offline) throw new ServiceUnavailableError('offline_mode', this.offline('YouTube'));
      if (err instanceof FetchFailure && err.status === 404) throw new UnprocessableError('unknown_channel', 'YouTube has no channel at that address. Check it on the channel’s page.');
      throw new ServiceUnavailableError('source_unavailable', 'YouTube could not be reached to read that channel’s page. Try again in a little while, or paste the channel id (UC…).');
    }
    const id = channelIdInPage(html);
    if (!id) throw new UnprocessableError('not_a_channel', 'That page does not name a YouTube channel. Paste the address of the channel’s own page.');
    return id;
  }

  /** Reads the channel's feed (its title, and that YouTube knows it) and follows it for the household. */
  async add(actor: UserActor, body: AddChannelBody): Promise<Channel> {
    const channelId = body.channelId ?? (await this.resolve(body.url!));
    if (await this.deps.store.hasChannel(channelId)) throw new ConflictError('already_followed', 'The household already follows this channel.');
    const unavailable = this.deps.fetcher.offline ? this.offline('YouTube') : 'YouTube could not be reached to read this channel’s feed. Try again in a little while.';
    let feed: YtFeed;
    try {
      feed = (await this.deps.fetcher.read(this.feedSpec(channelId), unavailable, { notFound: 'x' })).payload;
    } catch (err) {
      if (err instanceof NotFoundError) throw new UnprocessableError('unknown_channel', 'YouTube has no channel with that id.');
      throw err;
    }
    const row = { id: randomUUID(), channelId, title: feed.title, addedBy: actor.id, addedAt: this.deps.clock.now().toISOString() };
    if (!(await this.deps.store.addChannel(row))) throw new ConflictError('already_followed', 'The household already follows this channel.');
    return this.channel(actor, (await this.deps.store.channel(row.id))!);
  }

  /** The member who added a channel, or an admin, removes it; everyone else is told who may. */
  async remove(actor: UserActor, id: string): Promise<void> {
    const row = await this.deps.store.channel(id);
    if (!row) throw new NotFoundError('The household does not follow that channel.');
    if (row.addedById !== actor.id && !isAdmin(actor)) throw new ForbiddenError('Only the member who added this channel, or an admin, can remove it.');
    await this.deps.store.deleteChannel(id);
    if (!(await this.deps.store.hasChannel(row.channelId))) await this.deps.fetcher.forget(this.feedSpec(row.channelId).key);
  }

  /** The channels' latest uploads, newest first, from their cached feeds (fetched when older than 2 h; stale ones served as they are). */
  async feed(): Promise<FeedResponse> {
    const channels = await this.deps.store.channels();
    const unavailable = this.deps.fetcher.offline ? this.offline('YouTube') : 'YouTube could not be reached.';
    const read = await Promise.all(channels.map(async (c) => ({ c, got: await this.deps.fetcher.read(this.feedSpec(c.channelId), unavailable).catch(() => null) })));
    let oldest: Freshness | null = null;
    const videos: Video[] = [];
    const seen = new Set<string>();
    for (const { c, got } of read) {
      if (!got) continue;
      if (!oldest || got.freshness.fetchedAt < oldest.fetchedAt) oldest = got.freshness;
      if (got.payload.title !== c.title) await this.deps.store.renameChannel(c.channelId, got.payload.title);
      for (const e of got.payload.entries) {
        if (seen.has(e.videoId)) continue;
        seen.add(e.videoId);
        videos.push(youtubeVideo(e, got.payload.title, e.thumbnail !== null));
      }
    }
    videos.sort(byNewest);
    return {
      videos,
      unavailable: read.filter((r) => !r.got).map((r) => ({ channelId: r.c.channelId, title: r.c.title })),
      freshness: oldest ? { fetchedAt: oldest.fetchedAt, ageSeconds: oldest.ageSeconds, stale: oldest.stale } : null,
    };
  }

  /** The 2-hourly task: every followed channel's feed asked again, conditionally (nothing in offline mode). */
  async pollAll(): Promise<number> {
    if (this.deps.fetcher.offline) return 0;
    let failed = 0;
    for (const c of await this.deps.store.channels()) {
      const outcome = await this.deps.fetcher.refresh(this.feedSpec(c.channelId));
      if (outcome.kind === 'failed') failed++;
    }
    return failed;
  }

  /** A video's picture from a followed channel's feed, fetched once by Hearth (no browser asks Google's image host for it). */
  async thumbnail(videoId: string): Promise<CachedImage> {
    let source: string | null = null;
    for (const e of await this.deps.fetcher.entriesOf('youtube-feed')) {
      const hit = (e.payload as YtFeed | null)?.entries.find((x) => x.videoId === videoId);
      if (hit?.thumbnail) source = hit.thumbnail;
      if (source) break;
    }
    if (!source) throw new NotFoundError('No followed channel has a video with that id.');
    const spec: SourceSpec<CachedImage> = { key: `thumb:${videoId}`, source: 'youtube-thumbnail', url: source, ttlMs: THUMB_TTL_MS, accept: 'image/jpeg,image/png,image/webp', parse: (b) => parseCachedImage(b, MAX_THUMB_BYTES, 'a thumbnail') };
    const { payload } = await this.deps.fetcher.read(spec, this.deps.fetcher.offline ? 'Hearth is in offline mode, and this picture was not fetched before.' : 'This picture could not be fetched just now.');
    return payload;
  }

  /** Search through the admin's Invidious instance, else (or when it fails) the Piped one; 409 when neither is set. */
  async search(q: string): Promise<SearchResponse> {
    const s = await this.deps.settings.get();
    if (!s.invidiousUrl && !s.pipedUrl) throw new ConflictError('search_not_configured', SEARCH_NOT_CONFIGURED);
    if (this.deps.fetcher.offline) throw new ServiceUnavailableError('source_unavailable', `Hearth is in offline mode, so video search cannot reach the instance. The channels the household follows still list what was fetched before. ${this.deps.fetcher.offlineWho}`);
    const words = q.toLowerCase().split(/\s+/).filter(Boolean).join(' ');
    const tries: { instance: 'invidious' | 'piped'; spec: SourceSpec<YtHit[]> }[] = [];
    if (s.invidiousUrl) tries.push({ instance: 'invidious', spec: { key: `search:invidious:${words}`, source: 'invidious-search', url: `${s.invidiousUrl}/api/v1/search?type=video&q=${encodeURIComponent(words)}`, ttlMs: SEARCH_TTL_MS, accept: 'application/json', parse: parseInvidiousSearch } });
    if (s.pipedUrl) tries.push({ instance: 'piped', spec: { key: `search:piped:${words}`, source: 'piped-search', url: `${s.pipedUrl}/search?filter=videos&q=${encodeURIComponent(words)}`, ttlMs: SEARCH_TTL_MS, accept: 'application/json', parse: parsePipedSearch } });
    for (const t of tries) {
      try {
        const { payload } = await this.deps.fetcher.read(t.spec, 'unavailable');
        return { instance: t.instance, results: payload.map((h) => youtubeVideo(h, null, false)) };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
      }
    }
    throw new ServiceUnavailableError('source_unavailable', `The video search instance${tries.length > 1 ? 's' : ''} did not answer with results (down, slow, or blocked by YouTube). Try again later, or an admin sets another instance in Admin, Videos.`);
  }

  /** Follows every YouTube channel an OPML file lists (FreeTube, NewPipe and Invidious exports); what fails is counted. */
  async importOpml(actor: UserActor, body: Buffer): Promise<OpmlImportResponse> {
    const parsed = readOpmlUpload(body);
    const out: OpmlImportResponse = { added: [], existing: 0, failed: parsed.skipped };
    for (const f of parsed.feeds) {
      const url = new URL(f.xmlUrl);
      const channelId = url.searchParams.get('channel_id') ?? /\/channel\/(UC[\w-]{22})/.exec(url.pathname)?.[1] ?? '';
      if (!CHANNEL_ID.test(channelId)) {
        out.failed++;
        continue;
      }
      try {
        out.added.push(await this.add(actor, { channelId }));
      } catch (err) {
        if (err instanceof ConflictError) out.existing++;
        else if (err instanceof ServiceUnavailableError && this.deps.fetcher.offline) throw err;
        else out.failed++;
      }
    }
    return out;
  }

  /** The household's channels as an OPML 2.0 file pointing at YouTube's own feeds. */
  async exportOpml(): Promise<string> {
    const lines = (await this.deps.store.channels()).map((c) => `    <outline type="rss" text="${esc(c.title)}" title="${esc(c.title)}" xmlUrl="${CANONICAL_FEED}${c.channelId}"/>`);
    return `<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">\n  <head><title>Hearth YouTube channels</title></head>\n  <body>\n${lines.join('\n')}\n  </body>\n</opml>\n`;
  }
}
