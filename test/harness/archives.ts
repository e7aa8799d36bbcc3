// The fixture archives on a test server. Installed as a finished download leaves them (a row per
// archive and the file in place), then served by the real kiwix-serve: for tests about what is
// done with installed archives (search), not about installing them. Or offered for download in an
// archive catalog, their files served by a FakeFileServer, and installed through the admin's
// download stream: for tests that go the way a household does (library, chat).
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ArchivesStore } from '../../server/modules/archives/store.js';
import { sha256, type FakeFileServer } from '../fakes/file-server.js';
import { connectSse } from './sse-client.js';
import type { TestServer } from './start-server.js';
import type { TestZims } from './zims.js';

/** The fixture encyclopedia as a catalog source, without its variants. */
export const FIXTUREPEDIA = { id: 'fixturepedia', label: 'Fixturepedia', description: 'The household encyclopedia', category: 'Encyclopedia', faviconUrl: 'https://example.org/f.ico' };
/** The fixture books as a catalog source, without its variants. */
export const FIXTURE_BOOKS = {
  id: 'fixturebooks',
  label: 'Fixture books',
  description: 'Old books about the house',
  category: 'Books',
  bookCategory: 'How-to',
  faviconUrl: 'https://example.org/b.ico',
};

/** A catalog variant whose file `files` serves as `name`, with the size and SHA-256 a catalog gives. */
export function servedVariant(files: FakeFileServer, name: string, file: string, extra: object = {}) {
  const data = readFileSync(file);
  return { key: 'all', label: 'Everything', url: files.addFile(name, file), sizeBytes: data.length, sha256: sha256(data), date: '2024-05', language: 'eng', ...extra };
}

/** Writes an archive catalog of `sources` in `dir`; returns its path (config.archiveCatalogPath). */
export function writeCatalog(dir: string, sources: readonly object[]): string {
  const file = path.join(dir, 'archives.json');
  writeFileSync(file, JSON.stringify({ sources }));
  return file;
}

/** Downloads and installs a catalog source through the admin's download stream, as the Archives page does. */
export async function installFromCatalog(s: Pick<TestServer, 'url' | 'admin'>, sourceId: string): Promise<void> {
  const install = await connectSse(s.url, `/api/admin/archives/download/${encodeURIComponent(sourceId)}`, { cookie: s.admin.cookie! }, { body: {} });
  await install.ended;
}

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
  const source = (id: string, label: string, zim: string) => ({
    id,
    label,
    description: label,
    category: 'Reference',
    faviconUrl: 'https://example.org/f.ico',
    variants: [{ key: 'all', label: 'All', url: `https://example.org/${path.basename(zim)}`, sizeBytes: statSync(zim).size, date: '2024-05', language: 'eng' }],
  });
  return writeCatalog(dir, [source('fixturepedia', 'Fixturepedia', zims.encyclopedia), source('fixturebooks', 'Fixture books', zims.books)]);
}
