// Shapes of the Reader API (/api/reader, /api/admin/reader) as the web app reads them: items (list
// rows and the full article), collections, tags, the link probe, change history, the bookmarks
// import stream and request bodies. JSON is camelCase and timestamps are ISO strings.

// The item, collection, tag, change and probe shapes come from the server's schema (type-only).
export type {
  ArchiveState,
  Collection as ReaderCollection,
  FullReaderItem,
  ItemChange as ReaderChange,
  ItemStatus,
  ItemType,
  ProbeResult,
  ReaderItem,
  Tag as ReaderTag,
} from '../../../../server/modules/reader/schema.js';
import type { ItemStatus, ItemType, ReaderItem } from '../../../../server/modules/reader/schema.js';

export interface ImportProgress {
  processed: number;
  total: number;
  imported: number;
  skipped: number;
}

export interface ImportRowError {
  index: number;
  title: string | null;
  url: string | null;
  reason: string;
}

export interface ImportDone {
  imported: number;
  skipped: number;
  duplicates: number;
  collections: string[];
  errors: ImportRowError[];
}

export interface ImportEvents {
  progress: ImportProgress;
  done: ImportDone;
  error: { code: string; message: string };
}

export interface CreateItemBody {
  url: string;
  type?: ItemType;
  title?: string;
  collectionId?: string;
  collectionName?: string;
  tags?: string[];
  category?: string;
  useProxy?: boolean;
  useEmbed?: boolean;
}

export type PatchItemBody = Partial<{
  title: string;
  status: ItemStatus;
  collectionId: string | null;
  collectionName: string;
  tags: string[];
  category: string;
  useProxy: boolean;
  useEmbed: boolean;
  autoUpdate: boolean;
  autoUpdateIntervalMins: number | null;
  alertOnChange: boolean;
}>;

export const STATUS_TEXT: Record<ItemStatus, string> = { unread: 'Unread', reading: 'Reading', archived: 'Archived' };

/** The monitor's check intervals offered in the app (null = the server's default, daily). */
export const INTERVALS: ReadonlyArray<{ mins: number; label: string }> = [
  { mins: 60, label: 'Every hour' },
  { mins: 360, label: 'Every 6 hours' },
  { mins: 1440, label: 'Every day' },
  { mins: 10080, label: 'Every week' },
];

export const isBusy = (i: Pick<ReaderItem, 'archiveState'>) => i.archiveState === 'pending' || i.archiveState === 'fetching';

export const itemTitle = (i: Pick<ReaderItem, 'title' | 'url'>) => i.title?.trim() || hostOf(i.url) || i.url;

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

export const readerItemHref = (id: string) => `/reader/${encodeURIComponent(id)}`;
export const itemApi = (id: string) => `/api/reader/${encodeURIComponent(id)}`;

/** "unread" | "reading" ... from a free string, for the filters kept in the address bar. */
export const asStatus = (v: string | null): ItemStatus | null => (v === 'unread' || v === 'reading' || v === 'archived' ? v : null);
export const asType = (v: string | null): ItemType | null => (v === 'live' || v === 'offline' ? v : null);

/** Splits "a, b,c" into trimmed unique tags (case-insensitive). */
export function parseTags(text: string): string[] {
  const out: string[] = [];
  for (const t of text.split(',').map((s) => s.trim()).filter(Boolean)) if (!out.some((o) => o.toLowerCase() === t.toLowerCase())) out.push(t);
  return out;
}
