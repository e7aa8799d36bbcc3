// Small helpers for tests and benchmarks that run real processes on loopback.
import net from 'node:net';

/** A loopback port nothing listens on: adapters pointed here see "connection refused". */
export const CLOSED_URL = 'http://127.0.0.1:9';

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

async function poll<T>(fn: () => Promise<T | null | undefined | false> | T | null | undefined | false, what: string, ms: number, everyMs: number, errorsMeanNotYet: boolean): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      if (!errorsMeanNotYet) throw err;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Polls `fn` until it returns something truthy (errors count as "not yet"); throws after `ms`. */
export function until<T>(fn: () => Promise<T | null | undefined | false> | T | null | undefined | false, what: string, ms = 30_000, everyMs = 25): Promise<T> {
  return poll(fn, what, ms, everyMs, true);
}

/** Polls `fn` until it returns something truthy; an error from `fn` fails at once. Throws after `ms`. */
export function waitFor<T>(fn: () => Promise<T | null | undefined | false> | T | null | undefined | false, what: string, ms: number, everyMs = 20): Promise<T> {
  return poll(fn, what, ms, everyMs, false);
}
