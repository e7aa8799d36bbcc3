// The map catalog (resources/catalog/maps.json, or MAP_CATALOG_PATH): the regions an admin may
// install. A missing file is an empty catalog (the admin page says where to put one); a file that
// is there but wrong is a start-up error that names the problem, like the archive catalog.
import { existsSync, readFileSync } from 'node:fs';
import { MapCatalog } from './schema.js';

export function loadMapCatalog(file: string): MapCatalog {
  if (!existsSync(file)) return { regions: [] };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`The map catalog ${file} could not be read: ${(err as Error).message}`, { cause: err });
  }
  const parsed = MapCatalog.safeParse(json);
  if (!parsed.success) throw new Error(`The map catalog ${file} is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}
