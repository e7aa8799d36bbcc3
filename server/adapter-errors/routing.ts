// The one translation of a routing failure (adapters/routing/) into an answer: one status, code and
// sentence per kind (docs/architecture.md, "Adapter failures"). The adapter's message names
// programs and files: log only.
import { RoutingError } from '../adapters/routing/routino.js';
import { AppError } from '../errors.js';

/** A routing failure as its AppError; anything else comes back unchanged. */
export function routingAppError(err: unknown): unknown {
  if (!(err instanceof RoutingError)) return err;
  switch (err.failure) {
    case 'missing':
      return new AppError(503, 'routing_unavailable', 'Directions need Routino on the Hearth computer. An admin can install it (Debian: apt install routino).');
    case 'no_route':
      return new AppError(404, 'no_route', 'There is no way between those two places by that kind of travel on the roads Hearth knows. Try another mode, or points nearer a road.');
    case 'timeout':
      return new AppError(504, 'routing_timeout', 'Finding the way took too long. Try two places nearer each other.');
    case 'failed':
      return new AppError(502, 'routing_failed', 'Directions could not be worked out this time. Try again; if it keeps happening, an admin can download the map region again.');
  }
}
