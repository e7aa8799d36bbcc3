// What the content module asks of other modules (container.ts hands these in).
import type { AuthService } from '../auth/service.js';

export interface ContentPorts {
  /** The auth module: dials belong to members who exist; the adult state asks for the caller's PIN (its wrong tries count toward the sign-in lock). */
  users: Pick<AuthService, 'getUser' | 'confirmPin'>;
}
