// Moving the inventory in and out: a JSON export (every device with its files' labels, links and
// service log; no file paths, no extracted text), and Homebox's CSV with its HB.* columns both ways
// (homebox-csv.ts), so a household can come from Homebox and go back. An import's file is read and
// mapped in the parse worker (csv-tasks.ts); it writes all its rows or none, in one transaction that
// lets the event loop in between chunks; rows that cannot be read are listed with a sentence.
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type * as CsvStringify from 'csv-stringify/sync';
import { lazyRequire } from '../../platform/lazy.js';
import type { UserActor } from '../../actor.js';
import { UnprocessableError } from '../../errors.js';
import { WorkerCrashedError, WorkerTimeoutError } from '../../platform/workers/parse-worker.js';
import type { Clock } from '../../platform/clock.js';
import { RowResult, type CsvTasks } from './csv-tasks.js';
import { escapeCell, HOMEBOX_COLUMNS, toHomeboxRow } from './homebox-csv.js';
import type { ServiceEntry } from './schema.js';
import { newDeviceRecord } from './service.js';
import type { DeviceRecord, HomeInventoryStore } from './store.js';
import { linkView, serviceView } from './views.js';

// loaded by the first export, not at start
const loadCsvStringify = lazyRequire<typeof CsvStringify>('csv-stringify/sync');

export const IMPORTED_NOT_LOOKED_UP = 'Not looked up yet: this device came from an imported file.';

/**
 * An import checks and writes rows for at most this long before it gives the event loop a turn: a
 * fixed count of rows (200 before) held other requests 50-450 ms on a loaded 2-core machine, where a
 * row's zod check and knex insert cost 0.3-2 ms.
 */
export const IMPORT_SLICE_MS = 8;

export interface HomeTransferDeps {
  store: HomeInventoryStore;
  clock: Clock;
  /** Reads import files in the parse worker. */
  csv: CsvTasks;
}

export interface JsonExportDevice {
  id: string;
  name: string;
  fields: Omit<DeviceRecord, 'id' | 'name' | 'manualPath' | 'manualText' | 'photoPath' | 'mainPhotoId' | 'warrantyNudged30For' | 'warrantyNudged7For' | 'createdBy' | 'rawLabelText'>;
  rawLabelText: string | null;
  files: Array<{ label: string; fileType: string; contentType: string; bytes: number; source: string; comment: string | null; createdAt: string }>;
  links: ReturnType<typeof linkView>[];
  serviceLog: ServiceEntry[];
}

export class HomeTransferService {
  constructor(private readonly deps: HomeTransferDeps) {}

  async exportJson(_actor: UserActor): Promise<{ exportedAt: string; devices: JsonExportDevice[] }> {
    const list = await this.deps.store.listDevices();
    const devices: JsonExportDevice[] = [];
    for (const summary of list) {
      const d = (await this.deps.store.getDevice(summary.id))!;
      const [files, links, service] = await Promise.all([this.deps.store.listFiles(d.id), this.deps.store.listLinks(d.id), this.deps.store.listService(d.id)]);
      const { id, name, manualPath: _mp, manualText: _mt, photoPath: _pp, mainPhotoId: _mp2, warrantyNudged30For: _n30, warrantyNudged7For: _n7, createdBy: _cb, rawLabelText, ...fields } = d;
      devices.push({
        id,
        name,
        fields,
        rawLabelText,
        files: files.map((f) => ({ label: f.label, fileType: f.fileType, contentType: f.contentType, bytes: f.bytes, source: f.source, comment: f.comment, createdAt: f.createdAt })),
        links: links.map(linkView),
        serviceLog: service.map(serviceView),
      });
    }
    return { exportedAt: this.deps.clock.now().toISOString(), devices };
  }

  async exportHomebox(_actor: UserActor): Promise<string> {
    const rows = (await this.deps.store.listDevices()).map(toHomeboxRow);
    const fields = [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => k.startsWith('HB.field.'))))].sort();
    const columns = [...HOMEBOX_COLUMNS, ...fields];
    const escaped = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, escapeCell(v)])));
    return loadCsvStringify().stringify(escaped, { header: true, columns, record_delimiter: '\n' });
  }

  /**
   * Writes every readable row in one transaction; the others are listed with a sentence. The file is
   * read in the parse worker; the rows are checked and written here in slices of IMPORT_SLICE_MS, with
   * a turn of the event loop between them (the one database connection waits, the HTTP server does not).
   */
  async importHomebox(actor: UserActor, text: string): Promise<{ imported: number; skipped: Array<{ row: number; reason: string }> }> {
    const rows = await this.deps.csv.homeboxRows(text).catch((err: unknown) => {
      if (err instanceof WorkerTimeoutError || err instanceof WorkerCrashedError)
        throw new UnprocessableError('import_too_complex', 'Reading this file took more than Hearth allows, so nothing was imported. Split it into smaller files and import each part.');
      throw err;
    });
    const skipped: Array<{ row: number; reason: string }> = [];
    const now = this.deps.clock.now().toISOString();
    const seen = new Set<string>();
    const imported = await this.deps.store.transaction(async (tx) => {
      let count = 0;
      let sliceStart = performance.now();
      for (let i = 0; i < rows.length; i++) {
        if (performance.now() - sliceStart >= IMPORT_SLICE_MS) {
          await nextTurn();
          sliceStart = performance.now();
        }
        const mapped = RowResult.parse(rows[i]);
        if ('reason' in mapped) {
          skipped.push({ row: mapped.line, reason: mapped.reason });
          continue;
        }
        const ref = mapped.ref && /^[A-Za-z0-9-]{8,64}$/.test(mapped.ref) ? mapped.ref : null;
        if (ref && (seen.has(ref) || (await tx.getDevice(ref)))) {
          skipped.push({ row: mapped.line, reason: `“${mapped.body.name}” is already in the inventory (import ref ${ref}).` });
          continue;
        }
        if (ref) seen.add(ref);
        const record = newDeviceRecord(ref ?? randomUUID(), mapped.body, actor.id, now);
        record.lookupError = IMPORTED_NOT_LOOKED_UP;
        await tx.insertDevice(record);
        count++;
      }
      return count;
    });
    return { imported, skipped };
  }

  /** Stops the import worker (a later import starts a new one). */
  close(): Promise<void> {
    return this.deps.csv.close();
  }
}
