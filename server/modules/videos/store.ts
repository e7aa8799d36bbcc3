// Queries of youtube_channels (the household's followed channels) and vstream_entries (the cache of
// licence-clean videos).
import type { Knex } from 'knex';

export interface ChannelRow {
  id: string;
  channelId: string;
  title: string;
  addedById: string | null;
  addedBy: string | null;
  addedAt: string;
}

export interface EntryRow {
  id: string;
  source: 'peertube' | 'podcast';
  sourceId: string;
  title: string;
  licence: string | null;
  sourceUrl: string;
  file: string;
  mime: string;
  bytes: number | null;
  jobId: string | null;
  /** null: the household's (PeerTube); else the member whose podcast episode it is. */
  ownerId: string | null;
  ready: boolean;
  createdAt: string;
  fetchedAt: string | null;
  lastWatchedAt: string | null;
}

interface RawEntry {
  id: string;
  source: 'peertube' | 'podcast';
  source_id: string;
  title: string;
  licence: string | null;
  source_url: string;
  file: string;
  mime: string;
  bytes: number | null;
  job_id: string | null;
  owner_id: string | null;
  ready: number | boolean;
  created_at: string;
  fetched_at: string | null;
  last_watched_at: string | null;
}
const entry = (r: RawEntry): EntryRow => ({
  id: r.id,
  source: r.source,
  sourceId: r.source_id,
  title: r.title,
  licence: r.licence,
  sourceUrl: r.source_url,
  file: r.file,
  mime: r.mime,
  bytes: r.bytes,
  jobId: r.job_id,
  ownerId: r.owner_id,
  ready: Boolean(r.ready),
  createdAt: r.created_at,
  fetchedAt: r.fetched_at,
  lastWatchedAt: r.last_watched_at,
});

export class VideosStore {
  constructor(private readonly db: Knex) {}

  async channels(): Promise<ChannelRow[]> {
    const rows = (await this.db('youtube_channels as c')
      .leftJoin('users as u', 'u.id', 'c.added_by')
      .orderBy('c.title')
      .select('c.id', 'c.channel_id', 'c.title', 'c.added_by', 'c.added_at', 'u.name as added_by_name')) as { id: string; channel_id: string; title: string; added_by: string | null; added_at: string; added_by_name: string | null }[];
    return rows.map((r) => ({ id: r.id, channelId: r.channel_id, title: r.title, addedById: r.added_by, addedBy: r.added_by_name, addedAt: r.added_at }));
  }
  async channel(id: string): Promise<ChannelRow | null> {
    return (await this.channels()).find((c) => c.id === id) ?? null;
  }
  async hasChannel(channelId: string): Promise<boolean> {
    return Boolean(await this.db('youtube_channels').where({ channel_id: channelId }).first('id'));
  }
  /** False when the household already follows it (the unique channel id). */
  async addChannel(c: { id: string; channelId: string; title: string; addedBy: string; addedAt: string }): Promise<boolean> {
    await this.db('youtube_channels').insert({ id: c.id, channel_id: c.channelId, title: c.title, added_by: c.addedBy, added_at: c.addedAt }).onConflict('channel_id').ignore();
    return Boolean(await this.db('youtube_channels').where({ id: c.id }).first('id'));
  }
  async renameChannel(channelId: string, title: string): Promise<void> {
    await this.db('youtube_channels').where({ channel_id: channelId }).whereNot({ title }).update({ title });
  }
  async deleteChannel(id: string): Promise<void> {
    await this.db('youtube_channels').where({ id }).delete();
  }

  async entries(): Promise<EntryRow[]> {
    return ((await this.db('vstream_entries').orderBy('created_at', 'desc')) as RawEntry[]).map(entry);
  }
  async entry(id: string): Promise<EntryRow | null> {
    const r = (await this.db('vstream_entries').where({ id }).first()) as RawEntry | undefined;
    return r ? entry(r) : null;
  }
  async entryBySource(source: string, sourceId: string): Promise<EntryRow | null> {
    const r = (await this.db('vstream_entries').where({ source, source_id: sourceId }).first()) as RawEntry | undefined;
    return r ? entry(r) : null;
  }
  async insertEntry(e: EntryRow): Promise<void> {
    await this.db('vstream_entries').insert({
      id: e.id,
      source: e.source,
      source_id: e.sourceId,
      title: e.title,
      licence: e.licence,
      source_url: e.sourceUrl,
      file: e.file,
      mime: e.mime,
      bytes: e.bytes,
      job_id: e.jobId,
      owner_id: e.ownerId,
      ready: e.ready,
      created_at: e.createdAt,
      fetched_at: e.fetchedAt,
      last_watched_at: e.lastWatchedAt,
    });
  }
  async setJob(id: string, jobId: string): Promise<void> {
    await this.db('vstream_entries').where({ id }).update({ job_id: jobId });
  }
  async markReady(id: string, bytes: number, at: string): Promise<void> {
    await this.db('vstream_entries').where({ id }).update({ ready: true, bytes, fetched_at: at });
  }
  async watched(id: string, at: string): Promise<void> {
    await this.db('vstream_entries').where({ id }).update({ last_watched_at: at });
  }
  async deleteEntry(id: string): Promise<void> {
    await this.db('vstream_entries').where({ id }).delete();
  }
  /** Ready copies, least recently watched (or fetched, when never watched) first. */
  async readyByAge(): Promise<EntryRow[]> {
    const rows = (await this.db('vstream_entries').where({ ready: true }).orderByRaw('coalesce(last_watched_at, fetched_at, created_at) asc')) as RawEntry[];
    return rows.map(entry);
  }
  async usedBytes(): Promise<number> {
    const r = (await this.db('vstream_entries').where({ ready: true }).sum({ n: 'bytes' }).first()) as { n: number | null } | undefined;
    return Number(r?.n ?? 0);
  }
}
