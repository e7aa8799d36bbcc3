// The archive catalog (resources/catalog/archives.json, or ARCHIVE_CATALOG_PATH in tests).
import { readFileSync } from 'node:fs';
import { ArchiveCatalog } from './schema.js';

export function loadArchiveCatalog(file: string): ArchiveCatalog {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`The archive catalog ${file} could not be read: ${(err as Error).message}`, { cause: err });
  }
  const parsed = ArchiveCatalog.safeParse(json);
  if (!parsed.success) throw new Error(`The archive catalog ${file} is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}
