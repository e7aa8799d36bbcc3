// The fixture archives installed on a test server as a finished download leaves them (a row per
// archive and the file in place), then served by the real kiwix-serve: for tests about what is
// done with installed archives (search, chat tools), not about installing them.
import { copyFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ArchivesStore } from '../../server/modules/archives/store.js';
import type { TestServer } from './start-server.js';
import type { TestZims } from './zims.js';

/** Installs the fixture archives as a finished download leaves them, and serves them. */
export async function installFixtureArchives(s: Pick<TestServer, 'handle'>, zims: TestZims, dir: string): Promise<void> {
  const store = new ArchivesStore(s.handle.deps.db);
  const now = new Date().toISOString();
  for (const [id, file] of [
    ['fixturepedia', zims.encyclopedia],
    ['fixturebooks', zims.books],
  ] as const) {
    const dest = path.join(dir, 'archives', id, path.basename(file));
    mkdirSync(path.dirname(dest), { recursive: true });
    copyFileSync(file, dest);
    await store.upsert({ sourceId: id, variantKey: 'all', filePath: dest, fileSizeBytes: statSync(dest).size, zimDate: '2024-05', downloadedAt: now, verifiedAt: now }, now);
  }
  await s.handle.deps.archives.serve();
}

/** An archive catalog naming the fixture archives (their labels are shown in results). */
export function fixtureCatalog(dir: string, zims: TestZims): string {
  const file = path.join(dir, 'archives.json');
  const source = (id: string, label: string, zim: string) => ({
    id,
    label,
    description: label,
    category: 'Reference',
    faviconUrl: 'https://example.org/f.ico',
    variants: [{ key: 'all', label: 'All', url: `https://example.org/${path.basename(zim)}`, sizeBytes: statSync(zim).size, date: '2024-05', language: 'eng' }],
  });
  writeFileSync(file, JSON.stringify({ sources: [source('fixturepedia', 'Fixturepedia', zims.encyclopedia), source('fixturebooks', 'Fixture books', zims.books)] }));
  return file;
}

