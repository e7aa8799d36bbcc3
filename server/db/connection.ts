// knex over better-sqlite3. One connection: better-sqlite3 is synchronous, so a single connection
// serializes writes inside this process and avoids SQLITE_BUSY between our own connections.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';

export const BUSY_TIMEOUT_MS = 5000;

interface Pragmas {
  pragma(sql: string): unknown;
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
          done(null, conn);
        } catch (err) {
          done(err as Error, conn);
        }
      },
    },
  });
}
