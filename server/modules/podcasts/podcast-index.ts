// Podcast Index (reference/media-hubs.md §1.2): the podcast directory members search once an admin
// adds the household's free key and secret. Every call is signed: X-Auth-Date (unix seconds),
// X-Auth-Key, Authorization = lowercase hex SHA-1 of key + secret + date, and a User-Agent. The pair
// lives in the household's app settings; it is sent only in those headers and never answered,
// logged or put in an error (the errors below say what happened, never with the key or the URL).
import { createHash } from 'node:crypto';
import { guardedRequest, OfflineModeError, type SsrfGuard } from '../../platform/ssrf.js';
import type { Clock } from '../../platform/clock.js';

export const PODCAST_INDEX_SETTING = 'podcasts.podcastIndex';
/** Podcast Index tops out near 60 results (docs-api#92); Hearth asks for what it shows. */
const SEARCH_MAX = 25;
const MAX_BODY_BYTES = 2 * 1024 * 1024;

export interface PodcastIndexPair {
  key: string;
  secret: string;
}
interface StoredPair extends PodcastIndexPair {
  setAt: string;
}

export interface DirectoryResult {
  title: string;
  author: string | null;
  imageUrl: string | null;
  feedUrl: string | null;
  itunesId: number | null;
  subscribable: boolean;
}

/** Why a Podcast Index call did not give results (said without the key, the secret or the address). */
export type PodcastIndexFailure = 'refused' | 'busy' | 'unavailable';
export class PodcastIndexError extends Error {
  constructor(readonly kind: PodcastIndexFailure) {
    super(kind === 'refused' ? 'Podcast Index refused the key.' : kind === 'busy' ? 'Podcast Index asked Hearth to slow down (429).' : 'Podcast Index did not answer with search results.');
    this.name = 'PodcastIndexError';
  }
}

export interface PodcastIndexDeps {
  settings: { get<T>(key: string): Promise<T | undefined>; set(key: string, value: unknown): Promise<void>; delete(key: string): Promise<void> };
  guard: SsrfGuard;
  clock: Clock;
  /** PODCASTINDEX_BASE, e.g. https://api.podcastindex.org/api/1.0 */
  baseUrl: string;
  userAgent: string;
  timeoutMs: number;
}

/** The headers Podcast Index checks on every call. */
export function podcastIndexHeaders(pair: PodcastIndexPair, nowMs: number, userAgent: string): Record<string, string> {
  const date = String(Math.floor(nowMs / 1000));
  return {
    'user-agent': userAgent,
    'x-auth-date': date,
    'x-auth-key': pair.key,
    authorization: createHash('sha1').update(pair.key + pair.secret + date).digest('hex'),
    accept: 'application/json',
  };
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** Podcast Index's search body → results, dead feeds left out; null when it is not a search answer. */
export function parseByTerm(body: unknown): DirectoryResult[] | null {
  if (!body || typeof body !== 'object') return null;
  const { status, feeds } = body as { status?: unknown; feeds?: unknown };
  if ((status !== 'true' && status !== true) || !Array.isArray(feeds)) return null;
  return feeds
    .filter((f): f is Record<string, unknown> => !!f && typeof f === 'object')
    .filter((f) => !f.dead || f.dead === 0 || f.dead === '0')
    .map((f) => {
      const feedUrl = str(f.url) ?? str(f.originalUrl);
      const itunesId = typeof f.itunesId === 'number' && Number.isInteger(f.itunesId) && f.itunesId > 0 ? f.itunesId : null;
      return { title: str(f.title) ?? 'Untitled show', author: str(f.author), imageUrl: str(f.artwork) ?? str(f.image), feedUrl, itunesId, subscribable: feedUrl !== null && /^https?:\/\//i.test(feedUrl) };
    });
}

export class PodcastIndex {
  constructor(private readonly deps: PodcastIndexDeps) {}

  /** The household's pair, or null when no admin added one. */
  async pair(): Promise<PodcastIndexPair | null> {
    const v = await this.deps.settings.get<Partial<StoredPair>>(PODCAST_INDEX_SETTING);
    return v && typeof v.key === 'string' && typeof v.secret === 'string' ? { key: v.key, secret: v.secret } : null;
  }

  /** What an admin may see: whether a pair is set, the key's last 4 characters and when it was saved. */
  async status(): Promise<{ configured: boolean; keyEnding: string | null; setAt: string | null }> {
    const v = await this.deps.settings.get<Partial<StoredPair>>(PODCAST_INDEX_SETTING);
    if (!v || typeof v.key !== 'string' || typeof v.secret !== 'string') return { configured: false, keyEnding: null, setAt: null };
    return { configured: true, keyEnding: v.key.length > 8 ? v.key.slice(-4) : null, setAt: typeof v.setAt === 'string' ? v.setAt : null };
  }

  async save(pair: PodcastIndexPair): Promise<void> {
    await this.deps.settings.set(PODCAST_INDEX_SETTING, { ...pair, setAt: this.deps.clock.now().toISOString() });
  }

  async clear(): Promise<void> {
    await this.deps.settings.delete(PODCAST_INDEX_SETTING);
  }

  /** search/byterm through the guard. Throws PodcastIndexError, or OfflineModeError in offline mode. */
  async search(pair: PodcastIndexPair, q: string, max = SEARCH_MAX): Promise<DirectoryResult[]> {
    const url = `${this.deps.baseUrl.replace(/\/+$/, '')}/search/byterm?${new URLSearchParams({ q, max: String(max), clean: '' }).toString()}`;
    let res;
    try {
      res = await guardedRequest(this.deps.guard, url, {
        headers: podcastIndexHeaders(pair, this.deps.clock.now().getTime(), this.deps.userAgent),
        headersTimeoutMs: this.deps.timeoutMs,
        bodyTimeoutMs: this.deps.timeoutMs,
        maxRedirects: 0,
      });
    } catch (err) {
      if (err instanceof OfflineModeError) throw err;
      throw new PodcastIndexError('unavailable');
    }
    if (res.statusCode !== 200) {
      res.body.resume();
      throw new PodcastIndexError(res.statusCode === 401 || res.statusCode === 403 ? 'refused' : res.statusCode === 429 ? 'busy' : 'unavailable');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const c of res.body) {
        size += (c as Buffer).length;
        if (size > MAX_BODY_BYTES) throw new Error('too large');
        chunks.push(c as Buffer);
      }
    } catch {
      res.body.destroy();
      throw new PodcastIndexError('unavailable');
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      throw new PodcastIndexError('unavailable');
    }
    const results = parseByTerm(body);
    if (!results) throw new PodcastIndexError('unavailable');
    return results;
  }
}
