// The token-leak scan for the media server's tests (issue 19, Authentication rule 6: no response
// body, header, log line or error message ever carries a Plex token).
//
// How to use it in a media test file (test/api/media-*.test.ts):
//
//   const scan = createTokenScan();
//   beforeAll(async () => {
//     fake = await startFakeMediaServer();
//     s = await startTestServer({ seed: 'household', config: { ... } });
//     scan.watch(s);                  // records every answer s.anon, s.admin and s.member receive
//     scan.watchClient(otherClient);  // …and any other TestClient the file makes
//   });
//   afterAll(...);
//   it('no Plex token reached a response or a log line', () => scan.expectNoTokens(fake.allTokens()));
//
// Put that `it` last in the file (vitest runs a file's tests in order), so it sees every answer the
// other tests received and every line the server logged (the server's MemoryLogger). A test that
// reads a response some other way (a raw socket, fetch) hands it over with scan.record(...). A
// browser test hands each page to scan.watchPage(page, label) and awaits scan.settled() before its
// last check.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestClient, TestResponse } from './client.js';
import type { TestServer } from './start-server.js';

export interface RecordedAnswer {
  what: string;
  status: number;
  headers: Record<string, unknown>;
  text: string;
}

export interface TokenScan {
  /** Records every answer the server's own clients (anon, admin, member) receive from now on, and its log. */
  watch(server: TestServer): void;
  /** Records every answer this client receives from now on. */
  watchClient(client: TestClient, label?: string): TestClient;
  /** An answer read some other way. */
  record(what: string, res: { status: number; headers: Record<string, unknown>; text?: string; body?: unknown }): void;
  /** Records every JSON answer under /api/ this browser page receives, once its body has fully arrived. */
  watchPage(page: Page, label: string): void;
  /** Waits until every page answer seen so far has been read. */
  settled(): Promise<void>;
  readonly answers: readonly RecordedAnswer[];
  /** Where any of the tokens appears: in an answer's status line, headers or body, or a log line. */
  leaks(tokens: readonly string[]): string[];
  /** Fails naming each place a token appeared; also fails when nothing was recorded (a scan of nothing proves nothing). */
  expectNoTokens(tokens: readonly string[]): void;
}

export function createTokenScan(): TokenScan {
  const answers: RecordedAnswer[] = [];
  const servers: TestServer[] = [];
  const watched = new WeakSet<TestClient>();
  const reading: Array<Promise<void>> = [];

  const watchClient = (client: TestClient, label = 'client'): TestClient => {
    if (watched.has(client)) return client;
    watched.add(client);
    const original = client.req.bind(client);
    client.req = async <T = any>(...args: Parameters<TestClient['req']>): Promise<TestResponse<T>> => {
      const res = await original<T>(...args);
      answers.push({ what: `${label} ${args[0]} ${args[1]} -> ${res.status}`, status: res.status, headers: res.headers as Record<string, unknown>, text: res.text });
      return res;
    };
    return client;
  };

  const scan: TokenScan = {
    answers,
    watch(server) {
      servers.push(server);
      watchClient(server.anon, 'anon');
      watchClient(server.admin, 'admin');
      watchClient(server.member, 'member');
    },
    watchClient,
    watchPage(page, label) {
      page.on('requestfinished', (req) => {
        const pathname = new URL(req.url()).pathname;
        if (!pathname.startsWith('/api/')) return;
        reading.push(
          (async () => {
            const res = await req.response();
            if (!res || !String(res.headers()['content-type'] ?? '').includes('application/json')) return;
            scan.record(`${label} ${req.method()} ${pathname}`, { status: res.status(), headers: res.headers(), text: await res.text() });
          })().catch(() => undefined),
        );
      });
    },
    async settled() {
      await Promise.all(reading);
    },
    record(what, res) {
      answers.push({ what, status: res.status, headers: res.headers, text: res.text ?? (typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? null)) });
    },
    leaks(tokens) {
      const found: string[] = [];
      const look = (where: string, text: string) => {
        for (const t of tokens) if (t && text.includes(t)) found.push(`${where}: token ${t.slice(0, 4)}…`);
      };
      for (const a of answers) {
        look(`${a.what} (headers)`, JSON.stringify(a.headers));
        look(`${a.what} (body)`, a.text);
      }
      for (const s of servers) s.logger.lines.forEach((line, i) => look(`log line ${i} (${String(line.msg ?? '')})`, JSON.stringify(line)));
      return found;
    },
    expectNoTokens(tokens) {
      expect(tokens.length, 'tokens to look for').toBeGreaterThan(0);
      expect(answers.length, 'answers recorded').toBeGreaterThan(0);
      expect(scan.leaks(tokens)).toEqual([]);
    },
  };
  return scan;
}
