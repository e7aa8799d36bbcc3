// GET event streams over EventSource: typed handlers per event name, JSON payloads, and a clean
// close on a terminal event (the server ends replay streams after `done`; without closing, the
// browser would reconnect and replay everything again). POST streams (EventSource cannot POST)
// go through openPostStream, a fetch-body reader with the same handlers.
import { ApiError, apiFetch, refusalSentence } from './client';

export type StreamHandlers<M> = { [K in keyof M]?: (data: M[K]) => void };

export interface StreamOptions<M> {
  /** Events after which the stream is finished and closed (e.g. 'done'). */
  closeOn?: ReadonlyArray<keyof M & string>;
  /** The connection dropped; EventSource retries on its own. */
  onDisconnect?: () => void;
  /** The connection is (re)established. */
  onOpen?: () => void;
}

export interface StreamHandle {
  close(): void;
}

export function openEventStream<M extends object>(
  url: string,
  handlers: StreamHandlers<M>,
  opts: StreamOptions<M> = {},
): StreamHandle {
  const source = new EventSource(url, { withCredentials: true });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    source.close();
  };
  for (const name of Object.keys(handlers) as Array<keyof M & string>) {
    source.addEventListener(name, (ev) => {
      if (closed) return;
      let data: unknown;
      try {
        data = JSON.parse((ev as MessageEvent<string>).data);
      } catch {
        data = undefined;
      }
      handlers[name]?.(data as M[typeof name]);
      if (opts.closeOn?.includes(name)) close();
    });
  }
  // Terminal events without a handler still close the stream.
  for (const name of opts.closeOn ?? []) {
    if (!(name in handlers)) source.addEventListener(name, close);
  }
  source.addEventListener('open', () => {
    if (!closed) opts.onOpen?.();
  });
  source.addEventListener('error', () => {
    if (!closed) opts.onDisconnect?.();
  });
  return { close };
}

export interface PostStreamHandle extends StreamHandle {
  /**
   * Settles when the stream is over: resolves when the server ends it (or after close()); rejects
   * with an ApiError when the request is refused before the stream starts (the server's own
   * {code, message}) or when the connection drops mid-stream (code `stream_lost`).
   */
  done: Promise<void>;
}

const LOST_MESSAGE = 'Lost touch with Hearth before it finished. Check that this device is on the home network, then try again.';

async function refusal(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => undefined)) as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined;
  const err = body?.error;
  const message = typeof err?.message === 'string' && err.message ? err.message : refusalSentence(res.status);
  return new ApiError(res.status, typeof err?.code === 'string' ? err.code : `http_${res.status}`, message, err?.details);
}

/** A request body sent as-is (a file, text) instead of JSON, with its own Content-Type. */
export class RawBody {
  constructor(
    readonly data: Blob | ArrayBuffer | string,
    readonly contentType: string,
  ) {}
}

/**
 * POSTs a body and reads the answer as an event stream (e.g. POST /api/setup/download). The body is
 * sent as JSON, as-is when it is a RawBody (e.g. an uploaded bookmarks file as text/html), or as
 * multipart when it is a FormData (a picture to edit with its fields).
 */
export function openPostStream<M extends object>(
  url: string,
  body: unknown,
  handlers: StreamHandlers<M>,
  opts: Pick<StreamOptions<M>, 'closeOn'> = {},
): PostStreamHandle {
  return openFetchStream(url, { method: 'POST', body }, handlers, opts);
}

/**
 * Reads a GET event stream over fetch instead of EventSource, for one-shot streams whose refusal
 * matters (e.g. an archive download the server turns down: EventSource cannot read the JSON
 * reason, fetch can). No automatic reconnect: a drop rejects `done` with `stream_lost`.
 */
export function openGetStream<M extends object>(url: string, handlers: StreamHandlers<M>, opts: Pick<StreamOptions<M>, 'closeOn'> = {}): PostStreamHandle {
  return openFetchStream(url, { method: 'GET' }, handlers, opts);
}

function openFetchStream<M extends object>(
  url: string,
  request: { method: 'GET' } | { method: 'POST'; body: unknown },
  handlers: StreamHandlers<M>,
  opts: Pick<StreamOptions<M>, 'closeOn'> = {},
): PostStreamHandle {
  const controller = new AbortController();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    controller.abort();
  };
  const dispatch = (frame: string) => {
    let name = 'message';
    const data: string[] = [];
    for (const line of frame.split(/\r?\n/)) {
      if (line.startsWith('event:')) name = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (closed || data.length === 0) return;
    let payload: unknown;
    try {
      payload = JSON.parse(data.join('\n'));
    } catch {
      payload = undefined;
    }
    (handlers as Record<string, ((d: unknown) => void) | undefined>)[name]?.(payload);
    if ((opts.closeOn as readonly string[] | undefined)?.includes(name)) close();
  };
  const done = (async () => {
    try {
      const init: RequestInit = { method: request.method, headers: { Accept: 'text/event-stream' }, signal: controller.signal };
      if (request.method === 'POST') {
        const { body } = request;
        if (body instanceof FormData) {
          // multipart: the browser writes the Content-Type with its boundary
          init.body = body;
        } else {
          init.headers = { Accept: 'text/event-stream', 'Content-Type': body instanceof RawBody ? body.contentType : 'application/json' };
          init.body = body instanceof RawBody ? body.data : JSON.stringify(body);
        }
      }
      const res = await apiFetch(url, init);
      if (!res.ok || !(res.headers.get('Content-Type') ?? '').includes('text/event-stream')) throw await refusal(res);
      if (!res.body) throw new ApiError(0, 'stream_lost', LOST_MESSAGE);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        buffer += value;
        const frames = buffer.split(/\r?\n\r?\n/);
        buffer = frames.pop() ?? '';
        for (const f of frames) dispatch(f);
        if (closed) return;
      }
      if (buffer.trim()) dispatch(buffer);
    } catch (err) {
      if (closed) return;
      if (err instanceof ApiError) throw err;
      // the body broke off mid-stream
      throw new ApiError(0, 'stream_lost', LOST_MESSAGE);
    } finally {
      closed = true;
    }
  })();
  return { close, done };
}
