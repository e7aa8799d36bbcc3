// The Reader's API calls as hooks (TanStack Query, see api/query.ts). Every answer lives under
// READER_KEY: the list (its filters and search are part of the key), one item, its change history,
// collections, tags, the AI status and the admin's household links. Each write invalidates exactly
// the keys whose answers it changes, so the list, the article and the sidebar agree without a reload.
// An item whose copy is still being saved is read again every 2 s (the item, or the list showing
// it) until its capture is ready or failed; a hidden tab stops asking (the library's rule).
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { openPostStream, RawBody } from '../../api/sse';
import {
  isBusy,
  itemApi,
  type AdminItemListResponse,
  type AiStatusResponse,
  type AskResponse,
  type ChangesResponse,
  type CollectionsResponse,
  type CreateItemBody,
  type FullReaderItem,
  type ImportDone,
  type ImportProgress,
  type ImportStreamEvents,
  type ItemListResponse,
  type ItemResponse,
  type ItemStatus,
  type ItemType,
  type PatchItemBody,
  type ReaderItem,
  type SummarizeResponse,
  type TagsResponse,
} from './types';

/** How often an item still being saved is read again. */
export const CAPTURE_POLL_MS = 2_000;

export const READER_KEY = ['reader'] as const;
const ITEMS_KEY = [...READER_KEY, 'items'] as const;
const ITEM_KEY = [...READER_KEY, 'item'] as const;
const COLLECTIONS_KEY = [...READER_KEY, 'collections'] as const;
const TAGS_KEY = [...READER_KEY, 'tags'] as const;
const AI_KEY = [...READER_KEY, 'ai-status'] as const;
const ADMIN_KEY = [...READER_KEY, 'admin'] as const;
const itemKey = (id: string) => [...ITEM_KEY, id] as const;
const changesKey = (id: string) => [...ITEM_KEY, id, 'changes'] as const;

export interface ReaderFilters {
  status: ItemStatus | null;
  type: ItemType | null;
  collectionId: string | null;
  tag: string | null;
  q: string;
  limit: number;
}

function listUrl(f: ReaderFilters): string {
  const s = new URLSearchParams();
  if (f.status) s.set('status', f.status);
  if (f.type) s.set('type', f.type);
  if (f.collectionId) s.set('collectionId', f.collectionId);
  if (f.tag) s.set('tag', f.tag);
  if (f.q) s.set('q', f.q);
  s.set('limit', String(f.limit));
  return `/api/reader?${s}`;
}

/**
 * The list for these filters. Read again every 2 s while an item in it is still being saved, or
 * while `follow` (a link just added) is and these filters do not show it; the previous answer stays
 * on screen while a changed filter loads.
 */
export function useReaderItems(filters: ReaderFilters, follow: ReaderItem | null = null) {
  return useQuery({
    queryKey: [...ITEMS_KEY, filters],
    queryFn: ({ signal }) => api.get<ItemListResponse>(listUrl(filters), { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      const rows = query.state.data?.items ?? [];
      const following = follow !== null && isBusy(follow) && !rows.some((i) => i.id === follow.id);
      return following || rows.some(isBusy) ? CAPTURE_POLL_MS : false;
    },
  });
}

/** One item with its article; read again every 2 s while its copy is being saved. */
export function useReaderItem(id: string) {
  return useQuery({
    queryKey: itemKey(id),
    queryFn: ({ signal }) => api.get<ItemResponse>(itemApi(id), { signal }).then((r) => r.item),
    refetchInterval: (query) => (query.state.data && isBusy(query.state.data) ? CAPTURE_POLL_MS : false),
  });
}

/**
 * The watch history of one item; its key changes when the item says it was checked again. Not
 * asked for while `enabled` is false (the Article waits until its text is on screen).
 */
export function useItemChanges(id: string, lastCheckedAt: string | null, enabled = true) {
  return useQuery({
    queryKey: [...changesKey(id), lastCheckedAt],
    enabled,
    queryFn: ({ signal }) => api.get<ChangesResponse>(`${itemApi(id)}/changes`, { signal }).then((r) => r.changes),
  });
}

export function useCollections() {
  return useQuery({
    queryKey: COLLECTIONS_KEY,
    queryFn: ({ signal }) => api.get<CollectionsResponse>('/api/reader/collections', { signal }).then((r) => r.collections),
  });
}

export function useTags() {
  return useQuery({
    queryKey: TAGS_KEY,
    queryFn: ({ signal }) => api.get<TagsResponse>('/api/reader/tags', { signal }).then((r) => r.tags),
  });
}

/**
 * Whether Summarize and Ask can work now (a chat model chosen, the runtime up, the model there).
 * Not asked for while `enabled` is false.
 */
export function useAiStatus(enabled = true) {
  return useQuery({
    queryKey: AI_KEY,
    enabled,
    queryFn: ({ signal }) => api.get<AiStatusResponse>('/api/reader/ai-status', { signal }),
  });
}

/** The admin's household links. */
export function useHouseholdLinks() {
  return useQuery({
    queryKey: ADMIN_KEY,
    queryFn: ({ signal }) => api.get<AdminItemListResponse>('/api/admin/reader', { signal }).then((r) => r.items),
  });
}

const invalidate = (qc: QueryClient, ...keys: ReadonlyArray<readonly unknown[]>) => Promise.all(keys.map((queryKey) => qc.invalidateQueries({ queryKey })));

/** Keeps the article text already shown when an answer is a list row (no contentHtml). */
function mergeItem(before: FullReaderItem | undefined, next: FullReaderItem | ReaderItem): FullReaderItem {
  const full = next as FullReaderItem;
  return { ...before, ...full, contentHtml: full.contentHtml ?? before?.contentHtml ?? null, contentText: full.contentText ?? before?.contentText ?? null } as FullReaderItem;
}

/** Saves a new link: the list, the collections (a new one, a count) and the tags change. */
export function useAddLink() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateItemBody) => api.post<ItemResponse>('/api/reader', body).then((r) => r.item),
    onSuccess: () => invalidate(qc, ITEMS_KEY, COLLECTIONS_KEY, TAGS_KEY),
  });
}

/** Saves a fresh copy (or retries a failed one): the item and the list change. */
export function useRearchive() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<ItemResponse>(`${itemApi(id)}/rearchive`).then((r) => r.item),
    onSuccess: async (item) => {
      qc.setQueryData<FullReaderItem>(itemKey(item.id), (before) => (before ? mergeItem(before, item) : before));
      await invalidate(qc, ITEMS_KEY, itemKey(item.id));
    },
  });
}

/** Hides (or shows again) a household link for this person: only the list changes. */
export function useHideItem() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, hidden }: { id: string; hidden: boolean }) => {
      const path = `/api/reader/hide/${encodeURIComponent(id)}`;
      return hidden ? api.put(path, {}) : api.delete(path);
    },
    onSuccess: () => invalidate(qc, ITEMS_KEY),
  });
}

export interface PatchVars {
  body: PatchItemBody;
  /** Which part of the page asked (its error shows there), e.g. 'status' or 'monitor'. */
  key?: string;
}

/**
 * Changes an item (status, title, collection, tags, watch settings). The item is updated from the
 * answer; the list always changes, the collections only when the collection did, the tags only
 * when the tags did.
 */
export function usePatchItem(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body }: PatchVars) => api.patch<ItemResponse>(itemApi(id), body).then((r) => r.item),
    onSuccess: async (item, { body }) => {
      qc.setQueryData<FullReaderItem>(itemKey(id), (before) => mergeItem(before, item));
      const keys: Array<readonly unknown[]> = [ITEMS_KEY, changesKey(id)];
      if ('collectionId' in body || 'collectionName' in body) keys.push(COLLECTIONS_KEY);
      if ('tags' in body) keys.push(TAGS_KEY);
      await invalidate(qc, ...keys);
    },
  });
}

/** Deletes an item: it leaves the list, and the counts of its collection and tags change. */
export function useDeleteItem() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(itemApi(id)),
    // the item's own query is left alone: the open article is still observing it until the page moves away
    onSuccess: () => invalidate(qc, ITEMS_KEY, COLLECTIONS_KEY, TAGS_KEY),
  });
}

/** Summarizes an article; for its owner the summary becomes its excerpt and tags. */
export function useSummarize(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<SummarizeResponse>(`${itemApi(id)}/summarize`),
    onSuccess: async (r) => {
      qc.setQueryData<FullReaderItem>(itemKey(id), (before) => mergeItem(before, r.item));
      await invalidate(qc, ITEMS_KEY, TAGS_KEY);
    },
  });
}

/** A question about an article: changes nothing. */
export function useAsk(id: string) {
  return useMutation({
    mutationFn: (question: string) => api.post<AskResponse>(`${itemApi(id)}/ask`, { question }).then((r) => ({ q: question, a: r.answer })),
  });
}

const collectionApi = (id: string) => `/api/reader/collections/${encodeURIComponent(id)}`;

export function useCreateCollection() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; icon?: string; color?: string }) => api.post('/api/reader/collections', body),
    onSuccess: () => invalidate(qc, COLLECTIONS_KEY),
  });
}

/** Renames a collection: the collections change, and the list and articles that show its name. */
export function useRenameCollection() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => api.patch(collectionApi(id), { name }),
    onSuccess: () => invalidate(qc, COLLECTIONS_KEY, ITEMS_KEY, ITEM_KEY),
  });
}

/** Deletes a collection: its items stay, without a collection. */
export function useDeleteCollection() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(collectionApi(id)),
    onSuccess: () => invalidate(qc, COLLECTIONS_KEY, ITEMS_KEY, ITEM_KEY),
  });
}

export interface ImportVars {
  file: File;
  offline: boolean;
  onProgress: (p: ImportProgress | null) => void;
  /** Closes the stream (the dialog closed): the server goes on, the hook stops listening. */
  signal: AbortSignal;
}

const EMPTY_IMPORT: ImportDone = { imported: 0, skipped: 0, duplicates: 0, collections: [], errors: [] };

/**
 * Imports a bookmarks file over the import stream; resolves with the summary, rejects with the
 * reason. Settled either way, the list, collections and tags are read again (a stopped import may
 * have saved some links).
 */
export function useImportBookmarks() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ file, offline, onProgress, signal }: ImportVars) =>
      new Promise<ImportDone>((resolve, reject) => {
        let result: ImportDone | null = null;
        let failure: string | null = null;
        const handle = openPostStream<ImportStreamEvents>(
          `/api/reader/import/html${offline ? '?type=offline' : ''}`,
          new RawBody(file, 'text/html'),
          {
            progress: (p) => onProgress(p ?? null),
            done: (d) => {
              result = d ?? EMPTY_IMPORT;
            },
            error: (d) => {
              failure = d?.message ?? 'The import stopped.';
            },
          },
          { closeOn: ['done', 'error'] },
        );
        signal.addEventListener('abort', () => handle.close(), { once: true });
        handle.done.then(
          () => {
            if (result) resolve(result);
            else reject(new Error(failure ?? 'The import ended before Hearth said it was done. Check your Reader, then try again if links are missing.'));
          },
          reject,
        );
      }),
    onSettled: () => invalidate(qc, ITEMS_KEY, COLLECTIONS_KEY, TAGS_KEY),
  });
}

export interface HouseholdLinkBody {
  url: string;
  title?: string;
  category: string;
}

const adminItemApi = (id: string) => `/api/admin/reader/${encodeURIComponent(id)}`;

/** Adds or edits a household link: the admin's list and everyone's Reader list change. */
export function useSaveHouseholdLink() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: HouseholdLinkBody }) => (id ? api.patch(adminItemApi(id), body) : api.post('/api/admin/reader', body)),
    onSuccess: (_r, { id }) => invalidate(qc, ADMIN_KEY, ITEMS_KEY, ...(id ? [itemKey(id)] : [])),
  });
}

export function useDeleteHouseholdLink() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(adminItemApi(id)),
    onSuccess: async (_r, id) => {
      qc.removeQueries({ queryKey: itemKey(id) });
      await invalidate(qc, ADMIN_KEY, ITEMS_KEY);
    },
  });
}
