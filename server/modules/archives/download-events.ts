// What a download stream of the archives module is sent (an archive, or the archive server's
// bundle): paced progress events, and the failure as the stream's error event shows it.
import { webFetchAppError } from '../../adapter-errors/web-fetch.js';
import type { DownloadProgress } from './schema.js';

/** One event of a stream whose events are the map M: its name and the data declared for it. */
export type Sent<M> = { [K in keyof M & string]: [event: K, data: M[K]] }[keyof M & string];

/**
 * Where a stream of this module sends its events, typed by the route's declared events (schema.ts).
 * A download's own failure is thrown (the starter's stream runner sends it); watchers are sent it as `error`.
 */
export interface EventSink<M> {
  send(...event: Sent<M>): void;
  signal: AbortSignal;
}

/**
 * A download's failure as the stream's `error` event shows it: the web fetch's one answer for its
 * kind (adapter-errors/web-fetch.ts); anything else is left to the stream runner, which says only
 * that something went wrong.
 */
export function downloadFailure(err: unknown): unknown {
  return webFetchAppError(err);
}

/**
 * The `progress` events of a download stream: at most one per 250 ms (the last one always), with the
 * average speed since the download started and the time left at that speed.
 */
export function progressEvents(out: Pick<EventSink<{ progress: DownloadProgress }>, 'send'>): (p: { bytesDone: number; bytesTotal: number | null }) => void {
  const started = Date.now();
  let last = 0;
  return ({ bytesDone, bytesTotal }) => {
    const t = Date.now();
    if (t - last < 250 && bytesDone !== bytesTotal) return;
    last = t;
    const seconds = (t - started) / 1000;
    const speedBps = seconds > 0 ? Math.round(bytesDone / seconds) : 0;
    out.send('progress', { bytesDone, bytesTotal, speedBps, etaSeconds: speedBps && bytesTotal ? Math.round((bytesTotal - bytesDone) / speedBps) : null });
  };
}
