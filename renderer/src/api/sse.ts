// GET event streams over EventSource: typed handlers per event name, JSON payloads, and a clean
// close on a terminal event (the server ends replay streams after `done`; without closing, the
// browser would reconnect and replay everything again).

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
