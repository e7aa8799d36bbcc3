// A minimal server-sent-events reader for API tests: collects `event:` + `data:` frames from a GET
// stream (node:http, so nothing is buffered or retried), and says when the server ends the stream.
import http from 'node:http';

export interface SseEvent {
  event: string;
  data: any;
}

export interface SseConnection {
  status: number;
  headers: http.IncomingHttpHeaders;
  events: SseEvent[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  isEnded(): boolean;
  /** Resolves with the first collected event matching `match` (waits for it, up to timeoutMs). */
  waitFor(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
}

/** Opens a GET event stream, or a POST one when `post` gives the JSON body (e.g. an archive download). */
export function connectSse(baseUrl: string, path: string, headers: Record<string, string> = {}, post?: { body: unknown }): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const body = post ? JSON.stringify(post.body) : undefined;
    const options = { method: post ? 'POST' : 'GET', headers: { accept: 'text/event-stream', ...(post ? { 'content-type': 'application/json' } : {}), ...headers } };
    const req = http.request(`${baseUrl}${path}`, options, (res) => {
      const events: SseEvent[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      let ended = false;
      const ended_ = new Promise<void>((done) => {
        const finish = () => {
          ended = true;
          for (const w of waiters) w();
          done();
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let idx: number;
        while ((idx = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, idx);
          buffer = buffer.slice(idx + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) continue;
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
          }
          if (data.length === 0) continue;
          const text = data.join('\n');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // keep the text
          }
          events.push({ event, data: parsed });
          for (const w of waiters) w();
        }
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        ended: ended_,
        isEnded: () => ended,
        waitFor(match, timeoutMs = 5000) {
          return new Promise((ok, fail) => {
            const check = () => {
              const found = events.find(match);
              if (found) {
                cleanup();
                ok(found);
              } else if (ended) {
                cleanup();
                fail(new Error(`stream ended without the expected event; got ${JSON.stringify(events)}`));
              }
            };
            const timer = setTimeout(() => {
              cleanup();
              fail(new Error(`timed out waiting for an event; got ${JSON.stringify(events)}`));
            }, timeoutMs);
            const cleanup = () => {
              clearTimeout(timer);
              waiters.delete(check);
            };
            waiters.add(check);
            check();
          });
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
