// What the shopping module asks of other modules (container.ts hands these in).
import type { BarcodeService } from '../lookup/barcode-service.js';
import type { AvailabilityCheck } from '../tools/schema.js';

export interface ShoppingPorts {
  /** The lookup module: a scanned barcode's product names the item. */
  barcodes: Pick<BarcodeService, 'barcode'>;
  /** The features module's chat readiness: the `shopping_list` chat tool needs a chat model. */
  chatReadiness: AvailabilityCheck;
}
