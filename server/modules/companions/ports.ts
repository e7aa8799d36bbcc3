// What the companions module asks of other modules (container.ts hands these in).
import type { AuthService } from '../auth/service.js';
import type { ContentService } from '../content/service.js';

export interface CompanionsPorts {
  /** The auth module's members: a grant names a member who exists. */
  users: Pick<AuthService, 'getUser'>;
  /** The content module: a member is offered only companions at or below their Chat level. */
  content: Pick<ContentService, 'effective'>;
}
