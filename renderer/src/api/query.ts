// The web app's server state goes through TanStack Query: each feature keeps one hook per API call
// next to it (`features/<area>/queries.ts`: `useJobsStatus`, `useUnreadCount`…), reads are cached
// under a query key, and every write invalidates the keys it changes, so the screens that show the
// same data agree without a reload. This file holds the client's defaults and the focus rule.
import { focusManager, QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

/** A refusal (4xx) is an answer, not a blip: asking again would get the same one. */
function shouldRetry(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failures < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
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
