// Unified search's API call as a hook (TanStack Query, see api/query.ts): keyed by what was typed,
// asked ~150 ms after the typing stops, the previous question cancelled (TanStack Query aborts a
// query's signal when nothing watches it any more), and the last answer kept on screen while the
// next one is on its way.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { SearchResponse, SearchType } from '../../../../server/modules/search/schema.js';

export type { SearchGroup, SearchResponse, SearchResult, SearchType } from '../../../../server/modules/search/schema.js';

export const SEARCH_DEBOUNCE_MS = 150;
export const SEARCH_KEY = ['search'] as const;

/** The groups' names, for the types that could not answer (an answer names only the type). */
export const TYPE_LABELS: Record<SearchType, string> = {
  reader: 'Reader',
  archive: 'Offline archives',
  device: 'Inventory',
  conversation: 'Chats',
  tool: 'Apps',
  page: 'Pages',
  memo: 'Voice memos',
};

/** The value, once it has stayed the same for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

export function useSearch(typed: string) {
  const q = useDebounced(typed.trim(), SEARCH_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: [...SEARCH_KEY, q],
    queryFn: ({ signal }) => api.get<SearchResponse>(`/api/search?q=${encodeURIComponent(q)}`, { signal }),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    refetchOnWindowFocus: false,
  });
  return {
    /** The words the answer on screen is for. */
    q,
    data: q ? query.data : undefined,
    error: q ? query.error : null,
    /** Typing, or the answer for the latest words is still on its way. */
    pending: typed.trim() !== q || (q.length > 0 && (query.isFetching || query.isPlaceholderData)),
    retry: () => void query.refetch(),
  };
}
