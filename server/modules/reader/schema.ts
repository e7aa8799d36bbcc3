// Reader request/response schemas, domain types and limits (the API contract lives in the spec's
// Reader section; JSON is camelCase, tables snake_case).
import { z } from 'zod';
import { Availability } from '../tools/schema.js';

export const MAX_URL_CHARS = 2048;
export const MAX_TITLE_CHARS = 500;
export const MAX_TAGS_PER_ITEM = 20;
/** A tag's name: the API refuses a longer one, an import cuts it (the AI's own, stricter cap is MAX_AI_TAG_CHARS in ai-service.ts). */
export const MAX_TAG_CHARS = 50;
export const MAX_COLLECTION_NAME_CHARS = 100;
export const MAX_CATEGORY_CHARS = 60;
export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 200;
export const MAX_QUERY_CHARS = 500;
export const MAX_THUMBNAIL_BYTES = 2 * 1024 * 1024;
export const MAX_SNAPSHOT_BYTES = 15 * 1024 * 1024;
/** Room one capture may need on the data disk: its resources (150 MB at most), the page and its picture. */
export const CAPTURE_ROOM_BYTES = 180 * 1024 * 1024;
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/** The probe reads at most this much of a page to find its <title> and icon links. */
export const PROBE_MAX_BYTES = 256 * 1024;
export const PROBE_TIMEOUT_MS = 10_000;
/** The legacy embed proxy refuses bodies above this size. */
export const PROXY_MAX_BYTES = 20 * 1024 * 1024;
/** The local copy of a site's icon: larger answers are refused, slower ones given up on. */
export const FAVICON_MAX_BYTES = 256 * 1024;
export const FAVICON_TIMEOUT_MS = 5_000;
/** Icons sharp can read are stored as a PNG of this size (ICO is kept as it came). */
export const FAVICON_SIZE_PX = 64;
export const ADMIN_DEFAULT_CATEGORY = 'Services';
export const HIDDEN_PREFERENCE = 'bookmarks.hidden';

/** Served for every file under /:id/archive/ and by the embed proxy: no scripts, no connections, sandboxed. */
export const ARCHIVE_CSP =
  "sandbox; default-src 'none'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; font-src 'self' data:; media-src 'self'";

export const ItemType = z.enum(['live', 'offline']);
export type ItemType = z.infer<typeof ItemType>;
export const ItemSource = z.enum(['bookmark', 'article', 'feed']);
export type ItemSource = z.infer<typeof ItemSource>;
export const ItemStatus = z.enum(['unread', 'reading', 'archived']);
export type ItemStatus = z.infer<typeof ItemStatus>;
export const ArchiveState = z.enum(['none', 'pending', 'fetching', 'ready', 'failed']);
export type ArchiveState = z.infer<typeof ArchiveState>;
export type ThumbnailState = 'none' | 'pending' | 'ready' | 'failed';

/** A stored item as the store returns it (server-side fields included). */
export interface ItemRecord {
  seq: number;
  id: string;
  ownerId: string | null;
  source: ItemSource;
  sourceRef: string | null;
  type: ItemType;
  url: string;
  title: string | null;
  byline: string | null;
  siteName: string | null;
  faviconUrl: string | null;
  excerpt: string | null;
  contentHtml: string | null;
  contentText: string | null;
  wordCount: number | null;
  readingMins: number | null;
  status: ItemStatus;
  archiveState: ArchiveState;
  archiveError: string | null;
  readAt: string | null;
  useProxy: boolean;
  useEmbed: boolean;
  category: string;
  collectionId: string | null;
  sortOrder: number;
  autoUpdate: boolean;
  autoUpdateIntervalMins: number | null;
  alertOnChange: boolean;
  contentHash: string | null;
  lastCheckedAt: string | null;
  contentChangedAt: string | null;
  screenshotPath: string | null;
  snapshotPath: string | null;
  ogImagePath: string | null;
  thumbnailPath: string | null;
  thumbnailState: ThumbnailState;
  /** The local copy of the site's icon in the item's folder (favicon.png or favicon.ico), or null. */
  faviconPath: string | null;
  isAdult: boolean;
  createdAt: string;
  updatedAt: string;
}

export const ReaderItem = z.object({
  id: z.string(),
  ownerId: z.string().nullable(),
  source: ItemSource,
  sourceRef: z.string().nullable(),
  type: ItemType,
  url: z.string(),
  title: z.string().nullable(),
  byline: z.string().nullable(),
  siteName: z.string().nullable(),
  /** Hearth's own copy of the site's icon (/api/reader/:id/favicon), or null when it has none. */
  faviconUrl: z.string().nullable(),
  excerpt: z.string().nullable(),
  wordCount: z.number().int().nullable(),
  readingMins: z.number().int().nullable(),
  status: ItemStatus,
  archiveState: ArchiveState,
  archiveError: z.string().nullable(),
  readAt: z.string().nullable(),
  useProxy: z.boolean(),
  useEmbed: z.boolean(),
  category: z.string(),
  collectionId: z.string().nullable(),
  sortOrder: z.number().int(),
  autoUpdate: z.boolean(),
  autoUpdateIntervalMins: z.number().int().nullable(),
  alertOnChange: z.boolean(),
  lastCheckedAt: z.string().nullable(),
  contentChangedAt: z.string().nullable(),
  isAdult: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  tags: z.array(z.string()),
  isGlobal: z.boolean(),
  canEdit: z.boolean(),
  isHidden: z.boolean(),
  snapshotUrl: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
});
export type ReaderItem = z.infer<typeof ReaderItem>;

export const FullReaderItem = ReaderItem.extend({ contentHtml: z.string().nullable(), contentText: z.string().nullable() });
export type FullReaderItem = z.infer<typeof FullReaderItem>;

export const ItemListResponse = z.object({ items: z.array(ReaderItem), total: z.number().int() });
export type ItemListResponse = z.infer<typeof ItemListResponse>;
/** GET /api/admin/reader: every global item, unpaged. */
export const AdminItemListResponse = z.object({ items: z.array(ReaderItem) });
export type AdminItemListResponse = z.infer<typeof AdminItemListResponse>;
/** One item with its content: create, get, change, rearchive, snapshot, thumbnail. */
export const ItemResponse = z.object({ item: FullReaderItem });
export type ItemResponse = z.infer<typeof ItemResponse>;
/** PUT and DELETE /hide/:id: the ids the member now hides. */
export const HiddenResponse = z.object({ hidden: z.array(z.string()) });
export type HiddenResponse = z.infer<typeof HiddenResponse>;

export const Collection = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  color: z.string().nullable(),
  sortOrder: z.number().int(),
  itemCount: z.number().int(),
});
export type Collection = z.infer<typeof Collection>;

export const CollectionsResponse = z.object({ collections: z.array(Collection) });
export type CollectionsResponse = z.infer<typeof CollectionsResponse>;
export const CollectionResponse = z.object({ collection: Collection });
export type CollectionResponse = z.infer<typeof CollectionResponse>;

export const Tag = z.object({ id: z.string(), name: z.string(), itemCount: z.number().int() });
export type Tag = z.infer<typeof Tag>;
export const TagsResponse = z.object({ tags: z.array(Tag) });
export type TagsResponse = z.infer<typeof TagsResponse>;

export const ItemChange = z.object({
  id: z.number().int(),
  checkedAt: z.string(),
  changed: z.boolean(),
  wordCount: z.number().int().nullable(),
  previousWordCount: z.number().int().nullable(),
  excerpt: z.string().nullable(),
});
export type ItemChange = z.infer<typeof ItemChange>;
export const ChangesResponse = z.object({ changes: z.array(ItemChange) });
export type ChangesResponse = z.infer<typeof ChangesResponse>;

/** POST /:id/summarize: the item (own items keep the summary as excerpt and gain the tags). */
export const SummarizeResponse = z.object({ item: FullReaderItem, summary: z.string(), tags: z.array(z.string()) });
export type SummarizeResponse = z.infer<typeof SummarizeResponse>;
export const AskResponse = z.object({ answer: z.string() });
export type AskResponse = z.infer<typeof AskResponse>;

/**
 * GET /ai-status: whether Summarize and Ask can work now; when not, why and the fix, in words. The
 * same answer the Features page and the App Store give for chat (FeaturesService.chatReadiness).
 */
export const AiStatusResponse = Availability;
export type AiStatusResponse = z.infer<typeof AiStatusResponse>;

/** GET /probe: whether the page answers, may be framed, and its title and icon. */
export const ProbeResult = z.object({
  reachable: z.boolean(),
  framesBlocked: z.boolean(),
  faviconUrl: z.string().nullable(),
  title: z.string().nullable(),
});
export type ProbeResult = z.infer<typeof ProbeResult>;

// ---- the bookmarks import stream (POST /import/html) ----

export const ImportProgress = z.object({
  processed: z.number().int(),
  total: z.number().int(),
  imported: z.number().int(),
  skipped: z.number().int(),
});
export type ImportProgress = z.infer<typeof ImportProgress>;

/** A row of the file that could not be imported. */
export const ImportRowError = z.object({ index: z.number().int(), title: z.string().nullable(), url: z.string().nullable(), reason: z.string() });
export type ImportRowError = z.infer<typeof ImportRowError>;

export const ImportSummary = z.object({
  imported: z.number().int(),
  skipped: z.number().int(),
  duplicates: z.number().int(),
  collections: z.array(z.string()),
  errors: z.array(ImportRowError),
});
export type ImportSummary = z.infer<typeof ImportSummary>;

/** The import stream's events: progress after every saved chunk, then done. */
export const ImportEvents = z.object({ progress: ImportProgress, done: ImportSummary });
export type ImportEvents = z.infer<typeof ImportEvents>;
/**
 * The import's `error` event, which the stream runner sends (not declared in ImportEvents): a
 * failure midway (ImportFailedError in transfer-service.ts) also says how many links were saved.
 */
export const ImportErrorEvent = z.object({ code: z.string(), message: z.string(), imported: z.number().int().optional() });
export type ImportErrorEvent = z.infer<typeof ImportErrorEvent>;

// ---- requests ----

const HttpUrl = z
  .string()
  .trim()
  .min(1)
  .max(MAX_URL_CHARS)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'Give a full http or https address.');

const TagName = z
  .string()
  .transform((s) => s.replace(/\s+/g, ' ').trim())
  .pipe(z.string().min(1, 'Tags cannot be empty.').max(MAX_TAG_CHARS));
const TagList = z.array(TagName).max(MAX_TAGS_PER_ITEM);
const CollectionName = z.string().trim().min(1).max(MAX_COLLECTION_NAME_CHARS);
const Category = z.string().trim().min(1).max(MAX_CATEGORY_CHARS);
const Title = z.string().trim().max(MAX_TITLE_CHARS);
const IntervalMins = z.number().int().min(5).max(60 * 24 * 365);
const Id = z.string().min(1).max(64);

export const ItemIdParams = z.object({ id: Id });
export const CollectionIdParams = z.object({ id: Id });

export const ListQuery = z.object({
  status: ItemStatus.optional(),
  type: ItemType.optional(),
  collectionId: Id.optional(),
  tag: z.string().max(MAX_TAG_CHARS * 2).optional(),
  q: z.string().max(MAX_QUERY_CHARS).optional(),
  hidden: z.enum(['include', 'exclude']).default('include'),
  limit: z.coerce.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type ListQuery = z.infer<typeof ListQuery>;

/** What a new item and a change to one may both set. */
const ItemOptions = {
  collectionId: Id.nullable().optional(),
  collectionName: CollectionName.optional(),
  tags: TagList.optional(),
  category: Category.optional(),
  useProxy: z.boolean().optional(),
  useEmbed: z.boolean().optional(),
  autoUpdate: z.boolean().optional(),
  autoUpdateIntervalMins: IntervalMins.nullable().optional(),
  alertOnChange: z.boolean().optional(),
  isAdult: z.boolean().optional(),
};

export const CreateItemBody = z.object({
  url: HttpUrl,
  type: ItemType.default('offline'),
  title: Title.optional(),
  ...ItemOptions,
});
export type CreateItemBody = z.infer<typeof CreateItemBody>;
/** What a client sends (defaults not yet applied). */
export type CreateItemRequest = z.input<typeof CreateItemBody>;

export const PatchItemBody = z
  .object({
    url: HttpUrl.optional(),
    title: Title.nullable().optional(),
    status: ItemStatus.optional(),
    sortOrder: z.number().int().min(-1_000_000).max(1_000_000).optional(),
    ...ItemOptions,
  })
  .strict();
export type PatchItemBody = z.infer<typeof PatchItemBody>;
export type PatchItemRequest = z.input<typeof PatchItemBody>;

export const AdminCreateBody = CreateItemBody.omit({ type: true, collectionId: true, collectionName: true });
export type AdminCreateBody = z.infer<typeof AdminCreateBody>;
export const AdminPatchBody = PatchItemBody.omit({ collectionId: true, collectionName: true });

export const SnapshotBody = z.object({ html: z.string().min(1), url: HttpUrl });
export type SnapshotBody = z.infer<typeof SnapshotBody>;

export const ProbeQuery = z.object({ url: z.string().trim().min(1).max(MAX_URL_CHARS) });

export const CreateCollectionBody = z.object({
  name: CollectionName,
  icon: z.string().trim().max(16).nullable().optional(),
  color: z.string().trim().max(32).nullable().optional(),
});
export type CreateCollectionBody = z.infer<typeof CreateCollectionBody>;
export const PatchCollectionBody = z
  .object({
    name: CollectionName.optional(),
    icon: z.string().trim().max(16).nullable().optional(),
    color: z.string().trim().max(32).nullable().optional(),
    sortOrder: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  })
  .strict();
export type PatchCollectionBody = z.infer<typeof PatchCollectionBody>;

export const ImportQuery = z.object({ type: ItemType.default('live') });

/** What captureNow() tells its caller (the archive job, the change monitor). */
export interface CaptureOutcome {
  changed: boolean;
  previousHash: string | null;
  newHash: string;
}
