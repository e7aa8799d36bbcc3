// Server-sent events: SseRegistry.run() for a route's stream (the one way a route streams),
// openSse() for one response, ReplayChannel for streams that late clients join (boot, archive
// downloads): past events are replayed, then live ones follow.
import type { Request, Response } from 'express';
import type { Logger } from '../platform/logger.js';
import { logFailure, renderError } from './error-handler.js';
import { checkEvent } from './routes.js';

export interface SseStream {
  send(event: string, data: unknown): void;
  close(): void;
  /** Aborts when the client goes away or the stream is closed. */
  signal: AbortSignal;
}

/** A stream's work: it calls `open` once its refusals are past (they stay plain JSON errors). */
export type SseWork = (open: () => SseStream) => Promise<void>;

/** Tracks open streams so the server can end them on close(), and runs a route's stream. */
export class SseRegistry {
  private readonly open = new Set<SseStream>();

  constructor(private readonly logger?: Logger) {}

  /**
   * Runs one stream's work. An error thrown before the work opens the stream is the route's (a
   * JSON error); one thrown after becomes an `error` event `{code, message}` through the JSON error
   * handler's mapping — an unexpected error is logged and sent as the generic sentence, never its
   * own message — and the stream ends. When the mapping gives `details` as a plain object (an
   * AppError's own, as a JSON error would carry them), its fields are added to the event: that is
   * how a service tells the client more of a failure, e.g. the bookmarks import's `imported` count
   * (`ImportFailedError`). The stream is closed when the work returns.
   */
  async run(req: Request, res: Response, work: SseWork): Promise<void> {
    let stream: SseStream | null = null;
    const open = () => (stream ??= openSse(req, res, { registry: this }));
    try {
      await work(open);
    } catch (err) {
      const opened = stream as SseStream | null;
      if (!opened) throw err;
      const { status, body } = renderError(err);
      if (this.logger) logFailure(this.logger, err, status, { requestId: res.getHeader('x-request-id'), method: req.method, path: req.path, stream: true });
      const { code, message, details } = body.error;
      opened.send('error', { ...(isPlainObject(details) ? details : {}), code, message });
    } finally {
      (stream as SseStream | null)?.close();
    }
  }

  add(s: SseStream): void {
    this.open.add(s);
    s.signal.addEventListener('abort', () => this.open.delete(s), { once: true });
  }
  closeAll(): void {
    for (const s of [...this.open]) s.close();
  }
  get size(): number {
    return this.open.size;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

export function openSse(req: Request, res: Response, opts: { heartbeatMs?: number; registry?: SseRegistry } = {}): SseStream {
  const controller = new AbortController();
  res.status(200);
  res.set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  res.write(': connected\n\n');
  const heartbeat = setInterval(() => {
    if (!res.writableEnded) res.write(': heartbeat\n\n');
  }, opts.heartbeatMs ?? 15_000);
  heartbeat.unref();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    if (!res.writableEnded) res.end();
    controller.abort();
  };
  // the response's close is the connection's (a client that goes away, or the end): the request's
  // fires as soon as a POST body has been read, which would end a POST stream at once
  res.on('close', close);
  const stream: SseStream = {
    send(event, data) {
      if (closed) return;
      if (req.app.locals.checkResponses === true) {
        try {
          checkEvent(res, event, data);
        } catch (err) {
          // checked only on test servers: the client sees the mismatch instead of the event
          res.write(`event: error\ndata: ${JSON.stringify({ code: 'response_mismatch', message: (err as Error).message })}\n\n`);
          close();
          return;
        }
      }
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    close,
    signal: controller.signal,
  };
  opts.registry?.add(stream);
  return stream;
}

export interface ChannelEvent<E extends string = string> {
  event: E;
  data: unknown;
}

type Subscriber<E extends string> = { onEvent(e: ChannelEvent<E>): void; onEnd(): void };

export class ReplayChannel<E extends string = string> {
  private readonly history: ChannelEvent<E>[] = [];
  private readonly subscribers = new Set<Subscriber<E>>();
  private ended = false;

  publish(event: E, data: unknown): void {
    if (this.ended) return;
    const e = { event, data };
    this.history.push(e);
    for (const s of this.subscribers) s.onEvent(e);
  }

  /** Marks the channel finished; subscribers are told after the last event. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const s of this.subscribers) s.onEnd();
    this.subscribers.clear();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  events(): readonly ChannelEvent<E>[] {
    return this.history;
  }

  /** Replays the history, then follows live events. Returns an unsubscribe function. */
  subscribe(sub: Subscriber<E>): () => void {
    for (const e of this.history) sub.onEvent(e);
    if (this.ended) {
      sub.onEnd();
      return () => {};
    }
    this.subscribers.add(sub);
    return () => this.subscribers.delete(sub);
  }

  /** Pipes the channel into an SSE response, closing it when the channel ends; settles then or when the client goes away. */
  pipeTo(stream: SseStream): Promise<void> {
    return new Promise((resolve) => {
      const unsubscribe = this.subscribe({
        onEvent: (e) => stream.send(e.event, e.data),
        onEnd: () => {
          stream.close();
          resolve();
        },
      });
      stream.signal.addEventListener(
        'abort',
        () => {
          unsubscribe();
          resolve();
        },
        { once: true },
      );
    });
  }
}
