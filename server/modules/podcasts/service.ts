// The podcasts rules: iTunes search, each member's private subscriptions, their episodes, the inbox
// and listening progress. Every outside request goes through the one SSRF guard.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { type Actor, type UserActor } from '../../actor.js';
import { AppError, BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError, UnauthorizedError, UpstreamError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { BlockedUrlError, guardedRequest, OfflineModeError, type SsrfGuard } from '../../platform/ssrf.js';
import { type CachedImage, parseCachedImage } from '../../platform/outside-sources/image.js';
import type { SourceFetcher } from '../../platform/outside-sources/fetcher.js';
import { parsePodcastFeed, type PodcastFeed } from './podcast-feed.js';
import { decodeBody, parseOpml } from '../today/public.js';
import { FINISHED_REMAINING_SEC, type OpmlImportResponse, type Episode, type ProgressBody, type Subscription } from './schema.js';
import { coverPath, type PodcastsStore, type Validators } from './store.js';

export interface AudioStream {
  status: number;
  headers: Record<string, string>;
  body: Readable;
}

interface Fetched {
  status: number;
  finalUrl: string;
  /** Every redirect followed was permanent (301/308): the feed has a new address. */
  moved: boolean;
  validators: Validators;
  body: Buffer;
}
const FEED_ACCEPT = 'application/rss+xml, application/xml;q=0.9, */*;q=0.5';

export const USER_AGENT = 'Hearth/0.1 (self-hosted household server; podcasts)';
/** A show's cover is kept this long, and may be this large. */
const COVER_TTL_MS = 30 * 24 * 60 * 60_000;
const MAX_COVER_BYTES = 1024 * 1024;
const MAX_FEED_BYTES = 10 * 1024 * 1024;

export interface PodcastsDeps {
  store: PodcastsStore;
  guard: SsrfGuard;
  clock: Clock;
  itunesUrl: string;
  timeoutMs: number;
  /** Covers, fetched once and kept (the shared outside-source fetcher over podcasts_cache). */
  covers: SourceFetcher;
}

function member(actor: Actor): UserActor {
  if (actor.kind !== 'user') throw new UnauthorizedError('Sign in to use podcasts.');
  return actor;
}

/** A fetch that did not get an answer, said without the underlying error's words (addresses, hosts). */
function unreachable(what: string, err: unknown): AppError {
  if (err instanceof OfflineModeError) return new ServiceUnavailableError('offline_mode', `${what} cannot be fetched now. ${err.message}`);
  if (err instanceof BlockedUrlError) return new UpstreamError('address_refused', `${what} is at an address Hearth does not reach (a home-network or reserved address).`);
  return new UpstreamError('upstream_failed', `${what} could not be reached. Check the address, or try again in a little while.`);
}

export class PodcastsService {
  constructor(private readonly deps: PodcastsDeps) {}

  private async request(url: string, accept: string, validators: Validators = { etag: null, lastModified: null }): Promise<Fetched> {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept };
    if (validators.etag) headers['if-none-match'] = validators.etag;
    if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
    let res;
    try {
      res = await guardedRequest(this.deps.guard, url, { headers, headersTimeoutMs: this.deps.timeoutMs, bodyTimeoutMs: this.deps.timeoutMs });
    } catch (err) {
      throw unreachable('The podcast source', err);
    }
    const header = (name: string) => (typeof res.headers[name] === 'string' ? (res.headers[name] as string) : null);
    const moved = res.redirectStatuses.length > 0 && res.redirectStatuses.every((s) => s === 301 || s === 308);
    const base = { status: res.statusCode, finalUrl: res.url, moved, validators: { etag: header('etag'), lastModified: header('last-modified') } };
    if (res.statusCode !== 200) {
      res.body.resume();
      return { ...base, body: Buffer.alloc(0) };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const c of res.body) {
        size += (c as Buffer).length;
        if (size > MAX_FEED_BYTES) throw new Error('too large');
        chunks.push(c as Buffer);
      }
    } catch (err) {
      res.body.destroy();
      throw new UpstreamError('upstream_failed', size > MAX_FEED_BYTES ? `The podcast feed is larger than ${Math.round(MAX_FEED_BYTES / 1024 / 1024)} MB, more than Hearth reads.` : 'The podcast source stopped sending its feed part-way. Try again in a little while.');
    }
    return { ...base, body: Buffer.concat(chunks) };
  }

  private async get(url: string, accept: string): Promise<Fetched> {
    const res = await this.request(url, accept);
    if (res.status !== 200) throw new UpstreamError('upstream_failed', `The podcast source answered ${res.status}.`);
    return res;
  }

  async search(actor: Actor, q: string) {
    member(actor);
    const url = new URL('/search', this.deps.itunesUrl);
    url.search = new URLSearchParams({ media: 'podcast', entity: 'podcast', term: q, limit: '25' }).toString();
    let body: { results?: Record<string, unknown>[] };
    try {
      body = JSON.parse((await this.get(url.href, 'application/json')).body.toString('utf8')) as typeof body;
    } catch (err) {
      // a refusal (offline mode: 503) or an upstream failure is said as it is; only unreadable JSON is this
      if (err instanceof AppError) throw err;
      throw new UpstreamError('upstream_failed', 'The podcast directory answered something that is not a search result.');
    }
    const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
    return {
      results: (Array.isArray(body.results) ? body.results : []).map((r) => {
        const feedUrl = str(r.feedUrl);
        return { title: str(r.collectionName) ?? str(r.trackName) ?? 'Untitled show', author: str(r.artistName), imageUrl: str(r.artworkUrl600) ?? str(r.artworkUrl100), feedUrl, subscribable: feedUrl !== null };
      }),
    };
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
    const res = await this.get(feedUrl, FEED_ACCEPT);
    const feed = this.parse(res.body);
    // a feed that has moved (301/308 or itunes:new-feed-url) is followed at its new address
    const at = feed.newFeedUrl ?? (res.moved ? res.finalUrl : feedUrl);
    if (at !== feedUrl && (await this.deps.store.byFeed(me.id, at))) throw new ConflictError('already_subscribed', 'You already follow this show.');
    const s: Subscription = { id: randomUUID(), feedUrl: at, title: feed.title, imageUrl: feed.imageUrl, subscribedAt: this.deps.clock.now().toISOString(), stoppedAt: null };
    await this.deps.store.insertSubscription(me.id, s, res.validators, feed.items, randomUUID);
    return { ...s, imageUrl: s.imageUrl ? coverPath(s.id) : null };
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

  /** Reads the show's feed again now and keeps its new episodes. */
  async refresh(actor: Actor, id: string): Promise<Episode[]> {
    const me = member(actor);
    const s = await this.deps.store.subscription(me.id, id);
    if (!s) throw new NotFoundError('No such subscription.');
    await this.poll(s);
    return this.deps.store.episodes(s.id);
  }

  /**
   * One poll of a show's feed: its validators sent back (a 304 keeps everything), a 410 stops the
   * subscription, a permanent redirect (301/308) or itunes:new-feed-url moves it to the new
   * address, new episodes kept. A stopped subscription is not asked again.
   */
  private async poll(s: Subscription): Promise<void> {
    if (s.stoppedAt) return;
    const at = this.deps.clock.now().toISOString();
    const res = await this.request(s.feedUrl, FEED_ACCEPT, await this.deps.store.validators(s.id));
    if (res.status === 304) return this.deps.store.polled(s.id, { at });
    if (res.status === 410) return this.deps.store.polled(s.id, { at, stopped: true });
    if (res.status !== 200) throw new UpstreamError('upstream_failed', `The podcast source answered ${res.status}.`);
    const feed = this.parse(res.body);
    await this.deps.store.addItems(s.id, feed.items, randomUUID);
    const to = feed.newFeedUrl ?? (res.moved ? res.finalUrl : undefined);
    // moved onto an address the member already follows the show at: that one carries on, with the
    // progress made here, and this copy goes
    const there = to && to !== s.feedUrl ? await this.deps.store.byFeedOf(s.id, to) : null;
    if (there) return this.deps.store.mergeInto(s.id, there);
    await this.deps.store.polled(s.id, { at, validators: res.validators, feedUrl: to && to !== s.feedUrl ? to : undefined });
  }

  /** The hourly task: every followed show polled once; one failing feed does not stop the others. */
  async pollAll(): Promise<number> {
    let failed = 0;
    for (const { userId, id } of await this.deps.store.pollable()) {
      const s = await this.deps.store.subscription(userId, id);
      if (!s) continue;
      try {
        await this.poll(s);
      } catch {
        failed++;
      }
    }
    return failed;
  }

  /** Follows every show an OPML file lists (each feed read, as when following one); what fails is counted, not fatal. */
  async importOpml(actor: Actor, body: Buffer): Promise<OpmlImportResponse> {
    const me = member(actor);
    let parsed: ReturnType<typeof parseOpml>;
    try {
      parsed = parseOpml(decodeBody(body, ''));
    } catch {
      throw new BadRequestError('That is not an OPML file (an XML list of feeds).');
    }
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

  async unsubscribe(actor: Actor, id: string): Promise<void> {
    if (!(await this.deps.store.deleteSubscription(member(actor).id, id))) throw new NotFoundError('No such subscription.');
  }

  async episodes(actor: Actor, subscriptionId: string): Promise<Episode[]> {
    const me = member(actor);
    const s = await this.deps.store.subscription(me.id, subscriptionId);
    if (!s) throw new NotFoundError('No such subscription.');
    return this.deps.store.episodes(s.id);
  }

  inbox(actor: Actor): Promise<Episode[]> {
    return this.deps.store.inbox(member(actor).id);
  }

  /**
   * The episode's audio, fetched from its enclosure through the SSRF guard (an analytics redirect
   * followed, each hop checked) with the player's Range passed on: the host's 200 or 206 and its
   * length/range headers come back; anything else is a 502 sentence. The enclosure's address is never answered.
   */
  async audio(actor: Actor, id: string, range: string | undefined, signal: AbortSignal): Promise<AudioStream> {
    const me = member(actor);
    const url = await this.deps.store.audioUrlOf(me.id, id);
    if (!url) throw new NotFoundError('No such episode.');
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
    return { status: res.statusCode, headers: pass, body: res.body };
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
    const { progressAt: _ignored, ...episode } = (await this.deps.store.episodeOf(me.id, id))!;
    return episode;
  }
}
