// knex over better-sqlite3. One connection: better-sqlite3 is synchronous, so a single connection
// serializes writes inside this process and avoids SQLITE_BUSY between our own connections. Every
// statement of the process goes through it, which is what tableWrites() relies on.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';

export const BUSY_TIMEOUT_MS = 5000;

interface Statement {
  readonly busy: boolean;
  safeIntegers(on?: boolean): Statement;
}

interface Pragmas {
  pragma(sql: string): unknown;
  prepare(sql: string): Statement;
}

/** Prepared statements kept per SQL text (the least recently used beyond this are dropped). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * knex prepares every statement anew; for the short queries of most requests that is about half
 * of their cost. The connection keeps the statements it prepared (better-sqlite3 re-prepares a
 * kept one by itself after a schema change), bounded, and a statement still being iterated is
 * never handed out twice.
 */
function cacheStatements(conn: Pragmas): void {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, Statement>();
  conn.prepare = (sql: string) => {
    const kept = cache.get(sql);
    if (kept && !kept.busy) {
      // most recently used last, so the first key is the one to drop
      cache.delete(sql);
      cache.set(sql, kept);
      return kept.safeIntegers(false);
    }
    const fresh = prepare(sql);
    if (!kept) {
      cache.set(sql, fresh);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    return fresh;
  };
}

export function createDb(file: string): Knex {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  return knex({
    client: 'better-sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate: (conn: Pragmas, done: (err: Error | null, conn: Pragmas) => void) => {
        try {
          conn.pragma('journal_mode = WAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
          conn.pragma('synchronous = NORMAL');
          cacheStatements(conn);
          done(null, conn);
        } catch (err) {
          done(err as Error, conn);
        }
      },
    },
  });
}

/**
 * A counter that moves whenever a statement that may change one of `tables` runs on this
 * database: any statement but a SELECT that names one of them (a knex transaction's included; a
 * cascade from a parent table names the parent, so list the parents too). For in-memory caches
 * that must never outlive a change (see the session middleware).
 */
export function tableWrites(db: Knex, tables: readonly string[]): () => number {
  let version = 0;
  const names = new RegExp(`\\b(${tables.join('|')})\\b`, 'i');
  db.on('query', (q: { sql?: string }) => {
    const sql = q.sql ?? '';
    if (!/^\s*select\b/i.test(sql) && names.test(sql)) version++;
  });
  return () => version;
}
