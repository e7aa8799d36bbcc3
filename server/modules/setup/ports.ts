// What the setup module asks of other modules (container.ts hands these in).
import type { AuthService } from '../auth/service.js';
import type { DownloadsService } from '../downloads/service.js';
import type { Catalog } from '../features/catalog.js';
import type { FeaturesService } from '../features/service.js';
import type { NotificationsService } from '../notifications/service.js';

export interface SetupPorts {
  users: AuthService;
  features: FeaturesService;
  catalog: Catalog;
  downloads: DownloadsService;
  notifications: NotificationsService;
}
