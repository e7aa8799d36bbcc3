// An import writes its rows on the server's thread in slices of IMPORT_SLICE_MS, with a turn of the
// event loop between them, however slow a row is (a fixed 200 rows a turn held other requests for
// 50-450 ms on a loaded machine). The store here costs 5 ms of CPU per row; the loop must get a
// turn every few rows, and every row still lands in the one transaction.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { UserActor } from '../../server/actor.js';
import type { CsvTasks } from '../../server/modules/home-inventory/csv-tasks.js';
import type { DeviceRecord, HomeInventoryStore } from '../../server/modules/home-inventory/store.js';
import { HomeTransferService, IMPORT_SLICE_MS } from '../../server/modules/home-inventory/transfer-service.js';
import { createManualClock } from '../../server/platform/clock.js';

const ROW_CPU_MS = 5;
const ROWS = 40;

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // a row's zod check and insert, as CPU
  }
}

describe('Homebox import: rows are written in time slices', () => {
  it('gives the event loop a turn every few rows of a slow store, in one transaction', async () => {
    const written: DeviceRecord[] = [];
    let transactions = 0;
    const tx = {
      getDevice: async () => null,
      insertDevice: async (r: DeviceRecord) => {
        busy(ROW_CPU_MS);
        written.push(r);
      },
    } as unknown as HomeInventoryStore;
    const store = {
      transaction: async <T>(fn: (s: HomeInventoryStore) => Promise<T>) => {
        transactions++;
        return fn(tx);
      },
    } as unknown as HomeInventoryStore;
    const rows = Array.from({ length: ROWS }, (_, i) => ({ line: i + 2, body: { name: `Kettle ${i}` }, ref: null }));
    const csv = { homeboxRows: async () => rows } as unknown as CsvTasks;
    const service = new HomeTransferService({ store, clock: createManualClock(new Date('2026-12-02T12:00:00Z')), csv });

    // counts the turns the loop got while the import ran
    let turns = 0;
    let running = true;
    const counter = (async () => {
      while (running) {
        await nextTurn();
        turns++;
      }
    })();
    const actor: UserActor = { kind: 'user', id: 'u1', role: 'admin', name: 'Alex', sessionId: 's1' };
    const out = await service.importHomebox(actor, 'ignored: the fake worker answers');
    running = false;
    await counter;

    expect(out).toEqual({ imported: ROWS, skipped: [] });
    expect(written).toHaveLength(ROWS);
    expect(transactions).toBe(1);
    // a slice ends once IMPORT_SLICE_MS of work is done: two or three rows of 5 ms each here, so
    // well over one turn for every four rows (a fixed chunk of 200 rows gave none)
    expect(IMPORT_SLICE_MS).toBeLessThanOrEqual(2 * ROW_CPU_MS);
    expect(turns).toBeGreaterThanOrEqual(ROWS / 4);
  });
});
