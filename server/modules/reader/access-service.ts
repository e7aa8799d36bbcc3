// Who sees what in Reader, and how a row is shown to them: an item is visible to its owner and,
// when global (ownerId null), to everyone; another user's item is 404, as is a global one on a
// member's edit routes (globals are edited only through the admin routes). Rows are decorated with
// tags, isGlobal, canEdit, isHidden (the `bookmarks.hidden` preference) and artifact URLs.
import { ownedOrNotFound, type UserActor } from '../../actor.js';
import type { UserPreferencesStore } from '../../db/kv.js';
import { NotFoundError } from '../../errors.js';
import { readableCaptureMessage } from './capture/messages.js';
import { archivePublicBase } from './files.js';
import { HIDDEN_PREFERENCE, type FullReaderItem, type ItemRecord, type ReaderItem } from './schema.js';
import type { ReaderStore } from './store.js';

/** Who is looking: a member (own + global, edits own) or an admin on the admin routes (globals). */
export type Viewer = { kind: 'user'; actor: UserActor } | { kind: 'admin'; actor: UserActor };

export interface ReaderAccessDeps {
  store: ReaderStore;
  preferences: UserPreferencesStore;
}

export const itemNotFound = () => new NotFoundError('That reader item does not exist.');
const artifactUrl = (id: string, rel: string | null) => (rel ? `${archivePublicBase(id)}${rel.split('/').map(encodeURIComponent).join('/')}` : null);
/** The local copy of the site's icon (the site's own address stays server-side, for the exports). */
const faviconRoute = (r: ItemRecord) => (r.faviconPath ? `/api/reader/${encodeURIComponent(r.id)}/favicon` : null);

export class ReaderAccess {
  constructor(private readonly deps: ReaderAccessDeps) {}

  // ---- lookups with scoping ----

  /** An item the user may see (own or global), else 404. For the AI seams as well. */
  async visibleItem(actor: UserActor, id: string): Promise<ItemRecord> {
    return ownedOrNotFound(actor, await this.deps.store.findById(id), itemNotFound, { household: true });
  }

  /** An item the user owns, else 404 (globals are edited on the admin routes). */
  async ownItem(actor: UserActor, id: string): Promise<ItemRecord> {
    return ownedOrNotFound(actor, await this.deps.store.findById(id), itemNotFound);
  }

  /** A global item, else 404. */
  async globalItem(id: string): Promise<ItemRecord> {
    const r = await this.deps.store.findById(id);
    if (!r || r.ownerId !== null) throw itemNotFound();
    return r;
  }

  // ---- decoration ----

  /** The global items this user hid (preference `bookmarks.hidden`). */
  async hiddenIds(userId: string): Promise<string[]> {
    const v = await this.deps.preferences.get<unknown>(userId, HIDDEN_PREFERENCE);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  decorate(r: ItemRecord, viewer: Viewer, hidden: Set<string>, tags: string[]): ReaderItem {
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
      // older items keep the message of their time: shown in today's words (no raw codes)
      archiveError: r.archiveError === null ? null : readableCaptureMessage(r.archiveError),
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

  async decorateMany(rows: ItemRecord[], viewer: Viewer): Promise<ReaderItem[]> {
    const [tags, hidden] = await Promise.all([this.deps.store.tagsFor(rows.map((r) => r.id)), this.hiddenIds(viewer.actor.id)]);
    const set = new Set(hidden);
    return rows.map((r) => this.decorate(r, viewer, set, tags.get(r.id) ?? []));
  }

  /** One decorated item with its content. */
  async full(r: ItemRecord, viewer: Viewer): Promise<FullReaderItem> {
    const [item] = await this.decorateMany([r], viewer);
    return { ...item!, contentHtml: r.contentHtml, contentText: r.contentText };
  }
}
