// Thin routes of the lookup module, /api/lookup: a barcode's product and a phone number's facts.
import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { BarcodeService } from './barcode-service.js';
import type { PhoneService } from './phone-service.js';
import { BarcodeParams, PhoneQuery, PhoneResponse, ProductResponse } from './schema.js';

export function createLookupRoutes(barcodes: BarcodeService, phones: PhoneService) {
  return defineRoutes((r) => {
    r.get('/barcode/:code', { access: 'user', response: ProductResponse }, async (req) => ({ product: await barcodes.barcode(actorOf(req), parse(BarcodeParams, req.params).code) }));
    r.get('/phone', { access: 'user', response: PhoneResponse }, async (req) => {
      const q = parse(PhoneQuery, req.query);
      return { phone: await phones.lookup(actorOf(req), q.number, q.region) };
    });
  });
}
