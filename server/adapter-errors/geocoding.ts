// The one reading of an online geocoder failure (adapters/geocoding/): it never becomes an error
// answer — place search falls back to what Hearth has offline — so this gives the failure's kind for
// the log and the sentence the answer's `notice` carries. The adapter's message names no address.
import { GeocoderError, type GeocoderFailure } from '../adapters/geocoding/online.js';

/** The failure's kind and sentence; null for anything that is not the online geocoder's failure. */
export function onlineGeocoderFailure(err: unknown): { failure: GeocoderFailure; notice: string } | null {
  if (!(err instanceof GeocoderError)) return null;
  return { failure: err.failure, notice: `${err.message} These are the results Hearth has offline.` };
}
