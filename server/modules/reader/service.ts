// Reader rules: who sees and edits what (own + global items; another user's item or collection is
// 404; globals are edited only through the admin routes), decoration of rows (tags, isGlobal,
// canEdit, isHidden, artifact URLs), tags created on first use, collections, hiding globals in the
// `bookmarks.hidden` preference, capture requests (the queue in jobs.ts does the work), the probe
// and the legacy embed proxy, both through the SSRF guard.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { UserActor } from '../../actor.js';
import type { UserPreferencesStore } from '../../db/kv.js';
import { BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError, UpstreamError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import { resolveInside } from '../../platform/path-guard.js';
import { BlockedUrlError, guardedRequest, OfflineModeError, type GuardedResponse, type SsrfGuard } from '../../platform/ssrf.js';
import { archivePublicBase, buildMatch, clientSnapshotFile, contentTypeOf, isPng, itemDir, readerRoot, resolveArchivePath } from './files.js';
import {
  BOOKMARKS_HTML_END,
  BOOKMARKS_HTML_FOLDER_CLOSE,
  bookmarksHtmlEntry,
  bookmarksHtmlFolderOpen,
  bookmarksHtmlHead,
  parseBookmarksHtmlInSlices,
} from './bookmarks-html.js';
import { FAVICON_ICO, FAVICON_PNG } from './favicon.js';
import type { ReaderCaptureQueue } from './jobs.js';
import {
  ADMIN_DEFAULT_CATEGORY,
  HIDDEN_PREFERENCE,
  MAX_TAG_CHARS,
  MAX_TAGS_PER_ITEM,
  MAX_TITLE_CHARS,
  PROBE_MAX_BYTES,
  PROBE_TIMEOUT_MS,
  type AdminCreateBody,
  type CaptureOutcome,
  type Collection,
  type CreateCollectionBody,
  type CreateItemBody,
  type FullReaderItem,
  type ItemChange,
  type ItemRecord,
  type ItemType,
  type ListQuery,
  type PatchCollectionBody,
  type PatchItemBody,
  type ProbeResult,
  type ReaderItem,
  type SnapshotBody,
  type Tag,
} from './schema.js';
import { newItemRecord, type NewItem, type ReaderStore } from './store.js';

/** A URL the SSRF guard refused: 503 offline_mode in offline mode, otherwise 400 blocked_url. */
function refusal(err: BlockedUrlError): BadRequestError | ServiceUnavailableError {
  return err instanceof OfflineModeError ? new ServiceUnavailableError('offline_mode', err.message) : new BadRequestError(err.message, undefined, 'blocked_url');
}

export interface ImportProgress {
  processed: number;
  total: number;
  imported: number;
  skipped: number;
}

export interface ImportSummary {
  imported: number;
  skipped: number;
  duplicates: number;
  collections: string[];
  errors: Array<{ index: number; title: string | null; url: string | null; reason: string }>;
}

/** About how long one import chunk may hold the event loop before other requests get their turn. */
export const IMPORT_SLICE_MS = 12;
const IMPORT_FIRST_BATCH = 50;
const IMPORT_MIN_BATCH = 10;
const IMPORT_MAX_BATCH = 1000;
const URL_CHECK_BATCH = 500;
/** Items read and written per page of an export. */
const EXPORT_PAGE = 100;

export interface ReaderDeps {
  store: ReaderStore;
  queue: ReaderCaptureQueue;
  preferences: UserPreferencesStore;
  guard: SsrfGuard;
  clock: Clock;
  logger: Logger;
  dataDir: string;
}

/** Who is looking: a member (own + global, edits own) or an admin on the admin routes (globals). */
type Viewer = { kind: 'user'; actor: UserActor } | { kind: 'admin'; actor: UserActor };

const notFound = () => new NotFoundError('That reader item does not exist.');
const artifactUrl = (id: string, rel: string | null) => (rel ? `${archivePublicBase(id)}${rel.split('/').map(encodeURIComponent).join('/')}` : null);
/** The local copy of the site's icon (the site's own address stays server-side, for the exports). */
const faviconRoute = (r: ItemRecord) => (r.faviconPath ? `/api/reader/${encodeURIComponent(r.id)}/favicon` : null);
const FAVICON_TYPES: Record<string, string> = { [FAVICON_PNG]: 'image/png', [FAVICON_ICO]: 'image/x-icon' };

/** How long a snapshot's asset URLs stay valid (the page is re-opened through a fresh redirect after). */
export const ARCHIVE_TOKEN_TTL_S = 6 * 60 * 60;

export class ReaderService {
  /**
   * Signs capability tokens for a snapshot's assets. A snapshot is served with CSP `sandbox`, so
   * its document has an opaque origin and browsers send no SameSite cookie with its image, CSS and
   * font requests; those go to a token path instead (per process: a restart just re-issues them).
   */
  private readonly archiveKey = randomBytes(32);

  constructor(private readonly deps: ReaderDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  // ---- decoration ----

  private async hiddenIds(userId: string): Promise<string[]> {
    const v = await this.deps.preferences.get<unknown>(userId, HIDDEN_PREFERENCE);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  private decorate(r: ItemRecord, viewer: Viewer, hidden: Set<string>, tags: string[]): ReaderItem {
    const isGlobal = r.ownerId === null;
    return {
      id: r.id,
      ownerId: r.ownerId,
      source: r.source,
      sourceRef: r.sourceRef,
      type: r.type,
      url: r.url,
      title: r.title,
      byline: r.byline,
      siteName: r.siteName,
      faviconUrl: faviconRoute(r),
      excerpt: r.excerpt,
      wordCount: r.wordCount,
      readingMins: r.readingMins,
      status: r.status,
      archiveState: r.archiveState,
      archiveError: r.archiveError,
      readAt: r.readAt,
      useProxy: r.useProxy,
      useEmbed: r.useEmbed,
      category: r.category,
      collectionId: r.collectionId,
      sortOrder: r.sortOrder,
      autoUpdate: r.autoUpdate,
      autoUpdateIntervalMins: r.autoUpdateIntervalMins,
      alertOnChange: r.alertOnChange,
      lastCheckedAt: r.lastCheckedAt,
      contentChangedAt: r.contentChangedAt,
      isAdult: r.isAdult,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      tags,
      isGlobal,
      canEdit: viewer.kind === 'admin' ? isGlobal : r.ownerId === viewer.actor.id,
      isHidden: isGlobal && hidden.has(r.id),
      snapshotUrl: artifactUrl(r.id, r.snapshotPath),
      thumbnailUrl: artifactUrl(r.id, r.thumbnailPath ?? r.screenshotPath ?? r.ogImagePath),
    };
  }

  private async decorateMany(rows: ItemRecord[], viewer: Viewer): Promise<ReaderItem[]> {
    const [tags, hidden] = await Promise.all([this.deps.store.tagsFor(rows.map((r) => r.id)), this.hiddenIds(viewer.actor.id)]);
    const set = new Set(hidden);
    return rows.map((r) => this.decorate(r, viewer, set, tags.get(r.id) ?? []));
  }

  private async full(r: ItemRecord, viewer: Viewer): Promise<FullReaderItem> {
    const [item] = await this.decorateMany([r], viewer);
    return { ...item!, contentHtml: r.contentHtml, contentText: r.contentText };
  }

  // ---- lookups with scoping ----

  /** An item the user may see (own or global), else 404. For the AI seams as well. */
  async visibleItem(actor: UserActor, id: string): Promise<ItemRecord> {
    const r = await this.deps.store.findById(id);
    if (!r || (r.ownerId !== null && r.ownerId !== actor.id)) throw notFound();
    return r;
  }

  /** An item the user owns, else 404 (globals are edited on the admin routes). */
  async ownItem(actor: UserActor, id: string): Promise<ItemRecord> {
    const r = await this.deps.store.findById(id);
    if (!r || r.ownerId !== actor.id) throw notFound();
    return r;
  }

  private async globalItem(id: string): Promise<ItemRecord> {
    const r = await this.deps.store.findById(id);
    if (!r || r.ownerId !== null) throw notFound();
    return r;
  }

  /** The user's collection id for collectionId / collectionName (created on first use). */
  private async resolveCollection(actor: UserActor, collectionId: string | null | undefined, collectionName: string | undefined): Promise<string | null | undefined> {
    if (collectionName !== undefined) {
      const found = await this.deps.store.findCollectionByName(actor.id, collectionName);
      if (found) return found.id;
      const created = await this.deps.store.insertCollection({ ownerId: actor.id, name: collectionName, icon: null, color: null, sortOrder: 0 }, this.now());
      return (created ?? (await this.deps.store.findCollectionByName(actor.id, collectionName)))!.id;
    }
    if (collectionId === undefined || collectionId === null) return collectionId;
    if (!(await this.deps.store.findCollection(actor.id, collectionId))) throw new NotFoundError('That collection does not exist.');
    return collectionId;
  }

  // ---- items ----

  async list(actor: UserActor, q: ListQuery): Promise<{ items: ReaderItem[]; total: number }> {
    let match: string | undefined;
    if (q.q !== undefined && q.q.trim() !== '') {
      const m = buildMatch(q.q);
      if (m === null) return { items: [], total: 0 };
      match = m;
    }
    const excludeIds = q.hidden === 'exclude' ? await this.hiddenIds(actor.id) : undefined;
    const { rows, total } = await this.deps.store.list({
      viewerId: actor.id,
      status: q.status,
      type: q.type,
      collectionId: q.collectionId,
      tag: q.tag?.trim() || undefined,
      match,
      excludeIds,
      limit: q.limit,
      offset: q.offset,
    });
    return { items: await this.decorateMany(rows, { kind: 'user', actor }), total };
  }

  async create(actor: UserActor, body: CreateItemBody): Promise<FullReaderItem> {
    this.checkFetchable(body.url, body);
    const collectionId = await this.resolveCollection(actor, body.collectionId, body.collectionName);
    const rec = await this.deps.store.insert(this.recordFromBody(body, { ownerId: actor.id, type: body.type, category: 'Other', collectionId: collectionId ?? null }), body.tags ?? []);
    this.deps.queue.poke();
    return this.full(rec, { kind: 'user', actor });
  }

  /**
   * A new item's row from a create body, for a member's item or a household link: the body's
   * options with their defaults, and a baseline capture for an item Hearth keeps offline or
   * watches (a live link that is monitored needs its baseline capture too).
   */
  private recordFromBody(body: AdminCreateBody, o: { ownerId: string | null; type: ItemRecord['type']; category: string; collectionId: string | null }): NewItem {
    const autoUpdate = body.autoUpdate ?? false;
    return newItemRecord(
      {
        ownerId: o.ownerId,
        type: o.type,
        url: body.url,
        title: body.title || null,
        category: body.category ?? o.category,
        collectionId: o.collectionId,
        useProxy: body.useProxy ?? false,
        useEmbed: body.useEmbed ?? false,
        autoUpdate,
        autoUpdateIntervalMins: body.autoUpdateIntervalMins ?? null,
        alertOnChange: body.alertOnChange ?? false,
        isAdult: body.isAdult ?? false,
        archiveState: o.type === 'offline' || autoUpdate ? 'pending' : 'none',
      },
      this.now(),
    );
  }

  /**
   * One item with its content. Reading changes nothing (no GET changes state): the web app marks
   * an own unread offline item reading with a PATCH when it opens it.
   */
  async get(actor: UserActor, id: string): Promise<FullReaderItem> {
    return this.full(await this.visibleItem(actor, id), { kind: 'user', actor });
  }

  /**
   * An item Hearth fetches itself (saved offline, watched for changes, or shown through its proxy)
   * needs an address the SSRF guard allows, or every capture would fail: refused up front with
   * the guard's reason. A plain link may point anywhere, the router's page on the home network
   * included: only the household's browsers open it (its thumbnail is simply not made).
   */
  private checkFetchable(url: string, item: { type: ItemRecord['type']; autoUpdate?: boolean; useProxy?: boolean }): void {
    if (item.type !== 'offline' && !item.autoUpdate && !item.useProxy) return;
    try {
      this.deps.guard.checkUrl(url);
    } catch (err) {
      if (err instanceof OfflineModeError) throw refusal(err);
      const why = err instanceof BlockedUrlError ? err.message : 'That is not a valid web address.';
      throw new BadRequestError(`${why} Hearth can keep it as a plain link, but cannot save a copy of it, watch it for changes or show it through Hearth.`, undefined, 'blocked_url');
    }
  }

  /** The same for a change: checked when the address or what Hearth does with it changes. */
  private checkPatchFetchable(r: ItemRecord, body: PatchItemBody): void {
    if (body.url === undefined && !body.autoUpdate && !body.useProxy) return;
    this.checkFetchable(body.url ?? r.url, { type: r.type, autoUpdate: body.autoUpdate ?? r.autoUpdate, useProxy: body.useProxy ?? r.useProxy });
  }

  private patchFields(r: ItemRecord, body: PatchItemBody): Partial<ItemRecord> {
    const now = this.now();
    const patch: Partial<ItemRecord> = { updatedAt: now };
    if (body.url !== undefined) patch.url = body.url;
    if (body.title !== undefined) patch.title = body.title || null;
    if (body.status !== undefined && body.status !== r.status) {
      patch.status = body.status;
      if (body.status !== 'unread' && !r.readAt) patch.readAt = now;
      if (body.status === 'unread') patch.readAt = null;
    }
    if (body.category !== undefined) patch.category = body.category;
    if (body.useProxy !== undefined) patch.useProxy = body.useProxy;
    if (body.useEmbed !== undefined) patch.useEmbed = body.useEmbed;
    if (body.autoUpdateIntervalMins !== undefined) patch.autoUpdateIntervalMins = body.autoUpdateIntervalMins;
    if (body.alertOnChange !== undefined) patch.alertOnChange = body.alertOnChange;
    if (body.sortOrder !== undefined) patch.sortOrder = body.sortOrder;
    if (body.isAdult !== undefined) patch.isAdult = body.isAdult;
    if (body.autoUpdate !== undefined) {
      patch.autoUpdate = body.autoUpdate;
      // Enabling monitoring on an item never captured starts its baseline capture.
      const neverCaptured = r.contentHash === null && r.lastCheckedAt === null && (r.archiveState === 'none' || r.archiveState === 'failed');
      if (body.autoUpdate && !r.autoUpdate && neverCaptured) {
        patch.archiveState = 'pending';
        patch.archiveError = null;
      }
    }
    return patch;
  }

  async update(actor: UserActor, id: string, body: PatchItemBody): Promise<FullReaderItem> {
    const r = await this.ownItem(actor, id);
    this.checkPatchFetchable(r, body);
    const patch = this.patchFields(r, body);
    const collectionId = await this.resolveCollection(actor, body.collectionId, body.collectionName);
    if (collectionId !== undefined) patch.collectionId = collectionId;
    if (!(await this.deps.store.update(id, patch, body.tags, this.now()))) throw notFound();
    if (patch.archiveState === 'pending') this.deps.queue.poke();
    return this.full((await this.deps.store.findById(id))!, { kind: 'user', actor });
  }

  private async removeFiles(id: string): Promise<void> {
    this.deps.queue.cancel(id);
    await rm(itemDir(this.deps.dataDir, id), { recursive: true, force: true });
    await rm(clientSnapshotFile(this.deps.dataDir, id), { force: true });
  }

  async remove(actor: UserActor, id: string): Promise<void> {
    await this.ownItem(actor, id);
    if (!(await this.deps.store.delete(id))) throw notFound();
    await this.removeFiles(id);
  }

  /** Re-capture from any state: offline and monitored items get a full archive, live links a new thumbnail. */
  async rearchive(actor: UserActor, id: string): Promise<FullReaderItem> {
    const r = await this.ownItem(actor, id);
    const now = this.now();
    const patch: Partial<ItemRecord> =
      r.type === 'offline' || r.autoUpdate ? { archiveState: 'pending', archiveError: null, updatedAt: now } : { thumbnailState: 'pending', updatedAt: now };
    await this.deps.store.update(id, patch);
    this.deps.queue.poke();
    return this.full((await this.deps.store.findById(id))!, { kind: 'user', actor });
  }

  /** The DOM the user's browser rendered becomes the capture's first source. */
  async snapshot(actor: UserActor, id: string, body: SnapshotBody): Promise<FullReaderItem> {
    await this.ownItem(actor, id);
    await mkdir(readerRoot(this.deps.dataDir), { recursive: true });
    await writeFile(clientSnapshotFile(this.deps.dataDir, id), JSON.stringify({ html: body.html, url: body.url }));
    await this.deps.store.update(id, { archiveState: 'pending', archiveError: null, updatedAt: this.now() });
    this.deps.queue.poke();
    return this.full((await this.deps.store.findById(id))!, { kind: 'user', actor });
  }

  async setThumbnail(actor: UserActor, id: string, png: Buffer): Promise<FullReaderItem> {
    await this.ownItem(actor, id);
    if (!isPng(png)) throw new BadRequestError('The thumbnail must be a PNG image.', undefined, 'invalid_image');
    const dir = itemDir(this.deps.dataDir, id);
    await mkdir(dir, { recursive: true });
    await writeFile(`${dir}/thumbnail.png`, png);
    if (!(await this.deps.store.update(id, { thumbnailPath: 'thumbnail.png', updatedAt: this.now() }))) {
      await rm(dir, { recursive: true, force: true });
      throw notFound();
    }
    return this.full((await this.deps.store.findById(id))!, { kind: 'user', actor });
  }

  /** A file of the item's capture, resolved through the path guard; any miss is 404. */
  async archiveFile(actor: UserActor, id: string, rawPath: string): Promise<{ stream: ReadStream; contentType: string; size: number }> {
    await this.visibleItem(actor, id);
    return this.readArchiveFile(id, rawPath);
  }

  private async readArchiveFile(id: string, rawPath: string): Promise<{ stream: ReadStream; contentType: string; size: number }> {
    const file = resolveArchivePath(itemDir(this.deps.dataDir, id), rawPath);
    if (!file) throw new NotFoundError('That file is not part of this capture.');
    const st = await stat(file).catch(() => null);
    if (!st?.isFile()) throw new NotFoundError('That file is not part of this capture.');
    const head = Buffer.alloc(Math.min(1024, st.size));
    const fh = await open(file, 'r');
    try {
      await fh.read(head, 0, head.length, 0);
    } finally {
      await fh.close();
    }
    return { stream: createReadStream(file), contentType: contentTypeOf(file, head), size: st.size };
  }

  /** The saved copy of the site's icon for an item the user may see; 404 when there is none. */
  async favicon(actor: UserActor, id: string): Promise<{ body: Buffer; contentType: string }> {
    const r = await this.visibleItem(actor, id);
    const none = () => new NotFoundError('This item has no saved site icon.');
    const contentType = r.faviconPath ? FAVICON_TYPES[r.faviconPath] : undefined;
    const file = contentType ? resolveInside(itemDir(this.deps.dataDir, id), r.faviconPath!) : null;
    if (!contentType || !file) throw none();
    const body = await readFile(file).catch(() => null);
    if (!body) throw none();
    return { body, contentType };
  }

  private signArchive(id: string, userId: string, exp: number): string {
    return createHmac('sha256', this.archiveKey).update(`${id}|${userId}|${exp}`).digest('base64url').slice(0, 32);
  }

  /** A path segment that grants this user's access to the item's capture files for a while. */
  async archiveToken(actor: UserActor, id: string): Promise<string> {
    await this.visibleItem(actor, id);
    const exp = Math.floor(this.deps.clock.now().getTime() / 1000) + ARCHIVE_TOKEN_TTL_S;
    return `${exp}.${actor.id}.${this.signArchive(id, actor.id, exp)}`;
  }

  /** A file of the capture through a token from archiveToken(); a bad, expired or revoked token is 404. */
  async archiveFileByToken(id: string, token: string, rawPath: string): Promise<{ stream: ReadStream; contentType: string; size: number }> {
    const denied = () => new NotFoundError('That file is not part of this capture.');
    const [expRaw, userId, sig] = token.split('.');
    const exp = Number(expRaw);
    if (!userId || !sig || !Number.isInteger(exp) || exp * 1000 < this.deps.clock.now().getTime()) throw denied();
    const expected = Buffer.from(this.signArchive(id, userId, exp));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw denied();
    const r = await this.deps.store.findById(id);
    if (!r || (r.ownerId !== null && r.ownerId !== userId)) throw denied();
    return this.readArchiveFile(id, rawPath);
  }

  async changes(actor: UserActor, id: string): Promise<ItemChange[]> {
    await this.visibleItem(actor, id);
    return this.deps.store.changes(id);
  }

  // ---- capture seams (archive job, change monitor) ----

  /**
   * Captures the item now (after the capture in progress, one at a time) and applies the result.
   * Resolves {changed, previousHash, newHash}; `changed` is false for the first (baseline) capture.
   * Rejects with CaptureError (e.g. code 'challenge') when the capture failed: the item is then
   * failed with archiveError and its content and hash are untouched.
   */
  captureNow(itemId: string, reason: 'archive' | 'monitor'): Promise<CaptureOutcome> {
    return this.deps.queue.captureNow(itemId, reason);
  }

  /** For the AI seam: persist a summary and tags on an own item. */
  async applySummary(actor: UserActor, id: string, excerpt: string, tags: string[]): Promise<FullReaderItem> {
    await this.ownItem(actor, id);
    await this.deps.store.update(id, { excerpt, updatedAt: this.now() }, tags, this.now());
    return this.full((await this.deps.store.findById(id))!, { kind: 'user', actor });
  }

  // ---- hide / unhide ----

  async hide(actor: UserActor, id: string): Promise<{ hidden: string[] }> {
    await this.globalItem(id);
    const hidden = await this.hiddenIds(actor.id);
    if (!hidden.includes(id)) hidden.push(id);
    await this.deps.preferences.set(actor.id, HIDDEN_PREFERENCE, hidden);
    return { hidden };
  }

  async unhide(actor: UserActor, id: string): Promise<{ hidden: string[] }> {
    const hidden = await this.hiddenIds(actor.id);
    if (!hidden.includes(id)) await this.globalItem(id);
    const next = hidden.filter((h) => h !== id);
    await this.deps.preferences.set(actor.id, HIDDEN_PREFERENCE, next);
    return { hidden: next };
  }

  // ---- collections and tags ----

  listCollections(actor: UserActor): Promise<Collection[]> {
    return this.deps.store.listCollections(actor.id);
  }

  async createCollection(actor: UserActor, body: CreateCollectionBody): Promise<Collection> {
    const c = await this.deps.store.insertCollection({ ownerId: actor.id, name: body.name, icon: body.icon ?? null, color: body.color ?? null, sortOrder: 0 }, this.now());
    if (!c) throw new ConflictError('collection_exists', `You already have a collection named "${body.name}".`);
    return c;
  }

  async updateCollection(actor: UserActor, id: string, body: PatchCollectionBody): Promise<Collection> {
    const c = await this.deps.store.updateCollection(actor.id, id, body, this.now());
    if (c === 'missing') throw new NotFoundError('That collection does not exist.');
    if (c === 'duplicate') throw new ConflictError('collection_exists', `You already have a collection named "${body.name}".`);
    return c;
  }

  async deleteCollection(actor: UserActor, id: string): Promise<void> {
    if (!(await this.deps.store.deleteCollection(actor.id, id))) throw new NotFoundError('That collection does not exist.');
  }

  listTags(actor: UserActor): Promise<Tag[]> {
    return this.deps.store.listTags(actor.id);
  }

  // ---- admin: global items ----

  async adminList(actor: UserActor): Promise<{ items: ReaderItem[] }> {
    const { rows } = await this.deps.store.list({ viewerId: null, limit: 10_000, offset: 0 });
    return { items: await this.decorateMany(rows, { kind: 'admin', actor }) };
  }

  async adminCreate(actor: UserActor, body: AdminCreateBody): Promise<FullReaderItem> {
    this.checkFetchable(body.url, { ...body, type: 'live' });
    const rec = await this.deps.store.insert(this.recordFromBody(body, { ownerId: null, type: 'live', category: ADMIN_DEFAULT_CATEGORY, collectionId: null }), body.tags ?? []);
    this.deps.queue.poke();
    return this.full(rec, { kind: 'admin', actor });
  }

  async adminUpdate(actor: UserActor, id: string, body: PatchItemBody): Promise<FullReaderItem> {
    const r = await this.globalItem(id);
    this.checkPatchFetchable(r, body);
    const patch = this.patchFields(r, body);
    if (!(await this.deps.store.update(id, patch, body.tags, this.now()))) throw notFound();
    if (patch.archiveState === 'pending') this.deps.queue.poke();
    return this.full((await this.deps.store.findById(id))!, { kind: 'admin', actor });
  }

  async adminRemove(_actor: UserActor, id: string): Promise<void> {
    await this.globalItem(id);
    if (!(await this.deps.store.delete(id))) throw notFound();
    await this.removeFiles(id);
  }

  logImportError(err: unknown): void {
    this.deps.logger.error({ err }, 'bookmarks import failed');
  }

  // ---- import / export ----

  /**
   * bookmarks.html import: every link becomes an own item (live unless type is offline, so an
   * import does not start a capture storm), the nearest folder its collection (created or reused),
   * TAGS its tags, ADD_DATE its createdAt. URLs already saved (or repeated in the file) count as
   * duplicates; broken entries are reported per row.
   *
   * better-sqlite3 answers synchronously, so a loop of awaited queries never lets the event loop
   * reach I/O: the file is parsed, checked and written in chunks of about IMPORT_SLICE_MS, with a
   * turn of the event loop (setImmediate) between chunks, so every other request keeps being
   * served while a large file imports. Each written chunk is its own transaction (an item and its
   * tags together, never half), followed by a progress event counting what is saved; if the import
   * stops (an error, the client gone, a crash), the chunks already reported stay saved and
   * importing the same file again adds only the rest (saved links count as duplicates).
   */
  async importHtml(actor: UserActor, html: string, type: ItemType, onProgress: (p: ImportProgress) => void, signal?: AbortSignal): Promise<ImportSummary> {
    const parsed = await parseBookmarksHtmlInSlices(html, IMPORT_SLICE_MS);
    const summary: ImportSummary = { imported: 0, skipped: 0, duplicates: 0, collections: [], errors: [] };
    const urls = parsed.rows.flatMap((r) => (r.kind === 'bookmark' ? [r.url] : []));
    const existing = new Set<string>();
    for (let i = 0; i < urls.length; i += URL_CHECK_BATCH) {
      if (signal?.aborted) return summary;
      for (const u of await this.deps.store.existingUrls(actor.id, urls.slice(i, i + URL_CHECK_BATCH))) existing.add(u);
      await nextTurn();
    }
    const collectionIds = new Map<string, string>();
    const now = this.now();
    let batchSize = IMPORT_FIRST_BATCH;
    let processed = 0;
    for (let i = 0; i < parsed.rows.length; ) {
      if (signal?.aborted) break;
      const started = performance.now();
      const batch: Array<{ item: NewItem; tags: string[] }> = [];
      for (; i < parsed.rows.length && batch.length < batchSize; i++) {
        const row = parsed.rows[i]!;
        processed++;
        if (row.kind === 'error') {
          if (row.code === 'duplicate') summary.duplicates++;
          else {
            summary.skipped++;
            summary.errors.push({ index: row.index, title: row.title, url: row.url, reason: row.reason });
          }
          continue;
        }
        if (existing.has(row.url)) {
          summary.duplicates++;
          continue;
        }
        existing.add(row.url);
        let collectionId: string | null = null;
        if (row.folder) {
          const name = row.folder.slice(0, 100);
          if (!collectionIds.has(name.toLowerCase())) {
            collectionIds.set(name.toLowerCase(), (await this.resolveCollection(actor, undefined, name))!);
            summary.collections.push(name);
          }
          collectionId = collectionIds.get(name.toLowerCase())!;
        }
        const created = row.addDate ? row.addDate.toISOString() : now;
        batch.push({
          item: {
            ...newItemRecord({ ownerId: actor.id, type, url: row.url }, now),
            title: row.title.trim().slice(0, MAX_TITLE_CHARS) || null,
            excerpt: row.description,
            collectionId,
            status: row.archived ? 'archived' : 'unread',
            // imported live links are not screenshotted one by one; offline ones are archived
            thumbnailState: 'none',
            createdAt: created,
            updatedAt: now,
          },
          tags: [...new Set(row.tags.map((t) => t.replace(/\s+/g, ' ').trim().slice(0, MAX_TAG_CHARS)).filter(Boolean))].slice(0, MAX_TAGS_PER_ITEM),
        });
      }
      if (batch.length) await this.deps.store.insertMany(batch, now);
      summary.imported += batch.length;
      onProgress({ processed, total: parsed.total, imported: summary.imported, skipped: summary.skipped + summary.duplicates });
      // the next chunk is sized so that writing it takes about IMPORT_SLICE_MS on this machine
      const ms = performance.now() - started;
      if (ms < IMPORT_SLICE_MS / 2) batchSize = Math.min(IMPORT_MAX_BATCH, batchSize * 2);
      else if (ms > IMPORT_SLICE_MS) batchSize = Math.max(IMPORT_MIN_BATCH, Math.floor(batchSize / 2));
      await nextTurn();
    }
    if (type === 'offline' && summary.imported) this.deps.queue.poke();
    return summary;
  }

  /**
   * bookmarks.html of the user's live links (spec: live links only), as text pieces: folders in
   * the order their first link was saved, then the links without a collection. Rows are read
   * EXPORT_PAGE at a time with a turn of the event loop between pages, so a large library does
   * not hold up other requests while it is written out.
   */
  async *exportHtml(actor: UserActor): AsyncGenerator<string> {
    const [order, collections] = await Promise.all([this.deps.store.exportOrder(actor.id, 'live'), this.deps.store.listCollections(actor.id)]);
    const names = new Map(collections.map((c) => [c.id, c.name.trim()]));
    const folders = new Map<string, { firstAdded: Date; seqs: number[] }>();
    const loose: number[] = [];
    for (const row of order) {
      const name = row.collectionId ? names.get(row.collectionId) : undefined;
      if (!name) loose.push(row.seq);
      else if (folders.has(name)) folders.get(name)!.seqs.push(row.seq);
      else folders.set(name, { firstAdded: new Date(row.createdAt), seqs: [row.seq] });
    }
    yield bookmarksHtmlHead();
    for (const [name, folder] of folders) {
      yield bookmarksHtmlFolderOpen(name, Number.isNaN(folder.firstAdded.getTime()) ? null : folder.firstAdded);
      yield* this.htmlEntries(folder.seqs, true);
      yield BOOKMARKS_HTML_FOLDER_CLOSE;
    }
    yield* this.htmlEntries(loose, false);
    yield BOOKMARKS_HTML_END;
  }

  /** The bookmarks.html entries of these rows, EXPORT_PAGE at a time. */
  private async *htmlEntries(seqs: number[], inFolder: boolean): AsyncGenerator<string> {
    for (let i = 0; i < seqs.length; i += EXPORT_PAGE) {
      const items = await this.deps.store.fullBySeqs(seqs.slice(i, i + EXPORT_PAGE));
      const tags = await this.deps.store.tagsFor(items.map((it) => it.id));
      yield items
        .map((it) =>
          bookmarksHtmlEntry(
            { title: it.title, url: it.url, addDate: new Date(it.createdAt), tags: tags.get(it.id) ?? [], collectionName: null, description: it.excerpt },
            inFolder,
          ),
        )
        .join('');
      await nextTurn();
    }
  }

  /**
   * Everything the user saved, offline content included, so nothing is lost when they leave: one
   * JSON document written as text pieces, the items EXPORT_PAGE at a time with a turn of the event
   * loop between pages (see exportHtml).
   */
  async *exportJson(actor: UserActor): AsyncGenerator<string> {
    const [order, collections, tagList, hidden] = await Promise.all([
      this.deps.store.exportOrder(actor.id),
      this.deps.store.listCollections(actor.id),
      this.deps.store.listTags(actor.id),
      this.hiddenIds(actor.id),
    ]);
    const names = new Map(collections.map((c) => [c.id, c.name]));
    const viewer: Viewer = { kind: 'user', actor };
    const hiddenSet = new Set(hidden);
    const head = JSON.stringify({ version: 1, exportedAt: this.now(), collections, tags: tagList });
    yield `${head.slice(0, -1)},"items":[`;
    for (let i = 0; i < order.length; i += EXPORT_PAGE) {
      const items = await this.deps.store.fullBySeqs(order.slice(i, i + EXPORT_PAGE).map((r) => r.seq));
      const tags = await this.deps.store.tagsFor(items.map((it) => it.id));
      const page = items.map((it) =>
        JSON.stringify({
          ...this.decorate(it, viewer, hiddenSet, tags.get(it.id) ?? []),
          // the site's own icon address: Hearth's copy means nothing outside Hearth
          faviconUrl: it.faviconUrl,
          contentHtml: it.contentHtml,
          contentText: it.contentText,
          collectionName: it.collectionId ? (names.get(it.collectionId) ?? null) : null,
        }),
      );
      yield `${i === 0 ? '' : ','}${page.join(',')}`;
      await nextTurn();
    }
    yield ']}';
  }

  // ---- outbound: probe and the legacy embed proxy ----

  async probe(url: string): Promise<ProbeResult> {
    let target: URL;
    try {
      target = this.deps.guard.checkUrl(url);
    } catch (err) {
      throw err instanceof BlockedUrlError ? refusal(err) : new BadRequestError('That is not a valid web address.', undefined, 'blocked_url');
    }
    let res: GuardedResponse;
    try {
      res = await guardedRequest(this.deps.guard, target.href, {
        headers: { 'user-agent': 'Mozilla/5.0 (compatible; Hearth reader)', accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' },
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
        headersTimeoutMs: PROBE_TIMEOUT_MS,
        bodyTimeoutMs: PROBE_TIMEOUT_MS,
      });
    } catch (err) {
      if (err instanceof BlockedUrlError) throw refusal(err);
      return { reachable: false, framesBlocked: false, faviconUrl: null, title: null };
    }
    const header = (name: string) => {
      const v = res.headers[name];
      return Array.isArray(v) ? v.join(', ') : (v ?? '');
    };
    const framesBlocked = framesBlockedBy(header('x-frame-options'), header('content-security-policy'));
    let html = '';
    if (/html|xml/i.test(header('content-type')) || header('content-type') === '') html = await readPrefix(res.body, PROBE_MAX_BYTES);
    else {
      // undici answers an unread body's destroy() with an 'error' (AbortError); without a listener
      // it would be an uncaught exception (a PDF or a 404 page took the server down)
      res.body.on('error', () => undefined);
      res.body.destroy();
    }
    const base = new URL(res.url);
    return {
      reachable: res.statusCode < 400,
      framesBlocked,
      title: titleOf(html),
      faviconUrl: iconOf(html, base) ?? new URL('/favicon.ico', base).href,
    };
  }

  /** The legacy embed proxy's upstream response for a live item (SSRF-guarded, every redirect hop checked). */
  async proxyUpstream(actor: UserActor, id: string, signal: AbortSignal): Promise<GuardedResponse> {
    const r = await this.visibleItem(actor, id);
    try {
      return await guardedRequest(this.deps.guard, r.url, {
        headers: { 'user-agent': 'Mozilla/5.0 (compatible; Hearth reader)', accept: 'text/html,*/*;q=0.8' },
        signal,
        headersTimeoutMs: 15_000,
        bodyTimeoutMs: 30_000,
      });
    } catch (err) {
      if (err instanceof BlockedUrlError) throw refusal(err);
      throw new UpstreamError('upstream_unreachable', 'The site could not be reached.');
    }
  }
}

/** X-Frame-Options (any value) or a CSP frame-ancestors that does not allow every origin. */
export function framesBlockedBy(xfo: string, csp: string): boolean {
  if (xfo.trim() !== '') return true;
  for (const policy of csp.split(',')) {
    for (const directive of policy.split(';')) {
      const [name, ...sources] = directive.trim().split(/\s+/);
      if (name?.toLowerCase() !== 'frame-ancestors') continue;
      if (!sources.includes('*')) return true;
    }
  }
  return false;
}

async function readPrefix(body: AsyncIterable<Buffer> & { destroy(): void }, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= max) break;
    }
  } catch {
    // a broken body still gives what arrived
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

export function titleOf(html: string): string | null {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const t = m ? decodeEntities(m[1]!).replace(/\s+/g, ' ').trim() : '';
  return t ? t.slice(0, 500) : null;
}

export function iconOf(html: string, base: URL): string | null {
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = m[0];
    const rel = /\brel\s*=\s*["']?([^"'>]+)/i.exec(tag)?.[1]?.toLowerCase() ?? '';
    if (!rel.split(/\s+/).includes('icon')) continue;
    const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
    const value = href ? decodeEntities(href[1] ?? href[2] ?? href[3] ?? '').trim() : '';
    if (!value) continue;
    try {
      const u = new URL(value, base);
      if (u.protocol === 'http:' || u.protocol === 'https:') return u.href;
    } catch {
      // try the next link
    }
  }
  return null;
}
