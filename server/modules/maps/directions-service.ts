// Directions between two points inside an installed region whose roads were made into a routing
// graph (Routino). Which region answers: the first, by name, whose box holds both points and whose
// directions are ready; none → 422 routing_not_installed with what to do. Every run has a time limit.
import type { Actor } from '../../actor.js';
import type { RouteResult, Routino, TravelMode } from '../../adapters/routing/routino.js';
import { routingAppError } from '../../adapter-errors/routing.js';
import { ServiceUnavailableError, UnprocessableError } from '../../errors.js';
import type { MapsStore, RegionRecord } from './store.js';

/** A route in a town takes 0.07 s here; a county-sized graph well under a second. */
const ROUTE_TIMEOUT_MS = 10_000;

export interface DirectionsDeps {
  store: MapsStore;
  routing: () => Pick<Routino, 'route'> | null;
  graphDir: (regionId: string) => string;
}

/** A point on a region's edge (its last street) counts as inside: ~200 m of slack, the router says if no road is near. */
const EDGE = 0.002;
const inside = (r: RegionRecord, [lat, lon]: [number, number]) => lon >= r.bbox[0] - EDGE && lon <= r.bbox[2] + EDGE && lat >= r.bbox[1] - EDGE && lat <= r.bbox[3] + EDGE;

export class DirectionsService {
  constructor(private readonly deps: DirectionsDeps) {}

  async route(_actor: Actor, from: [number, number], to: [number, number], mode: TravelMode, signal: AbortSignal): Promise<RouteResult & { regionId: string }> {
    const regions = await this.deps.store.listRegions();
    const covering = regions.filter((r) => inside(r, from) && inside(r, to));
    const region = covering.find((r) => r.routing === 'ready');
    if (!region) {
      const why = covering.length === 0 ? 'No installed map covers both places.' : `Directions for ${covering[0]!.name} are not ready${covering[0]!.routingError ? `: ${covering[0]!.routingError}` : '.'}`;
      throw new UnprocessableError('routing_not_installed', `${why} An admin can add a map region with directions under Admin › Maps.`);
    }
    const routing = this.deps.routing();
    if (!routing) throw new ServiceUnavailableError('routing_unavailable', 'Directions need Routino on the Hearth computer. An admin can install it (Debian: apt install routino).');
    try {
      return { ...(await routing.route({ dir: this.deps.graphDir(region.id), prefix: region.id, from, to, mode, signal, timeoutMs: ROUTE_TIMEOUT_MS })), regionId: region.id };
    } catch (err) {
      throw routingAppError(err);
    }
  }
}
