import { z } from 'zod';

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
