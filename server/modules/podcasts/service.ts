// The podcasts rules: iTunes search, each member's private subscriptions, their episodes, the inbox
// and listening progress. Every outside request goes through the one SSRF guard; feeds are read
// through the shared outside-source fetcher (validators, Retry-After, a backoff that grows to a day
// for a feed that keeps failing). Offline mode is read at each request (guard.offline): what is kept
// (shows, episodes, progress, the inbox, offline copies) keeps working, the rest is refused with a sentence.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { assertAdmin, type Actor, type UserActor } from '../../actor.js';
import { AppError, BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError, UnauthorizedError, UnprocessableError, UpstreamError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import { BlockedUrlError, guardedRequest, OfflineModeError, offlineWho, type OfflineReason, type SsrfGuard } from '../../platform/ssrf.js';
import { type CachedImage, parseCachedImage } from '../../platform/outside-sources/image.js';
import { FetchFailure, type FetchOutcome, type SourceFetcher, type SourceSpec } from '../../platform/outside-sources/fetcher.js';
import type { AudioFile, EpisodeCopiesService } from './copies-service.js';
import { parsePodcastFeed, type PodcastFeed } from './podcast-feed.js';
import { type DirectoryResult, PodcastIndexError, type PodcastIndex, type PodcastIndexPair } from './podcast-index.js';
import { readOpmlUpload } from '../today/public.js';
import { FINISHED_REMAINING_SEC, type OpmlImportResponse, type Episode, type ProgressBody, type Subscription } from './schema.js';
import { coverPath, FEED_SOURCE, feedKey, type PodcastsStore } from './store.js';

export interface AudioStream {
  kind: 'stream';
  status: number;
  headers: Record<string, string>;
  body: Readable;
}
/** An episode's audio: the member's offline copy (a file, served with Range), else the enclosure streamed through the guard. */
export type EpisodeAudio = AudioStream | ({ kind: 'file' } & AudioFile);

interface Fetched {
  status: number;
  body: Buffer;
}
/** A feed's kept copy counts as fresh this long (the hourly poll asks again anyway, conditionally). */
const FEED_TTL_MS = 55 * 60_000;
const FEED_ACCEPT = 'application/rss+xml, application/xml;q=0.9, */*;q=0.5';

export const USER_AGENT = 'Hearth/0.1 (self-hosted household server; podcasts)';
/** A show's cover is kept this long, and may be this large. */
const COVER_TTL_MS = 30 * 24 * 60 * 60_000;
const MAX_COVER_BYTES = 1024 * 1024;
const MAX_FEED_BYTES = 10 * 1024 * 1024;

export interface PodcastsDeps {
  store: PodcastsStore;
  guard: SsrfGuard;
  /** Feeds, through the shared outside-source fetcher (podcasts_cache, one row per feed address). */
  feeds: SourceFetcher;
  /** Offline copies of episodes. */
  copies: EpisodeCopiesService;
  clock: Clock;
  itunesUrl: string;
  timeoutMs: number;
  /** Covers, fetched once and kept (the shared outside-source fetcher over podcasts_cache). */
  covers: SourceFetcher;
  /** Podcast Index, searched instead of Apple once an admin adds the household's key. */
  index: PodcastIndex;
  logger: Logger;
}

export interface PodcastSearch {
  /** Which directory answered. */
  source: 'itunes' | 'podcastindex';
  /** Why Podcast Index did not answer this search (Apple's directory did instead), else null. */
  notice: string | null;
  results: DirectoryResult[];
}

const PODCAST_INDEX_REFUSED = 'Podcast Index refused the household’s key, so these results are from Apple’s podcast directory. An admin can check the Podcast Index key and secret on the Listen page.';

function member(actor: Actor): UserActor {
  if (actor.kind !== 'user') throw new UnauthorizedError('Sign in to use podcasts.');
  return actor;
}

/** What offline mode refuses, in a sentence (503). */
export function offlineRefusal(what: string, reason: OfflineReason | null): AppError {
  return new ServiceUnavailableError('offline_mode', `Hearth is in offline mode, so ${what}. Your shows, episode lists, progress and downloaded episodes still work. ${offlineWho(reason)}`);
}

/** A feed that could not be read, with the fetcher's reason (its sentences name no address). */
function feedFailure(err: unknown): AppError {
  if (err instanceof OfflineModeError) return offlineRefusal('it cannot read podcast feeds', err.reason);
  const why = err instanceof FetchFailure ? ` ${err.message}` : '';
  return new UpstreamError('upstream_failed', `The podcast feed could not be read.${why}`);
}

/** A fetch that did not get an answer, said without the underlying error's words (addresses, hosts). */
function unreachable(what: string, err: unknown): AppError {
  if (err instanceof OfflineModeError) return new ServiceUnavailableError('offline_mode', `${what} cannot be fetched now. ${err.message}`);
  if (err instanceof BlockedUrlError) return new UpstreamError('address_refused', `${what} is at an address Hearth does not reach (a home-network or reserved address).`);
  return new UpstreamError('upstream_failed', `${what} could not be reached. Check the address, or try again in a little while.`);
}

export class PodcastsService {
  constructor(private readonly deps: PodcastsDeps) {}

  /** Offline mode, as it is now (never kept: an admin may switch it). */
  get offline(): boolean {
    return this.deps.guard.offline;
  }

  private async request(url: string, accept: string): Promise<Fetched> {
    let res;
    try {
      res = await guardedRequest(this.deps.guard, url, { headers: { 'user-agent': USER_AGENT, accept }, headersTimeoutMs: this.deps.timeoutMs, bodyTimeoutMs: this.deps.timeoutMs });
    } catch (err) {
      throw unreachable('The podcast source', err);
    }
    if (res.statusCode !== 200) {
      res.body.resume();
      throw new UpstreamError('upstream_failed', `The podcast source answered ${res.statusCode}.`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const c of res.body) {
        size += (c as Buffer).length;
        if (size > MAX_FEED_BYTES) throw new Error('too large');
        chunks.push(c as Buffer);
      }
    } catch {
      res.body.destroy();
      throw new UpstreamError('upstream_failed', size > MAX_FEED_BYTES ? `The podcast directory sent more than ${Math.round(MAX_FEED_BYTES / 1024 / 1024)} MB, more than Hearth reads.` : 'The podcast source stopped sending part-way. Try again in a little while.');
    }
    return { status: res.statusCode, body: Buffer.concat(chunks) };
  }

  private feedSpec(url: string): SourceSpec<PodcastFeed> {
    return { key: feedKey(url), source: FEED_SOURCE, url, ttlMs: FEED_TTL_MS, accept: FEED_ACCEPT, parse: (body) => parsePodcastFeed(body) };
  }

  /**
   * Searches Podcast Index when an admin added the household's key, else Apple's directory (iTunes
   * Search). Podcast Index refusing the key, asking Hearth to slow down, or not answering falls back
   * to Apple for that search, with a notice saying so; both failing is a 503 sentence.
   */
  async search(actor: Actor, q: string): Promise<PodcastSearch> {
    member(actor);
    if (this.deps.guard.offline) throw offlineRefusal('podcast search is off (it asks a podcast directory on the internet)', this.deps.guard.offlineSource.reason);
    const pair = await this.deps.index.pair();
    let notice: string | null = null;
    if (pair) {
      try {
        return { source: 'podcastindex', notice: null, results: await this.deps.index.search(pair, q) };
      } catch (err) {
        if (err instanceof OfflineModeError) throw offlineRefusal('podcast search is off (it asks a podcast directory on the internet)', err.reason);
        const kind = err instanceof PodcastIndexError ? err.kind : 'unavailable';
        this.deps.logger.warn({ source: 'podcastindex', failure: kind }, 'podcast search fell back to Apple’s directory');
        notice = kind === 'refused' ? PODCAST_INDEX_REFUSED : kind === 'busy' ? 'Podcast Index asked Hearth to slow down, so these results are from Apple’s podcast directory.' : 'Podcast Index did not answer just now, so these results are from Apple’s podcast directory.';
      }
    }
    try {
      return { source: 'itunes', notice, results: await this.searchItunes(q) };
    } catch (err) {
      if (notice === null || (err instanceof AppError && err.code === 'offline_mode')) throw err;
      const key = notice === PODCAST_INDEX_REFUSED ? ' Podcast Index refused the household’s key: an admin can check the key and secret on the Listen page.' : '';
      throw new ServiceUnavailableError('source_unavailable', `Neither Podcast Index nor Apple’s podcast directory answered just now, so nothing could be searched. Try again in a little while.${key}`);
    }
  }

  private async searchItunes(q: string): Promise<DirectoryResult[]> {
    const url = new URL('/search', this.deps.itunesUrl);
    url.search = new URLSearchParams({ media: 'podcast', entity: 'podcast', term: q, limit: '25' }).toString();
    let body: { results?: Record<string, unknown>[] };
    try {
      body = JSON.parse((await this.request(url.href, 'application/json')).body.toString('utf8')) as typeof body;
    } catch (err) {
      // a refusal (offline mode: 503) or an upstream failure is said as it is; only unreadable JSON is this
      if (err instanceof AppError) throw err;
      throw new UpstreamError('upstream_failed', 'The podcast directory answered something that is not a search result.');
    }
    const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
    return (Array.isArray(body.results) ? body.results : []).map((r) => {
      const feedUrl = str(r.feedUrl);
      const itunesId = typeof r.collectionId === 'number' && Number.isInteger(r.collectionId) && r.collectionId > 0 ? r.collectionId : null;
      return { title: str(r.collectionName) ?? str(r.trackName) ?? 'Untitled show', author: str(r.artistName), imageUrl: str(r.artworkUrl600) ?? str(r.artworkUrl100), feedUrl, itunesId, subscribable: feedUrl !== null };
    });
  }

  // ---- the admin's Podcast Index key ---------------------------------------------------------

  async podcastIndexStatus(actor: Actor) {
    assertAdmin(actor);
    return this.deps.index.status();
  }

  /** Saves the pair once Podcast Index accepts it (one cheap signed search); a refused pair is not saved. */
  async setPodcastIndex(actor: Actor, pair: PodcastIndexPair) {
    assertAdmin(actor);
    if (this.deps.guard.offline) throw offlineRefusal('the Podcast Index key cannot be checked now, so it was not saved', this.deps.guard.offlineSource.reason);
    try {
      await this.deps.index.search(pair, 'podcast', 1);
    } catch (err) {
      if (err instanceof OfflineModeError) throw offlineRefusal('the Podcast Index key cannot be checked now, so it was not saved', err.reason);
      const kind = err instanceof PodcastIndexError ? err.kind : 'unavailable';
      if (kind === 'refused') throw new UnprocessableError('podcast_index_refused', 'Podcast Index refused that key and secret, so they were not saved. Copy both again from your Podcast Index account (the secret is shown only once, when the key is made).');
      throw new ServiceUnavailableError('source_unavailable', kind === 'busy' ? 'Podcast Index asked Hearth to slow down while checking the key, so it was not saved. Try again in a minute.' : 'Podcast Index could not be reached to check the key, so it was not saved. Try again in a little while.');
    }
    await this.deps.index.save(pair);
    return this.deps.index.status();
  }

  async clearPodcastIndex(actor: Actor): Promise<void> {
    assertAdmin(actor);
    await this.deps.index.clear();
  }

  private parse(body: Buffer): PodcastFeed {
    try {
      return parsePodcastFeed(body);
    } catch {
      throw new BadRequestError('That address is not a podcast feed.', undefined, 'not_a_feed');
    }
  }

  async subscribe(actor: Actor, feedUrl: string): Promise<Subscription> {
    const me = member(actor);
    if (await this.deps.store.byFeed(me.id, feedUrl)) throw new ConflictError('already_subscribed', 'You already follow this show.');
    if (this.deps.guard.offline) throw offlineRefusal('it cannot read a new show’s feed', this.deps.guard.offlineSource.reason);
    let doc;
    try {
      doc = await this.deps.feeds.fetchOnce(feedUrl, FEED_ACCEPT);
    } catch (err) {
      throw feedFailure(err);
    }
    const feed = this.parse(doc.body);
    // a feed that has moved (301/308 or itunes:new-feed-url) is followed at its new address
    const at = feed.newFeedUrl ?? (doc.permanentRedirect === true ? doc.url : feedUrl);
    if (at !== feedUrl && (await this.deps.store.byFeed(me.id, at))) throw new ConflictError('already_subscribed', 'You already follow this show.');
    const s: Subscription = { id: randomUUID(), feedUrl: at, title: feed.title, imageUrl: feed.imageUrl, subscribedAt: this.deps.clock.now().toISOString(), stoppedAt: null, keepNewest: null, pollError: null };
    await this.deps.store.insertSubscription(me.id, s, feed.items, randomUUID);
    // the first poll is this fetch: its validators are sent back next time (only for the address they came from)
    await this.deps.feeds.remember(this.feedSpec(at), at === doc.url ? doc : { ...doc, etag: null, lastModified: null }, feed);
    return { ...s, imageUrl: s.imageUrl ? coverPath(s.id) : null };
  }

  /**
   * Follows a show by its number in Apple's podcast directory: the directory's lookup gives the feed
   * address (through the guard, like search), then it is followed as by its address.
   */
  async subscribeByItunesId(actor: Actor, itunesId: number): Promise<Subscription> {
    member(actor);
    if (this.deps.guard.offline) throw offlineRefusal('it cannot look the show up in Apple’s podcast directory', this.deps.guard.offlineSource.reason);
    const url = new URL('/lookup', this.deps.itunesUrl);
    url.search = new URLSearchParams({ id: String(itunesId), entity: 'podcast' }).toString();
    let body: { results?: Record<string, unknown>[] };
    try {
      body = JSON.parse((await this.request(url.href, 'application/json')).body.toString('utf8')) as typeof body;
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new UpstreamError('upstream_failed', 'Apple’s podcast directory answered something that is not a show.');
    }
    const show = (Array.isArray(body.results) ? body.results : []).find((r) => r.collectionId === itunesId);
    if (!show) throw new NotFoundError('Apple’s podcast directory has no show with that number.');
    const feedUrl = typeof show.feedUrl === 'string' ? show.feedUrl : '';
    if (!/^https?:\/\//.test(feedUrl)) throw new UnprocessableError('no_feed', 'Apple’s podcast directory gives no feed address for this show, so Hearth cannot follow it.');
    return this.subscribe(actor, feedUrl);
  }

  /** A followed show's cover, fetched once by Hearth (no browser asks the podcast's image host). */
  async cover(actor: Actor, id: string): Promise<{ type: string; body: Buffer }> {
    const me = member(actor);
    const source = await this.deps.store.coverSourceOf(me.id, id);
    if (source === undefined) throw new NotFoundError('No such subscription.');
    if (source === null) throw new NotFoundError('This show has no cover.');
    const spec = { key: `cover:${source}`, source: 'podcast-cover', url: source, ttlMs: COVER_TTL_MS, accept: 'image/jpeg,image/png,image/webp', parse: (b: Buffer): CachedImage => parseCachedImage(b, MAX_COVER_BYTES, 'a cover') };
    const unavailable = this.deps.covers.offline ? 'Hearth is in offline mode, and this show’s cover was not fetched before.' : 'This show’s cover could not be fetched just now.';
    const { payload } = await this.deps.covers.read(spec, unavailable);
    return { type: payload.type, body: Buffer.from(payload.data, 'base64') };
  }

  /** Reads the show's feed again now (a backoff after failures is skipped; a host's Retry-After is not) and keeps its new episodes. */
  async refresh(actor: Actor, id: string): Promise<Episode[]> {
    const me = member(actor);
    const s = await this.deps.store.subscription(me.id, id);
    if (!s) throw new NotFoundError('No such subscription.');
    if (!s.stoppedAt) {
      if (this.deps.guard.offline) throw offlineRefusal('it cannot check the show’s feed for new episodes', this.deps.guard.offlineSource.reason);
      const outcome = await this.deps.feeds.refresh(this.feedSpec(s.feedUrl), { force: true });
      if (outcome.kind === 'skipped') throw new ServiceUnavailableError('feed_asked_to_wait', 'The show’s feed asked Hearth to wait before asking again. Hearth checks it by itself once the wait is over.');
      if (outcome.kind === 'failed') throw new UpstreamError('upstream_failed', `The podcast feed could not be read. ${outcome.error}`);
      await this.apply(s, outcome);
      if (s.keepNewest !== null) await this.deps.copies.applyKeep(s.id, s.keepNewest);
    }
    return this.episodes(me, s.id);
  }

  /**
   * One poll's outcome applied to a show: a 304 keeps everything, a 410 stops the subscription, a
   * permanent redirect (301/308) or itunes:new-feed-url moves it to the new address, new episodes
   * are kept. Skipped (backoff, offline) and failed polls change nothing here: the fetcher keeps
   * the failure (the show is marked failing after several).
   */
  private async apply(s: Subscription, outcome: FetchOutcome): Promise<void> {
    const at = this.deps.clock.now().toISOString();
    if (outcome.kind === 'not_modified') return this.deps.store.polled(s.id, { at });
    if (outcome.kind === 'gone') return this.deps.store.polled(s.id, { at, stopped: true });
    if (outcome.kind !== 'fetched') return;
    const feed = outcome.entry.payload as PodcastFeed;
    await this.deps.store.addItems(s.id, feed.items, randomUUID);
    const to = feed.newFeedUrl ?? (outcome.permanentRedirect ? outcome.finalUrl : undefined);
    // moved onto an address the member already follows the show at: that one carries on, with the
    // progress made here, and this copy goes
    const there = to && to !== s.feedUrl ? await this.deps.store.byFeedOf(s.id, to) : null;
    if (there) return this.deps.store.mergeInto(s.id, there);
    await this.deps.store.polled(s.id, { at, feedUrl: to && to !== s.feedUrl ? to : undefined });
  }

  /**
   * The hourly task: each followed feed asked once (however many members follow it), unless its host
   * asked to wait or it is backing off after failures; one failing feed does not stop the others.
   * Then every show's keep-newest rule runs, and copies nobody asks for go. Nothing in offline mode.
   * Answers how many feeds failed.
   */
  async pollAll(): Promise<number> {
    if (this.deps.guard.offline) return 0;
    let failed = 0;
    const byFeed = new Map<string, { userId: string; id: string }[]>();
    for (const p of await this.deps.store.pollable()) byFeed.set(p.feedUrl, [...(byFeed.get(p.feedUrl) ?? []), p]);
    for (const [url, subs] of byFeed) {
      const outcome = await this.deps.feeds.refresh(this.feedSpec(url));
      if (outcome.kind === 'failed') failed++;
      for (const { userId, id } of subs) {
        const s = await this.deps.store.subscription(userId, id);
        if (s) await this.apply(s, outcome);
      }
    }
    await this.deps.store.forgetUnfollowedFeeds();
    await this.deps.copies.applyAllKeeps();
    await this.deps.copies.sweep();
    return failed;
  }

  /** Keep offline copies of the newest N episodes of a show (null: keep every copy, fetch none by itself); applied at once. */
  async setKeepNewest(actor: Actor, id: string, keepNewest: number | null): Promise<Subscription> {
    const me = member(actor);
    if (!(await this.deps.store.setKeepNewest(me.id, id, keepNewest))) throw new NotFoundError('No such subscription.');
    if (keepNewest !== null) await this.deps.copies.applyKeep(id, keepNewest);
    return (await this.deps.store.subscription(me.id, id))!;
  }

  /** Follows every show an OPML file lists (each feed read, as when following one); what fails is counted, not fatal. */
  async importOpml(actor: Actor, body: Buffer): Promise<OpmlImportResponse> {
    const me = member(actor);
    if (this.deps.guard.offline) throw offlineRefusal('it cannot read the feeds an OPML file lists', this.deps.guard.offlineSource.reason);
    const parsed = readOpmlUpload(body);
    const out: OpmlImportResponse = { added: [], existing: 0, failed: parsed.skipped };
    for (const f of parsed.feeds) {
      if (await this.deps.store.byFeed(me.id, f.xmlUrl)) {
        out.existing++;
        continue;
      }
      try {
        out.added.push(await this.subscribe(me, f.xmlUrl));
      } catch (err) {
        if (err instanceof ConflictError) out.existing++;
        else out.failed++;
      }
    }
    return out;
  }

  /** The member's shows as an OPML 2.0 file. */
  async exportOpml(actor: Actor): Promise<string> {
    const subs = await this.list(actor);
    const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    const lines = subs.map((s) => `    <outline type="rss" text="${esc(s.title)}" title="${esc(s.title)}" xmlUrl="${esc(s.feedUrl)}"/>`);
    return `<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">\n  <head><title>Hearth podcasts</title></head>\n  <body>\n${lines.join('\n')}\n  </body>\n</opml>\n`;
  }

  list(actor: Actor): Promise<Subscription[]> {
    return this.deps.store.subscriptions(member(actor).id);
  }

  /** Unfollows; the show's offline copies go unless another member's episodes ask for them. */
  async unsubscribe(actor: Actor, id: string): Promise<void> {
    if (!(await this.deps.store.deleteSubscription(member(actor).id, id))) throw new NotFoundError('No such subscription.');
    await this.deps.copies.sweep();
  }

  async episodes(actor: Actor, subscriptionId: string): Promise<Episode[]> {
    const me = member(actor);
    const s = await this.deps.store.subscription(me.id, subscriptionId);
    if (!s) throw new NotFoundError('No such subscription.');
    return this.deps.copies.decorate(await this.deps.store.episodes(s.id));
  }

  async inbox(actor: Actor): Promise<Episode[]> {
    return this.deps.copies.decorate(await this.deps.store.inbox(member(actor).id));
  }

  /** One of the member's episodes as answered (after its copy was asked for or removed). */
  async episode(actor: Actor, id: string): Promise<Episode> {
    const found = await this.deps.store.episodeOf(member(actor).id, id);
    if (!found) throw new NotFoundError('No such episode.');
    const { progressAt: _ignored, ...episode } = found;
    return (await this.deps.copies.decorate([episode]))[0]!;
  }

  /**
   * The episode's audio: the member's offline copy when there is one (a file, Range answered by the
   * route), else fetched from its enclosure through the SSRF guard (an analytics redirect followed,
   * each hop checked) with the player's Range passed on: the host's 200 or 206 and its length/range
   * headers come back; anything else is a 502 sentence. The enclosure's address is never answered.
   */
  async audio(actor: Actor, id: string, range: string | undefined, signal: AbortSignal): Promise<EpisodeAudio> {
    const me = member(actor);
    const url = await this.deps.store.audioUrlOf(me.id, id);
    if (!url) throw new NotFoundError('No such episode.');
    const file = await this.deps.copies.fileOf(me.id, id);
    if (file) return { kind: 'file', ...file };
    if (this.deps.guard.offline) throw offlineRefusal('only downloaded episodes play, and this one was not downloaded', this.deps.guard.offlineSource.reason);
    const headers: Record<string, string> = { 'user-agent': USER_AGENT };
    if (range && /^bytes=\d*-\d*$/.test(range)) headers.range = range;
    let res;
    try {
      res = await guardedRequest(this.deps.guard, url, { headers, signal, headersTimeoutMs: this.deps.timeoutMs, bodyTimeoutMs: 5 * 60_000 });
    } catch (err) {
      throw unreachable('The episode’s audio', err);
    }
    if (res.statusCode !== 200 && res.statusCode !== 206 && res.statusCode !== 416) {
      res.body.resume();
      throw new UpstreamError('upstream_failed', `The episode's audio host answered ${res.statusCode}.`);
    }
    const pass: Record<string, string> = {};
    for (const h of ['content-type', 'content-length', 'content-range', 'accept-ranges']) {
      const v = res.headers[h];
      if (typeof v === 'string') pass[h] = v;
    }
    if (!pass['content-type']?.startsWith('audio/')) pass['content-type'] = 'audio/mpeg';
    return { kind: 'stream', status: res.statusCode, headers: pass, body: res.body };
  }

  /** Saves where the member is; an older report (by updatedAt) than the one kept changes nothing. */
  async progress(actor: Actor, id: string, body: ProgressBody): Promise<Episode> {
    const me = member(actor);
    const found = await this.deps.store.episodeOf(me.id, id);
    if (!found) throw new NotFoundError('No such episode.');
    if (body.positionSec > body.durationSec && body.durationSec > 0) throw new BadRequestError('The position is past the end of the episode.');
    const at = new Date(body.updatedAt).toISOString();
    if (found.progressAt === null || at > found.progressAt) {
      const finished = body.durationSec > 0 && body.durationSec - body.positionSec <= FINISHED_REMAINING_SEC;
      await this.deps.store.saveProgress(id, body.positionSec, body.durationSec > 0 ? Math.round(body.durationSec) : null, finished, at);
    }
    return this.episode(me, id);
  }
}
