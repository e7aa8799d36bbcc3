// What the speed test asks of other modules.
import type { AuthService } from '../auth/service.js';

export interface SpeedtestPorts {
  /** The household's members: the admin's history names who ran each test. */
  users: Pick<AuthService, 'listProfiles'>;
}
