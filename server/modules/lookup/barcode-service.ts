// A barcode's product: Hearth's own copy first (a product kept 30 days, "not known" a day), then Open
// Food Facts when Hearth is online, at most 15 reads a minute (OFF's rule for product reads, kept for
// the whole household: over it is a 429 with a sentence and Retry-After, and nothing is asked). An
// unknown code is 404 not_found; offline mode answers from the copy or 503 offline_mode. A failure
// of the source is its one answer (adapter-errors/product-db.ts) and nothing is kept from it.
import type { ProductDb, ProductFacts } from '../../adapters/product-db/open-food-facts.js';
import { productDbAppError, productDbFailureKind } from '../../adapter-errors/product-db.js';
import type { Actor } from '../../actor.js';
import { NotFoundError, ServiceUnavailableError, TooManyRequestsError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { OfflineState } from '../../platform/offline-switch.js';
import { offlineMessage } from '../../platform/ssrf.js';
import type { Product } from './schema.js';
import type { CachedBarcode, LookupStore } from './store.js';

export const FOUND_TTL_MS = 30 * 24 * 3600_000;
export const MISS_TTL_MS = 24 * 3600_000;
/** Open Food Facts' limit on product reads per minute per client. */
export const READS_PER_MINUTE = 15;

export interface BarcodeDeps {
  store: LookupStore;
  db: ProductDb;
  clock: Clock;
  logger: Logger;
  /** Offline mode, read at each lookup (platform/offline-switch.ts). */
  offline: OfflineState;
  readsPerMinute?: number;
}

/** Counts outbound reads in a sliding minute. */
export class ReadLimiter {
  private readonly at: number[] = [];
  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {}
  /** Takes one read, or says how many seconds until one is free. */
  take(): { ok: true } | { ok: false; waitSeconds: number } {
    const t = this.now();
    while (this.at.length > 0 && t - this.at[0]! >= 60_000) this.at.shift();
    if (this.at.length >= this.perMinute) return { ok: false, waitSeconds: Math.max(1, Math.ceil((this.at[0]! + 60_000 - t) / 1000)) };
    this.at.push(t);
    return { ok: true };
  }
}

export const unknownBarcode = (code: string) => new NotFoundError(`No product is known for the barcode ${code}. Check the digits, or type the product’s name.`);

export class BarcodeService {
  private readonly limiter: ReadLimiter;
  /** One read per code at a time: two phones scanning the same tin share the answer. */
  private readonly inFlight = new Map<string, Promise<CachedBarcode>>();

  constructor(private readonly deps: BarcodeDeps) {
    this.limiter = new ReadLimiter(deps.readsPerMinute ?? READS_PER_MINUTE, () => deps.clock.now().getTime());
  }

  /** The product with that barcode (every signed-in member may ask). */
  async barcode(_actor: Actor, code: string): Promise<Product> {
    const kept = await this.deps.store.barcode(code);
    if (kept && this.fresh(kept)) return answer(kept, true);
    if (this.deps.offline.isOn()) {
      // an old copy is better than nothing while Hearth may not ask
      if (kept) return answer(kept, true);
      throw new ServiceUnavailableError('offline_mode', `${offlineMessage(this.deps.offline.reason)} Barcodes Hearth has looked up before still answer.`);
    }
    let read = this.inFlight.get(code);
    if (!read) {
      read = this.read(code).finally(() => this.inFlight.delete(code));
      this.inFlight.set(code, read);
    }
    return answer(await read, false);
  }

  private fresh(c: CachedBarcode): boolean {
    const age = this.deps.clock.now().getTime() - Date.parse(c.fetchedAt);
    return age >= 0 && age < (c.product ? FOUND_TTL_MS : MISS_TTL_MS);
  }

  private async read(code: string): Promise<CachedBarcode> {
    const slot = this.limiter.take();
    if (!slot.ok) {
      throw new TooManyRequestsError(
        'lookup_rate_limited',
        `Hearth has asked Open Food Facts for ${this.deps.readsPerMinute ?? READS_PER_MINUTE} products in the last minute, the most it allows. Try again in ${slot.waitSeconds} second${slot.waitSeconds === 1 ? '' : 's'}, or type the product’s name.`,
        slot.waitSeconds,
      );
    }
    let facts: ProductFacts | null;
    try {
      facts = await this.deps.db.product(code);
    } catch (err) {
      const kind = productDbFailureKind(err);
      if (kind) this.deps.logger.warn({ code, failure: kind }, 'barcode lookup failed');
      throw productDbAppError(err);
    }
    const kept: CachedBarcode = {
      code,
      product: facts && { name: facts.name, brand: facts.brand, quantity: facts.quantity, imageUrl: facts.imageUrl, categories: facts.categories },
      fetchedAt: this.deps.clock.now().toISOString(),
    };
    await this.deps.store.putBarcode(kept);
    return kept;
  }
}

function answer(c: CachedBarcode, cached: boolean): Product {
  if (!c.product) throw unknownBarcode(c.code);
  return { code: c.code, ...c.product, source: 'open_food_facts', fetchedAt: c.fetchedAt, cached };
}
