// news_feeds, news_items and news_hidden_feeds: the household's subscriptions, their items (one per
// guid or URL per feed; listed once across feeds) and the feeds each member hid.
import type { Knex } from 'knex';
import type { ParsedItem } from './feed-parse.js';
import type { NewsItem } from './schema.js';

export interface FeedRow {
  id: number;
  url: string;
  title: string;
  siteUrl: string | null;
  category: string | null;
  state: 'active' | 'gone';
  itemCount: number;
}

interface RawFeed {
  id: number;
  url: string;
  title: string;
  site_url: string | null;
  category: string | null;
  state: 'active' | 'gone';
  item_count?: number;
}

const toFeed = (r: RawFeed): FeedRow => ({ id: r.id, url: r.url, title: r.title, siteUrl: r.site_url, category: r.category, state: r.state, itemCount: Number(r.item_count ?? 0) });

/** Items kept per feed (the newest). */
export const KEEP_PER_FEED = 200;

export class NewsStore {
  constructor(private readonly db: Knex) {}

  private feeds() {
    return this.db('news_feeds as f').select('f.*', this.db.raw('(select count(*) from news_items i where i.feed_id = f.id) as item_count'));
  }

  /** Every feed; `counts: false` leaves itemCount 0 (the members' list does not show it). */
  async listFeeds(opts: { counts?: boolean } = {}): Promise<FeedRow[]> {
    const q = opts.counts === false ? this.db('news_feeds as f').select('f.*') : this.feeds();
    return ((await q.orderBy('f.title')) as RawFeed[]).map(toFeed);
  }

  async getFeed(id: number): Promise<FeedRow | null> {
    const row = (await this.feeds().where('f.id', id).first()) as RawFeed | undefined;
    return row ? toFeed(row) : null;
  }

  async findByUrl(url: string): Promise<FeedRow | null> {
    const row = (await this.feeds().where('f.url', url).first()) as RawFeed | undefined;
    return row ? toFeed(row) : null;
  }

  async insertFeed(f: { url: string; title: string; siteUrl: string | null; category: string | null; createdAt: string }): Promise<number> {
    const [row] = (await this.db('news_feeds').insert({ url: f.url, title: f.title, site_url: f.siteUrl, category: f.category, created_at: f.createdAt }).returning('id')) as Array<{ id: number }>;
    return row!.id;
  }

  async updateFeed(id: number, patch: { url?: string; title?: string; siteUrl?: string | null; state?: 'active' | 'gone' }): Promise<void> {
    const row: Record<string, unknown> = {};
    if (patch.url !== undefined) row.url = patch.url;
    if (patch.title !== undefined) row.title = patch.title;
    if (patch.siteUrl !== undefined) row.site_url = patch.siteUrl;
    if (patch.state !== undefined) row.state = patch.state;
    if (Object.keys(row).length) await this.db('news_feeds').where({ id }).update(row);
  }

  async deleteFeed(id: number): Promise<boolean> {
    return (await this.db('news_feeds').where({ id }).delete()) > 0;
  }

  /** Adds new items and updates known ones (same guid/URL); keeps the newest KEEP_PER_FEED. One transaction. */
  async saveItems(feedId: number, items: ParsedItem[], seenAt: string): Promise<void> {
    if (items.length === 0) return;
    await this.db.transaction(async (trx) => {
      // one statement per feed; a guid repeated within the feed keeps its last version
      const rows = new Map(items.map((it) => [it.key, { feed_id: feedId, key: it.key, title: it.title, url: it.url, summary: it.summary, published_at: it.publishedAt, image_url: it.imageUrl, sort_at: it.publishedAt ?? seenAt }]));
      await trx('news_items').insert([...rows.values()]).onConflict(['feed_id', 'key']).merge(['title', 'url', 'summary', 'published_at', 'image_url']);
      const keep = trx('news_items').select('id').where({ feed_id: feedId }).orderBy('sort_at', 'desc').limit(KEEP_PER_FEED);
      await trx('news_items').where({ feed_id: feedId }).whereNotIn('id', keep).delete();
    });
  }

  async listItems(q: { userId: string; limit: number; feedId?: number; before?: string }): Promise<NewsItem[]> {
    let query = this.db('news_items as i')
      .join('news_feeds as f', 'f.id', 'i.feed_id')
      .whereNotExists(this.db('news_hidden_feeds as h').where('h.user_id', q.userId).whereRaw('h.feed_id = i.feed_id'))
      .select('i.id', 'i.feed_id', 'f.title as feed_title', 'i.title', 'i.url', 'i.summary', 'i.published_at', 'i.image_url')
      .orderBy([{ column: 'i.sort_at', order: 'desc' }, { column: 'i.id', order: 'desc' }])
      .limit(q.limit);
    if (q.feedId !== undefined) query = query.where('i.feed_id', q.feedId);
    else {
      // across feeds, one copy of a story: an item is left out when a newer copy of it (same URL, or
      // same guid — the key is the guid's hash when there is one) is in a feed the member did not hide
      const db = this.db;
      query = query.whereNotExists(
        db('news_items as j')
          .whereRaw('j.id <> i.id')
          .whereRaw('(j.url = i.url or j.key = i.key)')
          .whereRaw('(j.sort_at > i.sort_at or (j.sort_at = i.sort_at and j.id > i.id))')
          .whereNotExists(db('news_hidden_feeds as h2').where('h2.user_id', q.userId).whereRaw('h2.feed_id = j.feed_id')),
      );
    }
    if (q.before !== undefined) query = query.where('i.sort_at', '<', new Date(q.before).toISOString());
    const rows = (await query) as Array<{ id: number; feed_id: number; feed_title: string; title: string; url: string | null; summary: string; published_at: string | null; image_url: string | null }>;
    return rows.map((r) => ({ id: String(r.id), feedId: r.feed_id, feedTitle: r.feed_title, title: r.title, url: r.url, summary: r.summary, publishedAt: r.published_at, imageUrl: r.image_url }));
  }

  async hiddenFeedIds(userId: string): Promise<Set<number>> {
    const rows = (await this.db('news_hidden_feeds').where({ user_id: userId }).select('feed_id')) as Array<{ feed_id: number }>;
    return new Set(rows.map((r) => r.feed_id));
  }

  async setHidden(userId: string, feedId: number, hidden: boolean): Promise<void> {
    if (hidden) await this.db('news_hidden_feeds').insert({ user_id: userId, feed_id: feedId }).onConflict(['user_id', 'feed_id']).ignore();
    else await this.db('news_hidden_feeds').where({ user_id: userId, feed_id: feedId }).delete();
  }
}
