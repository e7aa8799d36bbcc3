// The Reader's API types (/api/reader, /api/admin/reader), re-exported from the server's schema,
// and the small helpers the Reader screens share. JSON is camelCase and timestamps are ISO strings.

// Every API shape comes from the server's schema (type-only): items, collections, tags, changes,
// the probe, the AI answers, the import stream's events and the request bodies.
export type {
  AdminItemListResponse,
  ArchiveState,
  AiStatusResponse,
  AskResponse,
  ChangesResponse,
  Collection as ReaderCollection,
  CollectionsResponse,
  CreateItemRequest as CreateItemBody,
  FullReaderItem,
  ImportErrorEvent,
  ImportProgress,
  ImportRowError,
  ImportSummary as ImportDone,
  ItemChange as ReaderChange,
  ItemListResponse,
  ItemResponse,
  ItemStatus,
  ItemType,
  PatchItemRequest as PatchItemBody,
  ProbeResult,
  ReaderItem,
  SummarizeResponse,
  Tag as ReaderTag,
  TagsResponse,
} from '../../../../server/modules/reader/schema.js';
import type { ImportErrorEvent, ImportEvents, ItemStatus, ItemType, ReaderItem } from '../../../../server/modules/reader/schema.js';

/** The import stream as the dialog reads it: the declared events and the runner's `error`. */
export type ImportStreamEvents = ImportEvents & { error: ImportErrorEvent };

export const STATUS_TEXT: Record<ItemStatus, string> = { unread: 'Unread', reading: 'Reading', archived: 'Archived' };

/** The monitor's check intervals offered in the app (null = the server's default, daily). */
export const INTERVALS: ReadonlyArray<{ mins: number; label: string }> = [
  { mins: 60, label: 'Every hour' },
  { mins: 360, label: 'Every 6 hours' },
  { mins: 1440, label: 'Every day' },
  { mins: 10080, label: 'Every week' },
];

export const isBusy = (i: Pick<ReaderItem, 'archiveState'>) => i.archiveState === 'pending' || i.archiveState === 'fetching';

/** The item's title, or for a link without one its address made readable: "127.0.0.1 › docs/setup". */
export const itemTitle = (i: Pick<ReaderItem, 'title' | 'url'>) => i.title?.trim() || readableUrl(i.url);

/** Host and path of an address, without the scheme, "www." and slashes at the ends; the query is left out. */
export function readableUrl(url: string): string {
  try {
    const u = new URL(url);
    const host = u.host.replace(/^www\./, '');
    let path = u.pathname.replace(/^\/+|\/+$/g, '');
    try {
      path = decodeURIComponent(path);
    } catch {
      // a broken escape: keep the path as written
    }
    return path ? `${host} › ${path.replace(/\/+/g, '/')}` : host;
  } catch {
    return url;
  }
}

/** What the banner says about the link just added, from its capture's state as the list shows it. */
export function saveNotice(item: ReaderItem): { text: string; failed: boolean } {
  const name = item.title?.trim() ? `“${item.title.trim()}”` : `the page from ${hostOf(item.url) || item.url}`;
  if (item.type !== 'offline') return { text: `Saved the link to ${itemTitle(item)}.`, failed: false };
  if (item.archiveState === 'failed') {
    return {
      text: `Saved the link to ${name}, but Hearth could not keep a copy to read offline. ${item.archiveError ?? ''} Use Retry on it below to try again.`.replace(/\s+/g, ' '),
      failed: true,
    };
  }
  if (item.archiveState === 'ready') return { text: `Saved ${name}. It is ready to read, even offline.`, failed: false };
  return { text: `Saved ${name}. Hearth is keeping a copy to read offline…`, failed: false };
}

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
