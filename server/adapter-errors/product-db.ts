// The one translation of a product database failure (adapters/product-db/open-food-facts.ts) into an
// answer: one status, code and sentence per kind (docs/architecture.md, "Adapter failures"). The
// adapter's own message goes only to the log; nothing is cached from a failure.
import { ProductDbError, type ProductDbFailure } from '../adapters/product-db/open-food-facts.js';
import { AppError } from '../errors.js';

/** The product database's failure kind, for a log line; null for anything else. */
export function productDbFailureKind(err: unknown): ProductDbFailure | null {
  return err instanceof ProductDbError ? err.failure : null;
}

/** A product database failure as its AppError; anything else comes back unchanged. */
export function productDbAppError(err: unknown): unknown {
  if (!(err instanceof ProductDbError)) return err;
  switch (err.failure) {
    case 'unreachable':
    case 'blocked':
      return new AppError(503, 'product_lookup_unavailable', 'Hearth could not reach Open Food Facts, so the barcode was not looked up. Check the internet connection, or type the product’s name.');
    case 'busy':
      return new AppError(503, 'product_lookup_busy', 'Open Food Facts is busy right now, so the barcode was not looked up. Try again in a minute, or type the product’s name.');
    case 'timeout':
      return new AppError(504, 'product_lookup_timeout', 'Open Food Facts took too long to answer, so the barcode was not looked up. Try again later, or type the product’s name.');
    case 'http_error':
    case 'bad_response':
    case 'too_large':
      return new AppError(502, 'product_lookup_bad_response', 'Open Food Facts gave an answer Hearth could not read, so the barcode was not looked up. Type the product’s name instead.');
  }
}
