import { z } from 'zod';
import { Level } from '../content/schema.js';
import type { publicError } from '../../errors.js';

export const MAX_REDIRECT_HOPS = 10;
export const ARCHIVE_READY_TIMEOUT_MS = 60_000;
export const DEFAULT_SEARCH_LIMIT = 5;

export const CatalogVariant = z.object({
  key: z.string().min(1),
  label: z.string(),
  url: z.string().url(),
  sizeBytes: z.number().int().positive(),
  sha256: z.string().regex(/^[a-f0-9]{64}$/i).optional(),
  date: z.string().regex(/^\d{4}-\d{2}$/),
  language: z.string(),
});
export type CatalogVariant = z.infer<typeof CatalogVariant>;

export const CatalogSource = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'source ids are lower-case letters, digits, - and _'),
  label: z.string(),
  description: z.string(),
  category: z.string(),
  bookCategory: z.string().optional(),
  faviconUrl: z.string(),
  variants: z.array(CatalogVariant).min(1),
});
export type CatalogSource = z.infer<typeof CatalogSource>;

export const ArchiveCatalog = z
  .object({ sources: z.array(CatalogSource) })
  .refine((c) => new Set(c.sources.map((s) => s.id)).size === c.sources.length, 'source ids must be unique');
export type ArchiveCatalog = z.infer<typeof ArchiveCatalog>;

export interface ArchiveRecord {
  id: number;
  sourceId: string;
  variantKey: string;
  bookName: string | null;
  filePath: string;
  fileSizeBytes: number;
  zimDate: string | null;
  downloadedAt: string;
  verifiedAt: string | null;
  quarantinedAt: string | null;
  quarantineReason: string | null;
  createdAt: string;
  updatedAt: string;
  /** Members below this content level do not see the archive (an admin's to set; `teen` by default). */
  contentLevel: Level;
}

const SourceId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,99}$/, 'source ids are lower-case letters, digits, - and _');
export const SourceParams = z.object({ sourceId: SourceId });

export const MAX_SEARCH_LIMIT = 20;
export const MAX_SEARCH_SOURCES = 20;

/** GET /api/archives/search?q=&sources=a,b&limit= (sources also as repeated keys; none = every installed archive). */
export const SearchQuery = z.object({
  q: z.string().trim().min(1, 'type something to search for').max(200),
  sources: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => [...new Set((Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean))])
    .pipe(z.array(SourceId).max(MAX_SEARCH_SOURCES)),
  limit: z.coerce.number().int().min(1).max(MAX_SEARCH_LIMIT).default(DEFAULT_SEARCH_LIMIT),
});
export type SearchQuery = z.infer<typeof SearchQuery>;
/** POST /api/admin/archives/download/:sourceId: which variant to download (default: the first). */
export const DownloadBody = z.object({ variantKey: z.string().min(1).max(100).optional() });
export const ViewQuery = z.object({ pattern: z.string().max(500).optional() });

// ---- responses ----

/** The archive server's state as the supervisor reports it. */
export const ArchiveServerState = z.enum(['idle', 'starting', 'ready', 'failed']);
export type ArchiveServerState = z.infer<typeof ArchiveServerState>;

/** GET /api/archives/installed: one installed, healthy archive. */
export const InstalledArchive = z.object({
  id: z.number().int(),
  sourceId: z.string(),
  variantKey: z.string(),
  bookName: z.string().nullable(),
  fileSizeBytes: z.number().int().nonnegative(),
  zimDate: z.string().nullable(),
  downloadedAt: z.string(),
  verifiedAt: z.string().nullable(),
  label: z.string(),
  description: z.string(),
  category: z.string(),
  bookCategory: z.string().nullable(),
  faviconUrl: z.string().nullable(),
  zimIconUrl: z.string(),
  /** The archive server is serving it right now. */
  ready: z.boolean(),
  /** The content level a member needs to see it (members below it are never shown it). */
  level: Level,
});
export type InstalledArchive = z.infer<typeof InstalledArchive>;
export const InstalledArchivesResponse = z.object({
  archives: z.array(InstalledArchive),
  /** Some healthy installed archive is above the member's Archives level (the Library says so). */
  hiddenByContent: z.boolean(),
});
export type InstalledArchivesResponse = z.infer<typeof InstalledArchivesResponse>;

/** GET /api/archives/status. */
export const ArchivesStatus = z.object({
  kiwixInstalled: z.boolean(),
  kiwixState: ArchiveServerState,
  /** Why the archive server is not running, written for people. */
  kiwixError: z.string().nullable(),
  installedCount: z.number().int().nonnegative(),
});
export type ArchivesStatus = z.infer<typeof ArchivesStatus>;

/** GET /api/archives/search (and chat's archive search): hits in priority order. */
export const ArchiveSearchResponse = z.object({
  gist: z.string(),
  highlights: z.array(z.string()),
  sources: z.array(z.object({ sourceId: z.string(), title: z.string(), url: z.string(), snippet: z.string() })),
});
export type ArchiveSearchResponse = z.infer<typeof ArchiveSearchResponse>;

/** GET /api/admin/archives/catalog: each catalog source with what is installed and whether it downloads. */
export const CatalogEntry = CatalogSource.extend({
  installed: z
    .object({
      variantKey: z.string(),
      fileSizeBytes: z.number().int().nonnegative(),
      zimDate: z.string().nullable(),
      verifiedAt: z.string().nullable(),
      quarantinedAt: z.string().nullable(),
      quarantineReason: z.string().nullable(),
      /** The content level a member needs to see it (PUT /api/admin/content/archives/:sourceId). */
      level: Level,
    })
    .nullable(),
  downloading: z.boolean(),
});
export type CatalogEntry = z.infer<typeof CatalogEntry>;
export const ArchiveCatalogResponse = z.object({
  sources: z.array(CatalogEntry),
  /** The supervisor's view of the archive server (the web app reads GET /api/archives/status instead). */
  status: z.object({
    state: ArchiveServerState,
    error: z.string().nullable(),
    pid: z.number().int().nullable(),
    restarts: z.number().int().nonnegative(),
    since: z.string(),
    installed: z.boolean(),
  }),
});
export type ArchiveCatalogResponse = z.infer<typeof ArchiveCatalogResponse>;

/** A download's `progress` event (paced, download-events.ts). */
export const DownloadProgress = z.object({
  bytesDone: z.number().int().nonnegative(),
  bytesTotal: z.number().int().nonnegative().nullable(),
  speedBps: z.number().int().nonnegative(),
  etaSeconds: z.number().int().nonnegative().nullable(),
});
export type DownloadProgress = z.infer<typeof DownloadProgress>;

/**
 * POST /api/admin/archives/download/:sourceId (the starter's stream) and GET of the same path (a
 * watcher's): the same events; a watcher is also sent the failure as `error` {code, message}.
 */
export const ArchiveDownloadEvents = z.object({
  status: z.discriminatedUnion('state', [
    z.object({ state: z.literal('downloading'), sourceId: z.string(), variantKey: z.string(), bytesTotal: z.number().int().positive() }),
    z.object({ state: z.enum(['verifying', 'installing']) }),
  ]),
  progress: DownloadProgress,
  done: z.object({
    sourceId: z.string(),
    variantKey: z.string(),
    bytes: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[a-f0-9]{64}$/),
    /** Bytes that were already on disk from an earlier attempt. */
    resumedFrom: z.number().int().nonnegative(),
    /** The archive server serves it now. */
    served: z.boolean(),
  }),
  cancelled: z.object({ sourceId: z.string() }),
});
export type ArchiveDownloadEvents = z.infer<typeof ArchiveDownloadEvents>;

/** POST /api/admin/archives/install-kiwix: installing the archive server while the admin watches. */
export const RuntimeInstallEvents = z.object({
  status: z.discriminatedUnion('state', [
    z.object({ state: z.literal('downloading'), url: z.string() }),
    z.object({ state: z.enum(['extracting', 'placing', 'starting']) }),
  ]),
  progress: DownloadProgress,
  done: z.object({
    installed: z.literal(true),
    kiwixState: ArchiveServerState,
    kiwixError: z.string().nullable(),
    installedCount: z.number().int().nonnegative(),
  }),
});
export type RuntimeInstallEvents = z.infer<typeof RuntimeInstallEvents>;

/** The `error` event every stream may end with (added by the stream runner, http/sse.ts). */
export type ArchiveStreamError = ReturnType<typeof publicError>;

export const CancelDownloadResponse = z.object({ cancelled: z.literal(true) });
export const DeleteArchiveResponse = z.object({ deleted: z.literal(true) });
export const VerifyArchivesResponse = z.object({
  results: z.array(z.object({ sourceId: z.string(), ok: z.boolean(), reason: z.string().nullable() })),
});
export type VerifyArchivesResponse = z.infer<typeof VerifyArchivesResponse>;
export type VerifyResult = VerifyArchivesResponse['results'][number];

/** PUT /api/admin/content/archives/:sourceId. */
export const ArchiveLevelBody = z.object({ level: Level }).strict();
export const ArchiveLevelResponse = z.object({ sourceId: z.string(), level: Level });
