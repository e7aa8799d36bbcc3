// The capture engine's DOM work, run in the parse worker (server/platform/workers/parse-worker.ts)
// so the HTTP server's event loop never waits behind jsdom. A capture is three phases:
//   1. prepare (worker): parse the page twice (snapshot, reader view), neutralize it, run Readability
//      and DOMPurify, and answer the absolute asset URLs each needs plus the reader metadata; the
//      documents stay in the worker under a session id.
//   2. (main thread) fetch/store those assets through the guarded AssetStore: network I/O only.
//   3. render (worker): point the documents at the local copies and serialize them.
// Challenge detection, <head> metadata (thumbnail mode) and SVG sanitizing are single tasks.
// This module is both the worker's `handlers` and the main thread's typed client; every input is
// parsed in the worker and every answer on the main thread.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ParseWorker, RunOptions } from '../../../platform/workers/parse-worker.js';
import { sanitizeSvgText } from './assets.js';
import { detectChallenge } from './challenge.js';
import { headMetadata, parseHtml, planReaderView, type PageMetadata, type ReaderPlan, type ReaderView } from './readability.js';
import { planSnapshot, type SnapshotPlan } from './snapshot.js';

/** This module, as the parse worker loads it (source under tsx/vitest, compiled under dist). */
export const DOM_TASKS_MODULE = new URL(import.meta.url);

/** Prepared documents a worker keeps at most (the oldest is dropped beyond). */
const MAX_SESSIONS = 8;

const ChallengeInput = z.object({ html: z.string(), text: z.string().nullish(), status: z.number().int().nullish() });
const ChallengeOutput = z.object({ reason: z.string().nullable() });
const MetaInput = z.object({ html: z.string(), url: z.string() });
const ns = z.string().nullable();
const PageMetadataSchema = z.object({ title: ns, byline: ns, siteName: ns, excerpt: ns, lang: ns, publishedTime: ns, faviconUrl: ns, ogImageUrl: ns });
const ReaderViewSchema = PageMetadataSchema.extend({ contentHtml: ns, contentText: z.string(), wordCount: z.number().int().nonnegative(), readingMins: z.number().int().nonnegative() });
const PrepareInput = z.object({ html: z.string(), url: z.string(), rendered: z.boolean(), removeConsent: z.boolean() });
const PrepareOutput = z.object({ session: z.string(), snapshotUrls: z.array(z.string()), readerImages: z.array(z.string()), view: ReaderViewSchema });
const RenderInput = z.object({
  session: z.string(),
  assets: z.record(z.string(), z.string().nullable()),
  /** The pixel size of each stored picture, by its local name (AssetStore.imageSizes). */
  sizes: z.record(z.string(), z.object({ width: z.number().int().positive(), height: z.number().int().positive() })).default({}),
  publicBase: z.string(),
});
const RenderOutput = z.object({ snapshot: z.string(), contentHtml: ns });
const SessionInput = z.object({ session: z.string() });
const SvgInput = z.object({ svg: z.string() });
const SvgOutput = z.object({ svg: z.string() });

// ---- worker side ----

const sessions = new Map<string, { snapshot: SnapshotPlan; reader: ReaderPlan }>();

function dropSession(id: string): void {
  const s = sessions.get(id);
  if (!s) return;
  sessions.delete(id);
  s.snapshot.dispose();
  s.reader.dispose();
}

export const handlers = {
  challenge(raw: unknown): z.infer<typeof ChallengeOutput> {
    const input = ChallengeInput.parse(raw);
    return { reason: detectChallenge(input) };
  },
  meta(raw: unknown): PageMetadata {
    const { html, url } = MetaInput.parse(raw);
    const dom = parseHtml(html, url);
    try {
      return headMetadata(dom.window.document, url);
    } finally {
      dom.window.close();
    }
  },
  prepare(raw: unknown): z.infer<typeof PrepareOutput> {
    const { html, url, rendered, removeConsent } = PrepareInput.parse(raw);
    const snapshot = planSnapshot(html, url, { rendered, removeConsent });
    let reader: ReaderPlan;
    try {
      reader = planReaderView(html, url);
    } catch (err) {
      snapshot.dispose();
      throw err;
    }
    const session = randomUUID();
    sessions.set(session, { snapshot, reader });
    while (sessions.size > MAX_SESSIONS) dropSession(sessions.keys().next().value!);
    return { session, snapshotUrls: snapshot.urls, readerImages: reader.images, view: reader.view };
  },
  async render(raw: unknown): Promise<z.infer<typeof RenderOutput>> {
    const { session, assets, sizes, publicBase } = RenderInput.parse(raw);
    const s = sessions.get(session);
    if (!s) throw new Error('the prepared page is gone (the page processor restarted)');
    sessions.delete(session);
    try {
      const local = (u: string) => (Object.hasOwn(assets, u) ? (assets[u] ?? null) : null);
      const snapshot = await s.snapshot.render(local);
      const contentHtml = s.reader.render(
        (u) => {
          const l = local(u);
          return l ? publicBase + l : null;
        },
        (u) => {
          const l = local(u);
          return l && Object.hasOwn(sizes, l) ? sizes[l]! : null;
        },
      );
      return { snapshot, contentHtml };
    } finally {
      s.snapshot.dispose();
      s.reader.dispose();
    }
  },
  release(raw: unknown): Record<string, never> {
    dropSession(SessionInput.parse(raw).session);
    return {};
  },
  sanitizeSvg(raw: unknown): z.infer<typeof SvgOutput> {
    return { svg: sanitizeSvgText(SvgInput.parse(raw).svg) };
  },
};

// ---- main thread ----

export interface PreparedPage {
  session: string;
  snapshotUrls: string[];
  readerImages: string[];
  view: ReaderView;
}

/** The typed face of the handlers above, run in `worker`. */
export class DomTasks {
  constructor(private readonly worker: ParseWorker) {}

  async challenge(input: z.input<typeof ChallengeInput>, opts?: RunOptions): Promise<string | null> {
    return ChallengeOutput.parse(await this.worker.run('challenge', input, opts)).reason;
  }

  async meta(html: string, url: string, opts?: RunOptions): Promise<PageMetadata> {
    return PageMetadataSchema.parse(await this.worker.run('meta', { html, url }, opts));
  }

  async prepare(input: z.input<typeof PrepareInput>, opts?: RunOptions): Promise<PreparedPage> {
    return PrepareOutput.parse(await this.worker.run('prepare', input, opts));
  }

  async render(input: z.input<typeof RenderInput>, opts?: RunOptions): Promise<z.infer<typeof RenderOutput>> {
    return RenderOutput.parse(await this.worker.run('render', input, opts));
  }

  /** Frees a prepared page that will not be rendered (failure, cancellation). Never throws. */
  release(session: string): void {
    if (this.worker.stats().threadId === null) return; // no worker, no prepared pages
    this.worker.run('release', { session }).catch(() => undefined);
  }

  async sanitizeSvg(svg: string, opts?: RunOptions): Promise<string> {
    return SvgOutput.parse(await this.worker.run('sanitizeSvg', { svg }, opts)).svg;
  }
}
