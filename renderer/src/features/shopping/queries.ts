// Shopping as hooks (TanStack Query, see api/query.ts): the household's lists, one list kept live
// by its stream (GET /api/shopping/lists/:id/stream sends the list's whole state after every
// change; it replaces the cached answer here), the changes, and the suggestions as a member types.
// A tick is shown at once; when Hearth cannot be reached it waits in the offline queue
// (offline-queue.ts) and is sent, in order, when the phone is back online.
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { api, ApiError } from '../../api/client';
import { openEventStream } from '../../api/sse';
import type { Aisle, ShoppingItem, ShoppingList, ShoppingListDetail, ShoppingSuggestion } from '../../api/types';
import { enqueue, readQueue, withPending, writeQueue, type QueuedTick } from './offline-queue';

const LISTS_KEY = ['shopping', 'lists'] as const;
const listKey = (id: string) => ['shopping', 'list', id] as const;
const listPath = (id: string) => `/api/shopping/lists/${encodeURIComponent(id)}`;

export function useShoppingLists() {
  return useQuery({ queryKey: LISTS_KEY, queryFn: ({ signal }) => api.get<{ lists: ShoppingList[] }>('/api/shopping/lists', { signal }) });
}

export function useShoppingList(id: string | null) {
  return useQuery({ queryKey: listKey(id ?? ''), enabled: id !== null, queryFn: ({ signal }) => api.get<ShoppingListDetail>(listPath(id!), { signal }) });
}

// ---- the offline queue, shared by every component of the page ----
let queue: QueuedTick[] = typeof localStorage === 'undefined' ? [] : readQueue();
const queueListeners = new Set<() => void>();
function setQueue(next: QueuedTick[]): void {
  queue = next;
  writeQueue(next);
  for (const l of queueListeners) l();
}
const subscribeQueue = (l: () => void) => {
  queueListeners.add(l);
  return () => queueListeners.delete(l);
};

/** The ticks waiting to be sent. */
export function usePendingTicks(): QueuedTick[] {
  return useSyncExternalStore(subscribeQueue, () => queue);
}

/** Whether the browser says it is online (navigator.onLine and its events). */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (l) => {
      window.addEventListener('online', l);
      window.addEventListener('offline', l);
      return () => {
        window.removeEventListener('online', l);
        window.removeEventListener('offline', l);
      };
    },
    () => navigator.onLine,
  );
}

const isUnreachable = (err: unknown) => err instanceof ApiError && err.code === 'network_error';

function showTick(client: QueryClient, t: QueuedTick): void {
  client.setQueryData<ShoppingListDetail>(listKey(t.listId), (d) => d && { ...d, items: d.items.map((i) => (i.id === t.itemId ? { ...i, checked: t.checked } : i)) });
}

const RETRY_MS = 10_000;
let sending = false;
/** Sends the waiting ticks in order; stops at the first that finds Hearth out of reach (it stays first). */
async function sendQueue(client: QueryClient): Promise<void> {
  if (sending) return;
  sending = true;
  const touched = new Set<string>();
  try {
    while (queue.length > 0) {
      const t = queue[0]!;
      try {
        await api.patch(`${listPath(t.listId)}/items/${encodeURIComponent(t.itemId)}`, { checked: t.checked });
      } catch (err) {
        if (isUnreachable(err)) return;
        // refused for good (the item was removed meanwhile): nothing more to send for it
      }
      touched.add(t.listId);
      setQueue(queue.filter((x) => x !== t));
    }
  } finally {
    sending = false;
    for (const id of touched) void client.invalidateQueries({ queryKey: listKey(id) });
  }
}

/** Sends waiting ticks now and whenever the browser comes back online. */
export function useSendPendingTicks(): void {
  const client = useQueryClient();
  useEffect(() => {
    const send = () => void sendQueue(client);
    if (navigator.onLine) send();
    window.addEventListener('online', send);
    // the browser may say it is online while Hearth is still out of reach: try again now and then
    const retry = window.setInterval(() => {
      if (queue.length > 0 && navigator.onLine) send();
    }, RETRY_MS);
    return () => {
      window.removeEventListener('online', send);
      window.clearInterval(retry);
    };
  }, [client]);
}

/** Ticks or unticks at once on screen; sent now, or queued while Hearth cannot be reached. */
export function useTick() {
  const client = useQueryClient();
  return useCallback(
    (item: ShoppingItem, checked: boolean) => {
      const t: QueuedTick = { listId: item.listId, itemId: item.id, checked };
      showTick(client, t);
      setQueue(enqueue(queue, t));
      if (navigator.onLine) void sendQueue(client);
    },
    [client],
  );
}

/** Keeps the list live while mounted: each state the stream sends replaces the cached list (with waiting ticks laid over it). `lost`: the stream dropped and has not come back yet. */
export function useLiveList(id: string | null): { lost: boolean } {
  const client = useQueryClient();
  const [lost, setLost] = useState(false);
  useEffect(() => {
    if (!id) return;
    const stream = openEventStream<{ state: ShoppingListDetail; deleted: { id: string } }>(
      `${listPath(id)}/stream`,
      {
        state: (d) => {
          setLost(false);
          client.setQueryData<ShoppingListDetail>(listKey(id), { ...d, items: withPending(d.items, queue) });
          client.setQueryData<{ lists: ShoppingList[] }>(LISTS_KEY, (all) => all && { lists: all.lists.map((l) => (l.id === d.list.id ? d.list : l)) });
        },
        deleted: () => void client.invalidateQueries({ queryKey: LISTS_KEY }),
      },
      { closeOn: ['deleted'], onDisconnect: () => setLost(true) },
    );
    return () => {
      stream.close();
      setLost(false);
    };
  }, [client, id]);
  return { lost };
}

export function useCreateList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post<{ list: ShoppingList }>('/api/shopping/lists', { name }),
    onSuccess: ({ list }) => client.setQueryData<{ lists: ShoppingList[] }>(LISTS_KEY, (all) => all && { lists: [...all.lists, list] }),
  });
}

export function useRenameList() {
  return useMutation({ mutationFn: ({ id, name }: { id: string; name: string }) => api.patch<{ list: ShoppingList }>(listPath(id), { name }), meta: { invalidates: [LISTS_KEY] } });
}

export function useDeleteList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(listPath(id)),
    onSuccess: (_v, id) => {
      client.removeQueries({ queryKey: listKey(id) });
      client.setQueryData<{ lists: ShoppingList[] }>(LISTS_KEY, (all) => all && { lists: all.lists.filter((l) => l.id !== id) });
    },
  });
}

export type NewItem = { name: string; quantity?: string; category?: Aisle } | { barcode: string };

export function useAddItem(listId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewItem) => api.post<{ item: ShoppingItem }>(`${listPath(listId)}/items`, body),
    onSuccess: ({ item }) =>
      client.setQueryData<ShoppingListDetail>(listKey(listId), (d) => (d && !d.items.some((i) => i.id === item.id) ? { ...d, items: [...d.items, item] } : d)),
  });
}

export function useChangeItem(listId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...patch }: { id: string; category?: Aisle; quantity?: string | null; name?: string }) => api.patch<{ item: ShoppingItem }>(`${listPath(listId)}/items/${encodeURIComponent(id)}`, patch),
    onSuccess: ({ item }) => client.setQueryData<ShoppingListDetail>(listKey(listId), (d) => d && { ...d, items: d.items.map((i) => (i.id === item.id ? { ...item, checked: i.checked } : i)) }),
  });
}

export function useRemoveItem(listId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`${listPath(listId)}/items/${encodeURIComponent(id)}`),
    onSuccess: (_v, id) => client.setQueryData<ShoppingListDetail>(listKey(listId), (d) => d && { ...d, items: d.items.filter((i) => i.id !== id) }),
  });
}

export function useClearChecked(listId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ cleared: number }>(`${listPath(listId)}/clear-checked`),
    onSuccess: () => client.setQueryData<ShoppingListDetail>(listKey(listId), (d) => d && { ...d, items: d.items.filter((i) => !i.checked) }),
  });
}

/** What the household has bought that matches `q` (the recent ones when `q` is empty), leaving out what is open on the list. */
export function useSuggestions(q: string, listId: string | null) {
  const query = new URLSearchParams({ q: q.trim(), ...(listId ? { listId } : {}) }).toString();
  return useQuery({
    queryKey: ['shopping', 'suggestions', query],
    enabled: listId !== null,
    staleTime: 10_000,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => api.get<{ suggestions: ShoppingSuggestion[] }>(`/api/shopping/suggestions?${query}`, { signal }),
  });
}
