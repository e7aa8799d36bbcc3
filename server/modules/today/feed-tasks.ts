// Reading a feed, run in the parse worker (server/platform/workers/parse-worker.ts), so the HTTP
// server's event loop never waits behind XML parsing: a full refresh of 200 feeds parsed on the
// main thread held it for over a second (bench/today-news.ts). The worker parses (feed-parse.ts);
// the main thread checks what comes back. This module is both the worker's `handlers` and the main
// thread's typed client.
import { z } from 'zod';
// types only: the worker's entry imports this module, so a value import back would be a cycle
import type { ParseWorker } from '../../platform/workers/parse-worker.js';
import { NotAFeedError, parseFeed, type ParsedFeed } from './feed-parse.js';

/** This module, as the parse worker loads it (source under tsx/vitest, compiled under dist). */
export const FEED_TASKS_MODULE = new URL(import.meta.url);

const Input = z.object({ body: z.instanceof(Uint8Array), contentType: z.string() });
const Item = z.object({ key: z.string(), title: z.string(), url: z.string().nullable(), summary: z.string(), publishedAt: z.string().nullable(), imageUrl: z.string().nullable() });
const Feed = z.object({ format: z.enum(['rss', 'atom', 'rdf', 'json']), title: z.string(), siteUrl: z.string().nullable(), items: z.array(Item) });
const Output = z.union([z.object({ ok: z.literal(true), feed: Feed }), z.object({ ok: z.literal(false), message: z.string() })]);

// ---- worker side ----

export const handlers = {
  parseFeed(raw: unknown): z.infer<typeof Output> {
    const { body, contentType } = Input.parse(raw);
    try {
      return { ok: true, feed: parseFeed(Buffer.from(body.buffer, body.byteOffset, body.byteLength), contentType) };
    } catch (err) {
      if (err instanceof NotAFeedError) return { ok: false, message: err.message };
      throw err;
    }
  },
};

// ---- main thread ----

/** The typed face of the handlers above, run in `worker`. */
export class FeedTasks {
  constructor(private readonly worker: ParseWorker) {}

  /** A feed body → ParsedFeed; NotAFeedError for anything else. */
  async parse(body: Buffer, contentType: string): Promise<ParsedFeed> {
    const out = Output.parse(await this.worker.run('parseFeed', { body: new Uint8Array(body), contentType }));
    if (!out.ok) throw new NotAFeedError(out.message);
    return out.feed;
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
