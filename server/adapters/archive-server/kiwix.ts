// kiwix-serve (the archive server) over HTTP on 127.0.0.1, as measured in reference/kiwix-serve.md:
// the catalog feed gives each book's URL segment (never assumed), content is fetched without
// following redirects and without gzip, search is the XML format (there is no JSON search), and
// every /suggest call is serialized because concurrent suggests crash kiwix-serve 3.3.0.
// Transport: node:http with a fresh connection per request. kiwix-serve answers every request with
// `Connection: close`, so a pooling client gains nothing, and undici builds (and stack-traces) an
// error object for each closed socket, which showed up as ~10% of the proxy's CPU in profiles.
import http, { type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { text as readText } from 'node:stream/consumers';
import type * as Fxp from 'fast-xml-parser';
import { z } from 'zod';
import { lazyRequire } from '../../platform/lazy.js';

export interface CatalogBook {
  uuid: string;
  name: string;
  title: string;
  /** Content base path, e.g. "/fixturepedia_en_all_maxi_2024-05" (3.3.0) or "/content/<name>" (≥3.4). */
  href: string;
  /** The URL segment (last part of href). */
  urlName: string;
}

/** A response body: a stream, with helpers to read it whole or throw it away. */
export interface RawBody extends Readable {
  text(): Promise<string>;
  bytes(): Promise<Buffer>;
  arrayBuffer(): Promise<ArrayBuffer>;
  /** Discards the rest (the connection is closed anyway). */
  dump(): Promise<void>;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: RawBody;
}

async function readBytes(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

function asRawBody(res: IncomingMessage): RawBody {
  return Object.assign(res, {
    text: () => readText(res),
    bytes: () => readBytes(res),
    arrayBuffer: async () => {
      const b = await readBytes(res);
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
    },
    dump: async () => {
      res.destroy();
    },
  });
}

export interface SearchHit {
  title: string;
  /** Path inside the book (decoded), e.g. "A/Water_heater". */
  path: string;
  snippet: string;
  wordCount: number | null;
}

/** What went wrong, for the one mapper (adapter-errors/archive-server.ts): no connection, no answer in time, or an answer other than the one expected. */
export type ArchiveServerFailure = 'unreachable' | 'timeout' | 'http_error' | 'bad_response';

export class ArchiveServerError extends Error {
  constructor(
    readonly failure: ArchiveServerFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ArchiveServerError';
  }
}

// made at the first catalog read (fast-xml-parser is not loaded at start)
const loadFxp = lazyRequire<typeof Fxp>('fast-xml-parser');
let parser: Fxp.XMLParser | null = null;
const xml = {
  parse(body: string): unknown {
    parser ??= new (loadFxp().XMLParser)({ ignoreAttributes: false, attributeNamePrefix: '@_', textNodeName: '#text', processEntities: true, htmlEntities: true });
    return parser.parse(body);
  },
};
const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const text = (v: unknown): string => (typeof v === 'object' && v !== null && '#text' in v ? String((v as Record<string, unknown>)['#text']) : v === undefined || v === null ? '' : String(v));

const SuggestItem = z.object({ value: z.string(), label: z.string().optional(), kind: z.string().optional(), path: z.string().optional() });

export interface KiwixClient {
  readonly baseUrl: string;
  probe(signal?: AbortSignal): Promise<boolean>;
  catalog(): Promise<CatalogBook[]>;
  /** GET a server path (already encoded) without following redirects and without compression. */
  get(path: string, opts?: { range?: string; signal?: AbortSignal; timeoutMs?: number }): Promise<RawResponse>;
  search(book: CatalogBook, pattern: string, limit: number): Promise<{ total: number; hits: SearchHit[] } | { noIndex: true }>;
  suggest(book: CatalogBook, term: string, count: number): Promise<Array<{ title: string; path: string }>>;
}

export function createKiwixClient(opts: { baseUrl: string; timeoutMs?: number }): KiwixClient {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const timeout = opts.timeoutMs ?? 10_000;
  let suggestQueue: Promise<unknown> = Promise.resolve();

  const origin = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: false });

  function get(path: string, o: { range?: string; signal?: AbortSignal; timeoutMs?: number } = {}): Promise<RawResponse> {
    const headers: Record<string, string> = { 'accept-encoding': 'identity', connection: 'close' };
    if (o.range) headers.range = o.range;
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: origin.hostname, port: origin.port, path: `${origin.pathname.replace(/\/$/, '')}${path}`, method: 'GET', headers, agent, signal: o.signal },
        (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: asRawBody(res) }),
      );
      // no bytes for this long (before the headers or inside the body) ends the request
      req.setTimeout(o.timeoutMs ?? timeout, () => req.destroy(new ArchiveServerError('timeout', 'The archive server did not answer in time.')));
      req.once('error', (err) => {
        if (o.signal?.aborted) reject(err);
        else reject(err instanceof ArchiveServerError ? err : new ArchiveServerError('unreachable', `The archive server is not answering: ${err.message}`));
      });
      req.end();
    });
  }

  async function getText(path: string): Promise<{ status: number; text: string }> {
    const res = await get(path);
    return { status: res.status, text: await res.body.text() };
  }

  return {
    baseUrl,
    async probe(signal) {
      const res = await get('/catalog/v2/entries?count=1', { signal, timeoutMs: 2000 });
      await res.body.dump();
      return res.status === 200;
    },
    async catalog() {
      const { status, text: body } = await getText('/catalog/v2/entries?count=-1');
      if (status !== 200) throw new ArchiveServerError('http_error', `The archive server's catalog answered ${status}.`, status);
      const feed = (xml.parse(body) as { feed?: { entry?: unknown } }).feed;
      return asArray(feed?.entry as Record<string, unknown> | Array<Record<string, unknown>>).map((e) => {
        const html = asArray(e.link as Array<Record<string, string>> | Record<string, string>).find((l) => l['@_type'] === 'text/html');
        const href = (html?.['@_href'] ?? '').replace(/\/+$/, '');
        return {
          uuid: text(e.id).replace(/^urn:uuid:/, ''),
          name: text(e.name),
          title: text(e.title),
          href,
          urlName: decodeURIComponent(href.split('/').pop() ?? ''),
        };
      });
    },
    get,
    async search(book, pattern, limit) {
      const q = new URLSearchParams({ content: book.urlName, pattern, format: 'xml', pageLength: String(limit) });
      const { status, text: body } = await getText(`/search?${q}`);
      if (status === 404) return { noIndex: true };
      if (status !== 200) throw new ArchiveServerError('http_error', `Search in ${book.title} answered ${status}.`, status);
      const channel = (xml.parse(body) as { rss?: { channel?: Record<string, unknown> } }).rss?.channel ?? {};
      const prefix = `${book.href}/`;
      const hits = asArray(channel.item as Array<Record<string, unknown>> | Record<string, unknown>).map((item) => {
        const link = text(item.link);
        const raw = link.startsWith(prefix) ? link.slice(prefix.length) : link.replace(/^\/[^/]+\//, '');
        let path = raw;
        try {
          path = decodeURIComponent(raw);
        } catch {
          // keep as is
        }
        const wc = text(item.wordCount).replace(/[^\d]/g, '');
        return { title: text(item.title), path, snippet: text(item.description), wordCount: wc ? Number(wc) : null };
      });
      return { total: Number(text(channel['opensearch:totalResults'])) || hits.length, hits };
    },
    suggest(book, term, count) {
      // one /suggest at a time, for every caller: concurrent suggests crash kiwix-serve 3.3.0
      const run = suggestQueue.catch(() => undefined).then(async () => {
        const q = new URLSearchParams({ content: book.urlName, term, count: String(count) });
        const { status, text: body } = await getText(`/suggest?${q}`);
        if (status !== 200) throw new ArchiveServerError('http_error', `Suggest in ${book.title} answered ${status}.`, status);
        let parsed: z.ZodSafeParseResult<Array<z.infer<typeof SuggestItem>>> | null = null;
        try {
          parsed = z.array(SuggestItem).safeParse(JSON.parse(body));
        } catch {
          // not JSON: the same as JSON of the wrong shape
        }
        if (!parsed?.success) throw new ArchiveServerError('bad_response', `Suggest in ${book.title} did not answer in its JSON format.`);
        const items = parsed.data;
        return items.filter((i) => i.kind === 'path' && i.path).map((i) => ({ title: i.value, path: i.path! }));
      });
      suggestQueue = run;
      return run;
    },
  };
}
