// A SearXNG-compatible web search (WEB_SEARCH_URL) over its JSON API: GET /search?q=…&format=json,
// optionally with categories=videos or images; the answer is {results: [{url, title, content,
// img_src?, thumbnail?, thumbnail_src?}]} (docs.searxng.org, "Search API"). The household runs the
// search server itself, often on the LAN, so the guard it is given lets exactly that origin through
// (the container builds it); everything else about the request is the one SSRF guard's: no
// credentials in the URL, every redirect hop checked. Each search has a time budget and a size cap,
// and anything but a 200 with the JSON shape is a WebSearchError with a sentence.
import { z } from 'zod';
import type { SsrfGuard } from '../../platform/ssrf.js';
import { fetchCappedJson, type CappedJsonFailure } from '../web/fetch-capped.js';

export type WebSearchFailure = 'unreachable' | 'timeout' | 'http_error' | 'bad_response' | 'too_large' | 'blocked';

export class WebSearchError extends Error {
  constructor(
    readonly failure: WebSearchFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'WebSearchError';
  }

  /** A refusal by design, logged as its message without a stack (platform/logger.ts). */
  readonly expected = true;
}

export type WebSearchCategory = 'general' | 'images' | 'videos';

export interface WebSearchResult {
  url: string;
  title: string;
  content: string;
  /** Images: the picture itself. */
  imgSrc: string | null;
  /** Videos and images: a small preview. */
  thumbnail: string | null;
}

export interface WebSearchClient {
  readonly baseUrl: string;
  search(query: string, opts?: { category?: WebSearchCategory; signal?: AbortSignal }): Promise<WebSearchResult[]>;
  /** Closes the guard's connections (the client owns the guard it was given). */
  close(): Promise<void>;
}

export interface WebSearchClientOptions {
  /** WEB_SEARCH_URL: the server's base (…/search is added) or its /search endpoint. */
  baseUrl: string;
  /** A guard that lets the search server's own origin through (see the container); the client owns it. */
  guard: SsrfGuard;
  /** Whole request, headers and body (default 10 s). */
  timeoutMs?: number;
  /** The JSON answer's size cap (default 2 MB). */
  maxBytes?: number;
  /** Results kept per search (default 20). */
  maxResults?: number;
}

const optText = z.string().nullish().catch(null);
const SearxResult = z.object({ url: z.string(), title: optText, content: optText, img_src: optText, thumbnail: optText, thumbnail_src: optText });
const SearxResponse = z.object({ results: z.array(z.unknown()) });

/** The /search endpoint of a configured WEB_SEARCH_URL. */
export function searchEndpoint(baseUrl: string): URL {
  const url = new URL(baseUrl);
  if (!/\/search\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/+$/, '')}/search`;
  url.search = '';
  url.hash = '';
  return url;
}

const httpUrl = (raw: string | null | undefined, base: string): string | null => {
  if (!raw) return null;
  try {
    const u = new URL(raw, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
};

function failureSentence(kind: CappedJsonFailure, detail: string, timeoutMs: number): string {
  switch (kind) {
    case 'too_large':
      return 'The web search sent an answer too large to read.';
    case 'timeout':
      return `The web search did not answer within ${Math.round(timeoutMs / 1000)} s.`;
    case 'blocked':
      return `The web search address was refused: ${detail}`;
    case 'bad_response':
      return 'The web search did not answer in its JSON format.';
    case 'unreachable':
      return 'The web search could not be reached. Check that it is running and that its address is right.';
  }
}

export function createWebSearchClient(opts: WebSearchClientOptions): WebSearchClient {
  const endpoint = searchEndpoint(opts.baseUrl);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxBytes = opts.maxBytes ?? 2 * 1024 * 1024;
  const maxResults = opts.maxResults ?? 20;

  async function search(query: string, o: { category?: WebSearchCategory; signal?: AbortSignal } = {}): Promise<WebSearchResult[]> {
    const url = new URL(endpoint);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    if (o.category && o.category !== 'general') url.searchParams.set('categories', o.category);
    const json = await fetchCappedJson(opts.guard, url.href, {
      maxBytes,
      timeoutMs,
      maxRedirects: 3,
      ...(o.signal ? { signal: o.signal } : {}),
      checkStatus: (status) => {
        if (status === 200) return;
        const hint = status === 403 ? ' Its JSON format may be switched off (search.formats in settings.yml).' : '';
        throw new WebSearchError('http_error', `The web search answered ${status}.${hint}`, status);
      },
      fail: (kind, detail) => new WebSearchError(kind, failureSentence(kind, detail, timeoutMs)),
    });
    const parsed = SearxResponse.safeParse(json);
    if (!parsed.success) throw new WebSearchError('bad_response', 'The web search did not answer in its JSON format.');
    const out: WebSearchResult[] = [];
    for (const raw of parsed.data.results) {
      const r = SearxResult.safeParse(raw);
      if (!r.success) continue;
      const link = httpUrl(r.data.url, url.href);
      if (!link) continue;
      out.push({
        url: link,
        title: (r.data.title ?? '').trim(),
        content: (r.data.content ?? '').trim(),
        imgSrc: httpUrl(r.data.img_src, link),
        thumbnail: httpUrl(r.data.thumbnail ?? r.data.thumbnail_src, link),
      });
      if (out.length >= maxResults) break;
    }
    return out;
  }

  return { baseUrl: endpoint.href, search, close: () => opts.guard.close() };
}
