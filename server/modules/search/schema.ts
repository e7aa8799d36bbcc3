// Unified search's contract: one answer grouped by type over what the caller may see.
import { z } from 'zod';

export const MAX_QUERY_CHARS = 200;
export const DEFAULT_PER_TYPE = 5;
export const MAX_PER_TYPE = 20;

/** Modules add their type here when they add a provider (e.g. `device` for the home inventory). */
export const SearchType = z.enum(['reader', 'archive', 'device', 'conversation', 'tool', 'page', 'memo']);
export type SearchType = z.infer<typeof SearchType>;

export const SearchResult = z.object({
  type: SearchType,
  /** Unique within its type. */
  id: z.string(),
  title: z.string(),
  /** Plain text around the match (no HTML), or null. */
  snippet: z.string().nullable(),
  /** The web app path that opens it. */
  url: z.string(),
});
export type SearchResult = z.infer<typeof SearchResult>;

export const SearchGroup = z.object({
  type: SearchType,
  /** A heading for people: "Reader", "Offline archives", "Chats", "Apps", "Pages". */
  label: z.string(),
  results: z.array(SearchResult),
});
export type SearchGroup = z.infer<typeof SearchGroup>;

/** Groups with no result are left out; `unavailable` names the types that could not answer this time (e.g. the archive server is stopped), as sentences. */
export const SearchResponse = z.object({
  q: z.string(),
  groups: z.array(SearchGroup),
  unavailable: z.array(z.object({ type: SearchType, reason: z.string() })),
});
export type SearchResponse = z.infer<typeof SearchResponse>;

/** GET /api/search?q=&types=reader,archive&limit=5 */
export const SearchQuery = z.object({
  q: z.string().trim().min(1, 'Type something to search for.').max(MAX_QUERY_CHARS),
  types: z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (s === undefined || s.trim() === '') return undefined;
      const parsed = z.array(SearchType).safeParse(s.split(',').map((t) => t.trim()));
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: `types is a comma-separated list of: ${SearchType.options.join(', ')}.` });
        return z.NEVER;
      }
      return parsed.data;
    }),
  limit: z.coerce.number().int().min(1).max(MAX_PER_TYPE).default(DEFAULT_PER_TYPE),
});
export type SearchQuery = z.infer<typeof SearchQuery>;
