// The web app's server state goes through TanStack Query: each feature keeps one hook per API call
// next to it (`features/<area>/queries.ts`: `useJobsStatus`, `useUnreadCount`…), reads are cached
// under a query key, and every write invalidates the keys it changes, so the screens that show the
// same data agree without a reload. This file holds the client's defaults, the focus rule and the
// invalidation rule: a mutation names the keys it changes in `meta.invalidates`; once it has ended
// (either way) those keys are read again here, before the mutation counts as done (so `isPending`
// lasts until the screens show the change), and the other tabs of this browser are told to read
// them again too (BroadcastChannel 'hearth-queries': they share the cookie, so they are the same
// person, and only keys travel, never data).
import { focusManager, MutationCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError } from './client';

/** A refusal (4xx) is an answer, not a blip: asking again would get the same one. */
function shouldRetry(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failures < 2;
}

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { invalidates?: readonly QueryKey[] };
  }
}

const CHANNEL = 'hearth-queries';
type InvalidateMessage = { type: 'invalidate'; keys: QueryKey[] };

export function createQueryClient(): QueryClient {
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
  const invalidate = (keys: readonly QueryKey[]) => Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
  const client: QueryClient = new QueryClient({
    mutationCache: new MutationCache({
      onSettled: async (_data, _error, _variables, _context, mutation) => {
        const keys = mutation.meta?.invalidates ?? [];
        if (keys.length === 0) return;
        channel?.postMessage({ type: 'invalidate', keys: [...keys] } satisfies InvalidateMessage);
        await invalidate(keys);
      },
    }),
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        // a screen opened again within a few seconds shows what it has without asking again
        staleTime: 5_000,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
  if (channel) {
    channel.onmessage = (e: MessageEvent<InvalidateMessage>) => {
      if (e.data?.type === 'invalidate' && Array.isArray(e.data.keys)) void invalidate(e.data.keys);
    };
  }
  return client;
}

// A tab coming back into view and a window focused again both count as "look again" (the
// library's default hears only visibilitychange; a desktop window switched to with Alt+Tab stays visible).
focusManager.setEventListener((handleFocus) => {
  const onChange = () => handleFocus(document.visibilityState === 'visible');
  window.addEventListener('focus', onChange);
  document.addEventListener('visibilitychange', onChange);
  return () => {
    window.removeEventListener('focus', onChange);
    document.removeEventListener('visibilitychange', onChange);
  };
});
