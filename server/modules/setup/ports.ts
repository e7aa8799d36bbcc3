// What the setup module asks of other modules (container.ts hands these in).
import type { AuthService } from '../auth/service.js';
import type { DownloadsService } from '../downloads/service.js';
import type { Catalog } from '../features/public.js';
import type { FeaturesService } from '../features/service.js';
import type { ConditionNotifications } from '../notifications/public.js';

export interface SetupPorts {
  users: AuthService;
  features: FeaturesService;
  catalog: Catalog;
  downloads: DownloadsService;
  /** The notifications module's conditions: setup finished without the models until they are there. */
  conditions: ConditionNotifications;
}
