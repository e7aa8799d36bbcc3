// Runs the migrations in /migrations (compiled .js next to the built server, .ts in source).
// Names are stored without their extension so source and built runs share one history.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';

interface MigrationFile {
  name: string;
  file: string;
}

/** The migrations folder beside the running code: ../../migrations from server/db (or dist/server/db). */
export function defaultMigrationsDir(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'migrations');
}

class FolderMigrationSource implements Knex.MigrationSource<MigrationFile> {
  constructor(private readonly dir: string) {}

  getMigrations(): Promise<MigrationFile[]> {
    const files = readdirSync(this.dir)
      .filter((f) => /^\d{14}_[a-z0-9_]+\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
      .sort();
    return Promise.resolve(files.map((f) => ({ name: f.replace(/\.(ts|js)$/, ''), file: path.join(this.dir, f) })));
  }

  getMigrationName(m: MigrationFile): string {
    return m.name;
  }

  async getMigration(m: MigrationFile): Promise<Knex.Migration> {
    return (await import(pathToFileURL(m.file).href)) as Knex.Migration;
  }
}

export async function runMigrations(db: Knex, dir = defaultMigrationsDir()): Promise<string[]> {
  const [, names] = (await db.migrate.latest({ migrationSource: new FolderMigrationSource(dir) })) as [number, string[]];
  return names;
}
