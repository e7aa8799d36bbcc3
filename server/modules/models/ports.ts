// What the models module asks of other modules (container.ts hands these in).
import type { AuthService } from '../auth/service.js';
import type { DownloadsService } from '../downloads/service.js';
import type { Catalog } from '../features/public.js';
import type { FeaturesService } from '../features/service.js';
import type { SetupService } from '../setup/service.js';

export interface ModelsPorts {
  features: FeaturesService;
  /** The feature catalog: the Home inventory feature's vision models are preferred. */
  catalog: Catalog;
  downloads: DownloadsService;
  /** The auth module's members: an admin sets a member's model access. */
  users: AuthService;
  /** The setup module: the boot step repairs what setup chose. */
  setup: SetupService;
}
