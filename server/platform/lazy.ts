// Heavy libraries are loaded at their first use, not when the server starts: each one a start path
// imports adds to the time from `node dist/server/cli.js` to /api/system/ready (bench/startup.ts),
// and most serve one route or one job. `lazyRequire` is for CommonJS packages whose API a
// synchronous caller needs (undici's Agent behind the SSRF guard); `lazyImport` for the rest.
// test/api/startup-imports.test.ts fails when a listed heavy package is loaded by the time the
// server is ready.
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const require = createRequire(import.meta.url);

/** A CommonJS package, required the first time the returned function is called. */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}

/** A module, imported the first time the returned function is called (a failed import is tried again next time). */
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () =>
    (pending ??= load().catch((err: unknown) => {
      pending = null;
      throw err;
    }));
}

/** undici (request, fetch, Agent): over a hundred files, required at the first outbound request. */
export const undici = lazyRequire<typeof Undici>('undici');
