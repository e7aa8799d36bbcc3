// What the auth module asks of other modules (container.ts hands these in).
import type { LocaleService } from '../locale/service.js';

export interface AuthPorts {
  /** The locale module: the signed-in member's language and region, answered with who they are. */
  locale: Pick<LocaleService, 'effective'>;
}
