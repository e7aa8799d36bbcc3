// A member's reader items and the household's global ones: list and search, create, read, change,
// delete, re-capture, the browser's snapshot and thumbnail, change history, the AI summary seam,
// hiding globals (preference `bookmarks.hidden`) and the admin routes' global items. Captures
// themselves are the queue's (jobs.ts); an address Hearth will fetch passes the SSRF guard first.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import type { UserActor } from '../../actor.js';
import type { UserPreferencesStore } from '../../db/kv.js';
import { BadRequestError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { BlockedUrlError, OfflineModeError, type SsrfGuard } from '../../platform/ssrf.js';
import { itemNotFound as notFound, type ReaderAccess } from './access-service.js';
import type { ReaderCollectionsService } from './collections-service.js';
import { buildAnyMatch, buildMatch } from '../search/public.js';
import { clientSnapshotFile, isPng, itemDir, readerRoot } from './files.js';
import type { ReaderCaptureQueue } from './jobs.js';
import { refusal } from './probe-service.js';
import {
  ADMIN_DEFAULT_CATEGORY,
  HIDDEN_PREFERENCE,
  type AdminCreateBody,
  type CreateItemBody,
  type FullReaderItem,
  type ItemChange,
  type ItemRecord,
  type ListQuery,
  type PatchItemBody,
  type ReaderItem,
  type SnapshotBody,
} from './schema.js';
import { newItemRecord, type NewItem } from './item-rows.js';
import type { ReaderSearchStore } from './search-store.js';
import type { ReaderStore } from './store.js';

export interface ReaderItemsDeps {
  store: ReaderStore;
  /** The listing and full-text search. */
  search: ReaderSearchStore;
  access: ReaderAccess;
  collections: ReaderCollectionsService;
  queue: ReaderCaptureQueue;
  preferences: UserPreferencesStore;
  guard: SsrfGuard;
  clock: Clock;
  dataDir: string;
}

export class ReaderItemsService {
  constructor(private readonly deps: ReaderItemsDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  // ---- items ----

  async list(actor: UserActor, q: ListQuery): Promise<{ items: ReaderItem[]; total: number }> {
    let match: string | undefined;
    if (q.q !== undefined && q.q.trim() !== '') {
      const m = buildMatch(q.q);
      if (m === null) return { items: [], total: 0 };
      match = m;
    }
    const excludeIds = q.hidden === 'exclude' ? await this.deps.access.hiddenIds(actor.id) : undefined;
    const { rows, total } = await this.deps.search.list({
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
    return { items: await this.deps.access.decorateMany(rows, { kind: 'user', actor }), total };
  }

  /**
   * Unified search and chat's reader_search: the caller's own and household items matching the
   * words, best first (the same FTS search and visibility as list), household items the caller
   * hid left out. `anyWord` finds items with any of the words instead of all of them.
   */
  async find(actor: UserActor, words: string, limit: number, opts: { anyWord?: boolean } = {}): Promise<ReaderItem[]> {
    const match = opts.anyWord ? buildAnyMatch(words.split(/\s+/)) : buildMatch(words);
    if (match === null) return [];
    const hidden = await this.deps.access.hiddenIds(actor.id);
    const { rows } = await this.deps.search.list({ viewerId: actor.id, match, excludeIds: hidden.length ? hidden : undefined, limit, offset: 0 });
    return this.deps.access.decorateMany(rows, { kind: 'user', actor });
  }

  async create(actor: UserActor, body: CreateItemBody): Promise<FullReaderItem> {
    this.checkFetchable(body.url, body);
    const collectionId = await this.deps.collections.resolve(actor, body.collectionId, body.collectionName);
    const rec = await this.deps.store.insert(this.recordFromBody(body, { ownerId: actor.id, type: body.type, category: 'Other', collectionId: collectionId ?? null }), body.tags ?? []);
    this.deps.queue.poke();
    return this.deps.access.full(rec, { kind: 'user', actor });
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
    return this.deps.access.full(await this.deps.access.visibleItem(actor, id), { kind: 'user', actor });
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
    const r = await this.deps.access.ownItem(actor, id);
    this.checkPatchFetchable(r, body);
    const patch = this.patchFields(r, body);
    const collectionId = await this.deps.collections.resolve(actor, body.collectionId, body.collectionName);
    if (collectionId !== undefined) patch.collectionId = collectionId;
    if (!(await this.deps.store.update(id, patch, body.tags, this.now()))) throw notFound();
    if (patch.archiveState === 'pending') this.deps.queue.poke();
    return this.deps.access.full((await this.deps.store.findById(id))!, { kind: 'user', actor });
  }

  private async removeFiles(id: string): Promise<void> {
    this.deps.queue.cancel(id);
    await rm(itemDir(this.deps.dataDir, id), { recursive: true, force: true });
    await rm(clientSnapshotFile(this.deps.dataDir, id), { force: true });
  }

  /**
   * Removes the saved files of items that no longer exist: a deleted member's items go with their
   * row (ON DELETE CASCADE) and leave their folders behind. Only `<id>` folders and
   * `<id>.client-snapshot.json` files are looked at; a capture's `<id>.tmp-…` folder is its own.
   */
  async removeOrphanFiles(): Promise<number> {
    let names: string[];
    try {
      names = await readdir(readerRoot(this.deps.dataDir));
    } catch {
      return 0;
    }
    const snapshot = '.client-snapshot.json';
    const ids = new Set<string>();
    for (const name of names) {
      if (name.endsWith(snapshot)) ids.add(name.slice(0, -snapshot.length));
      else if (!name.includes('.')) ids.add(name);
    }
    const existing = await this.deps.store.existingIds([...ids]);
    let removed = 0;
    for (const id of ids) {
      if (existing.has(id)) continue;
      await this.removeFiles(id);
      removed++;
    }
    return removed;
  }

  async remove(actor: UserActor, id: string): Promise<void> {
    await this.deps.access.ownItem(actor, id);
    if (!(await this.deps.store.delete(id))) throw notFound();
    await this.removeFiles(id);
  }

  /** Re-capture from any state: offline and monitored items get a full archive, live links a new thumbnail. */
  async rearchive(actor: UserActor, id: string): Promise<FullReaderItem> {
    const r = await this.deps.access.ownItem(actor, id);
    const now = this.now();
    const patch: Partial<ItemRecord> =
      r.type === 'offline' || r.autoUpdate ? { archiveState: 'pending', archiveError: null, updatedAt: now } : { thumbnailState: 'pending', updatedAt: now };
    await this.deps.store.update(id, patch);
    this.deps.queue.poke();
    return this.deps.access.full((await this.deps.store.findById(id))!, { kind: 'user', actor });
  }

  /** The DOM the user's browser rendered becomes the capture's first source. */
  async snapshot(actor: UserActor, id: string, body: SnapshotBody): Promise<FullReaderItem> {
    await this.deps.access.ownItem(actor, id);
    await mkdir(readerRoot(this.deps.dataDir), { recursive: true });
    await writeFile(clientSnapshotFile(this.deps.dataDir, id), JSON.stringify({ html: body.html, url: body.url }));
    await this.deps.store.update(id, { archiveState: 'pending', archiveError: null, updatedAt: this.now() });
    this.deps.queue.poke();
    return this.deps.access.full((await this.deps.store.findById(id))!, { kind: 'user', actor });
  }

  async setThumbnail(actor: UserActor, id: string, png: Buffer): Promise<FullReaderItem> {
    await this.deps.access.ownItem(actor, id);
    if (!isPng(png)) throw new BadRequestError('The thumbnail must be a PNG image.', undefined, 'invalid_image');
    const dir = itemDir(this.deps.dataDir, id);
    await mkdir(dir, { recursive: true });
    await writeFile(`${dir}/thumbnail.png`, png);
    if (!(await this.deps.store.update(id, { thumbnailPath: 'thumbnail.png', updatedAt: this.now() }))) {
      await rm(dir, { recursive: true, force: true });
      throw notFound();
    }
    return this.deps.access.full((await this.deps.store.findById(id))!, { kind: 'user', actor });
  }

  async changes(actor: UserActor, id: string): Promise<ItemChange[]> {
    await this.deps.access.visibleItem(actor, id);
    return this.deps.store.changes(id);
  }

  /** For the AI seam: persist a summary and tags on an own item. */
  async applySummary(actor: UserActor, id: string, excerpt: string, tags: string[]): Promise<FullReaderItem> {
    await this.deps.access.ownItem(actor, id);
    await this.deps.store.update(id, { excerpt, updatedAt: this.now() }, tags, this.now());
    return this.deps.access.full((await this.deps.store.findById(id))!, { kind: 'user', actor });
  }

  // ---- hide / unhide ----

  async hide(actor: UserActor, id: string): Promise<{ hidden: string[] }> {
    await this.deps.access.globalItem(id);
    const hidden = await this.deps.access.hiddenIds(actor.id);
    if (!hidden.includes(id)) hidden.push(id);
    await this.deps.preferences.set(actor.id, HIDDEN_PREFERENCE, hidden);
    return { hidden };
  }

  async unhide(actor: UserActor, id: string): Promise<{ hidden: string[] }> {
    const hidden = await this.deps.access.hiddenIds(actor.id);
    if (!hidden.includes(id)) await this.deps.access.globalItem(id);
    const next = hidden.filter((h) => h !== id);
    await this.deps.preferences.set(actor.id, HIDDEN_PREFERENCE, next);
    return { hidden: next };
  }

  // ---- admin: global items ----

  async adminList(actor: UserActor): Promise<{ items: ReaderItem[] }> {
    const { rows } = await this.deps.search.list({ viewerId: null, limit: 10_000, offset: 0 });
    return { items: await this.deps.access.decorateMany(rows, { kind: 'admin', actor }) };
  }

  async adminCreate(actor: UserActor, body: AdminCreateBody): Promise<FullReaderItem> {
    this.checkFetchable(body.url, { ...body, type: 'live' });
    const rec = await this.deps.store.insert(this.recordFromBody(body, { ownerId: null, type: 'live', category: ADMIN_DEFAULT_CATEGORY, collectionId: null }), body.tags ?? []);
    this.deps.queue.poke();
    return this.deps.access.full(rec, { kind: 'admin', actor });
  }

  async adminUpdate(actor: UserActor, id: string, body: PatchItemBody): Promise<FullReaderItem> {
    const r = await this.deps.access.globalItem(id);
    this.checkPatchFetchable(r, body);
    const patch = this.patchFields(r, body);
    if (!(await this.deps.store.update(id, patch, body.tags, this.now()))) throw notFound();
    if (patch.archiveState === 'pending') this.deps.queue.poke();
    return this.deps.access.full((await this.deps.store.findById(id))!, { kind: 'admin', actor });
  }

  async adminRemove(_actor: UserActor, id: string): Promise<void> {
    await this.deps.access.globalItem(id);
    if (!(await this.deps.store.delete(id))) throw notFound();
    await this.removeFiles(id);
  }
}
