// The household's news (reference/briefing.md §1): the admin subscribes to feeds (a feed's address,
// or a site whose <link rel=alternate> names one; or an OPML file), each polled by the one
// SourceFetcher at most hourly with jitter (validators, Retry-After, at most 3 requests per host); a
// 410 stops a feed, a 301 moves it. Members read the items of the feeds they did not hide, newest
// first, deduplicated by guid or URL within a feed.
import { assertAdmin, type Actor, type UserActor } from '../../actor.js';
import { BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import { Semaphore } from '../../platform/semaphore.js';
import { discoverFeeds, decodeBody, httpUrl, NotAFeedError, readOpmlUpload, type ParsedFeed } from './feed-parse.js';
import type { FeedTasks } from './feed-tasks.js';
import { FetchFailure, type FetchOutcome, type SourceSpec, type SourceFetcher } from '../../platform/outside-sources/fetcher.js';
import type { FeedRow, NewsStore } from './news-store.js';
import type { NewsFeed, NewsQuery, NewsResponse, OpmlImportResponse, RefreshResponse } from './schema.js';

export const NEWS_POLL_MS = 60 * 60_000;
const NEWS_JITTER_MS = 10 * 60_000;
/** Feeds fetched at once during a full refresh (each host still at most 3). */
const POLL_CONCURRENCY = 6;
const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, text/html;q=0.5, */*;q=0.1';

export interface NewsDeps {
  store: NewsStore;
  fetcher: SourceFetcher;
  /** Feeds are parsed in the parse worker, off the event loop. */
  feeds: FeedTasks;
  clock: Clock;
  logger: Logger;
  /** 0..1, for the poll jitter (tests pass a fixed one). */
  random?: () => number;
}

export class NewsService {
  private readonly polls = new Semaphore(POLL_CONCURRENCY);

  constructor(private readonly deps: NewsDeps) {}

  private spec(feed: Pick<FeedRow, 'id' | 'url'>): SourceSpec<{ title: string; items: number }> {
    const jitter = Math.floor((this.deps.random ?? Math.random)() * NEWS_JITTER_MS);
    return { key: `news:${feed.id}`, source: 'news', url: feed.url, ttlMs: NEWS_POLL_MS + jitter, accept: FEED_ACCEPT, parse: async (body, type) => summarize(await this.deps.feeds.parse(body, type)) };
  }

  private async describe(feed: FeedRow): Promise<NewsFeed> {
    const entry = await this.deps.fetcher.entry(`news:${feed.id}`);
    return {
      ...feed,
      lastFetch: entry?.fetchedAt ?? null,
      lastError: entry?.lastError ?? null,
      nextPoll: feed.state === 'gone' ? null : (entry?.nextTryAt ?? entry?.expiresAt ?? null),
    };
  }

  async listFeeds(actor: Actor): Promise<NewsFeed[]> {
    assertAdmin(actor);
    return Promise.all((await this.deps.store.listFeeds()).map((f) => this.describe(f)));
  }

  /** Whether the household follows any feed still answering (chat's news tool is offered only then). */
  async hasFeeds(): Promise<boolean> {
    return (await this.deps.store.listFeeds()).some((f) => f.state !== 'gone');
  }

  private async feedOr404(id: number): Promise<FeedRow> {
    const feed = await this.deps.store.getFeed(id);
    if (!feed) throw new NotFoundError('That feed does not exist.');
    return feed;
  }

  /** Subscribes the household to a feed: fetched now (a site's page leads to its feed), its items kept. */
  async addFeed(actor: Actor, raw: string): Promise<NewsFeed> {
    assertAdmin(actor);
    const url = httpUrl(raw);
    if (!url) throw new BadRequestError('The address starts with http:// or https://.');
    if (await this.deps.store.findByUrl(url)) throw new ConflictError('feed_exists', 'The household already follows that feed.');
    const fetched = await this.fetchFeed(url);
    const feedUrl = fetched.doc.url;
    const existing = await this.deps.store.findByUrl(feedUrl);
    if (existing) throw new ConflictError('feed_exists', 'The household already follows that feed.');
    const now = this.deps.clock.now().toISOString();
    const id = await this.deps.store.insertFeed({ url: feedUrl, title: fetched.feed.title || new URL(feedUrl).host, siteUrl: fetched.feed.siteUrl, category: null, createdAt: now });
    await this.deps.store.saveItems(id, fetched.feed.items, now);
    await this.deps.fetcher.remember(this.spec({ id, url: feedUrl }), fetched.doc, summarize(fetched.feed));
    return this.describe((await this.deps.store.getFeed(id))!);
  }

  private async fetchFeed(url: string) {
    const get = async (u: string) => {
      try {
        return await this.deps.fetcher.fetchOnce(u, FEED_ACCEPT);
      } catch (err) {
        const why = err instanceof FetchFailure ? err.message : 'The address could not be reached.';
        throw new ServiceUnavailableError('source_unavailable', `That address could not be fetched: ${why}`);
      }
    };
    const doc = await get(url);
    try {
      return { doc, feed: await this.deps.feeds.parse(doc.body, doc.contentType) };
    } catch (err) {
      if (!(err instanceof NotAFeedError)) throw err;
    }
    // a site's page: follow the first feed it names
    const [link] = discoverFeeds(decodeBody(doc.body, doc.contentType), doc.url);
    if (link) {
      const feedDoc = await get(link);
      try {
        return { doc: feedDoc, feed: await this.deps.feeds.parse(feedDoc.body, feedDoc.contentType) };
      } catch (err) {
        if (!(err instanceof NotAFeedError)) throw err;
      }
    }
    throw new UnprocessableError('not_a_feed', 'That address is not a news feed (RSS, Atom or JSON Feed), and its page names none.');
  }

  /** OPML import: each http(s) feed not yet followed is added (polled soon by the news task); others are counted. */
  async importOpml(actor: Actor, body: Buffer): Promise<OpmlImportResponse> {
    assertAdmin(actor);
    const parsed = readOpmlUpload(body);
    const added: NewsFeed[] = [];
    let existing = 0;
    const now = this.deps.clock.now().toISOString();
    for (const f of parsed.feeds) {
      if (await this.deps.store.findByUrl(f.xmlUrl)) {
        existing++;
        continue;
      }
      const id = await this.deps.store.insertFeed({ url: f.xmlUrl, title: f.title || new URL(f.xmlUrl).host, siteUrl: null, category: f.category, createdAt: now });
      added.push(await this.describe((await this.deps.store.getFeed(id))!));
    }
    return { added, existing, skipped: parsed.skipped };
  }

  async removeFeed(actor: Actor, id: number): Promise<void> {
    assertAdmin(actor);
    await this.feedOr404(id);
    await this.deps.store.deleteFeed(id);
    await this.deps.fetcher.forget(`news:${id}`);
  }

  /** The admin's "poll now": still inside a Retry-After window it waits. */
  async refreshFeed(actor: Actor, id: number): Promise<NewsFeed> {
    assertAdmin(actor);
    const feed = await this.feedOr404(id);
    await this.poll(feed, true);
    return this.describe((await this.deps.store.getFeed(id))!);
  }

  /** One poll of one feed, and what it means for the feed: items saved, a 301 followed, a 410 stopping it. */
  async poll(feed: FeedRow, force = false): Promise<FetchOutcome> {
    const spec = this.spec(feed);
    let items: ParsedFeed | null = null;
    const outcome = await this.deps.fetcher.refresh({
      ...spec,
      parse: async (body, type) => {
        items = await this.deps.feeds.parse(body, type);
        return summarize(items);
      },
    }, { force });
    if (outcome.kind === 'fetched' && items) {
      const parsed: ParsedFeed = items;
      await this.deps.store.saveItems(feed.id, parsed.items, this.deps.clock.now().toISOString());
      const patch: { url?: string; title?: string } = {};
      if (outcome.permanentRedirect && outcome.finalUrl !== feed.url && !(await this.deps.store.findByUrl(outcome.finalUrl))) {
        patch.url = outcome.finalUrl;
        await this.deps.fetcher.forget(spec.key);
        await this.deps.fetcher.remember({ ...spec, url: outcome.finalUrl }, { url: outcome.finalUrl, body: Buffer.alloc(0), contentType: '', etag: outcome.entry.etag, lastModified: outcome.entry.lastModified }, outcome.entry.payload as { title: string; items: number });
      }
      if (parsed.title && parsed.title !== feed.title && feed.title === new URL(feed.url).host) patch.title = parsed.title;
      await this.deps.store.updateFeed(feed.id, patch);
    }
    if (outcome.kind === 'gone') await this.deps.store.updateFeed(feed.id, { state: 'gone' });
    return outcome;
  }

  /** The news task: every active feed whose copy has expired (and is not backing off) is polled. */
  async pollDue(): Promise<number> {
    const now = this.deps.clock.now().getTime();
    const feeds = (await this.deps.store.listFeeds()).filter((f) => f.state === 'active');
    let polled = 0;
    await Promise.all(
      feeds.map(async (f) => {
        const entry = await this.deps.fetcher.entry(`news:${f.id}`);
        const due = !entry || ((entry.expiresAt === null || Date.parse(entry.expiresAt) <= now) && (entry.nextTryAt === null || Date.parse(entry.nextTryAt) <= now));
        if (!due) return;
        polled++;
        await this.polls.run(() => this.poll(f));
      }),
    );
    return polled;
  }

  /** The admin's "refresh news now": every active feed, each still honouring its Retry-After. */
  async refreshAll(actor: Actor): Promise<RefreshResponse> {
    assertAdmin(actor);
    const feeds = (await this.deps.store.listFeeds()).filter((f) => f.state === 'active');
    const outcomes = await Promise.all(feeds.map((f) => this.polls.run(() => this.poll(f, true))));
    const failed = outcomes.filter((o) => o.kind === 'failed');
    return { source: 'news', outcome: feeds.length === 0 ? 'nothing_to_do' : failed.length ? 'failed' : 'fetched', lastError: failed.length ? `${failed.length} of ${feeds.length} feeds could not be fetched.` : null };
  }

  async list(actor: UserActor, q: NewsQuery): Promise<NewsResponse> {
    const [items, feeds, hidden] = await Promise.all([
      this.deps.store.listItems({ userId: actor.id, limit: q.limit, feedId: q.feedId, before: q.before }),
      this.deps.store.listFeeds({ counts: false }),
      this.deps.store.hiddenFeedIds(actor.id),
    ]);
    const byKey = new Map((await this.deps.fetcher.entriesOf('news')).map((e) => [e.key, e]));
    const entries = feeds.map((f) => byKey.get(`news:${f.id}`) ?? null);
    const now = this.deps.clock.now().getTime();
    const visible = feeds.map((f, i) => ({ f, e: entries[i] ?? null })).filter(({ f }) => !hidden.has(f.id));
    const fetched = visible.map(({ e }) => e?.fetchedAt).filter((t): t is string => !!t).sort();
    const staleOf = (e: (typeof entries)[number]) => !e || e.failCount > 0 || e.expiresAt === null || Date.parse(e.expiresAt) <= now;
    const newest = fetched.at(-1) ?? null;
    return {
      items,
      feeds: feeds.map((f, i) => ({ id: f.id, title: f.title, hidden: hidden.has(f.id), stale: f.state === 'gone' || staleOf(entries[i] ?? null) })),
      source: 'news',
      fetchedAt: newest,
      ageSeconds: newest ? Math.max(0, Math.floor((now - Date.parse(newest)) / 1000)) : null,
      stale: visible.some(({ f, e }) => f.state === 'active' && staleOf(e)),
    };
  }

  close(): Promise<void> {
    return this.deps.feeds.close();
  }

  async setHidden(actor: UserActor, feedId: number, hidden: boolean): Promise<{ feedId: number; hidden: boolean }> {
    await this.feedOr404(feedId);
    await this.deps.store.setHidden(actor.id, feedId, hidden);
    return { feedId, hidden };
  }
}

function summarize(feed: ParsedFeed): { title: string; items: number } {
  return { title: feed.title, items: feed.items.length };
}
