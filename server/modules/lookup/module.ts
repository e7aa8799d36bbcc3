// The lookup module (issue 38): /api/lookup, a barcode's product (Hearth's copy first, then Open
// Food Facts, through the one SSRF guard) and a phone number's country, place, carrier and line type
// (offline). The shopping module names a scanned item through its barcode service.
import { createOpenFoodFacts } from '../../adapters/product-db/open-food-facts.js';
import { defineModule, type Platform } from '../module.js';
import { BarcodeService } from './barcode-service.js';
import { PhoneService } from './phone-service.js';
import { createLookupRoutes } from './routes.js';
import { LookupStore } from './store.js';

/** Open Food Facts asks each client to name itself (and a way to reach whoever runs it). */
export const LOOKUP_USER_AGENT = 'Hearth/0.1 (self-hosted household server; barcode lookup)';

export function createLookupModule(p: Platform) {
  const productDb = createOpenFoodFacts({ baseUrl: p.config.openFoodFactsUrl, guard: p.guard, userAgent: LOOKUP_USER_AGENT, timeoutMs: p.tuning.todayFetchTimeoutMs ?? 8_000 });
  const barcodes = new BarcodeService({ store: new LookupStore(p.db), db: productDb, clock: p.clock, logger: p.logger.child('lookup'), offline: p.offline });
  const phones = new PhoneService();
  return defineModule({
    name: 'lookup',
    routes: [{ prefix: '/lookup', routes: createLookupRoutes(barcodes, phones) }],
    services: { barcodeLookup: barcodes, phoneLookup: phones },
  });
}
