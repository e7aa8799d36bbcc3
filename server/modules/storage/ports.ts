// What the storage module asks of other modules (container.ts hands these in).
import type { ConverterService } from '../converter/service.js';
import type { DownloadsService } from '../downloads/service.js';
import type { ModuleManifest } from '../module.js';
import type { ConditionNotifications } from '../notifications/public.js';

export interface StoragePorts {
  /** The download queue: the .part files of live downloads stay; any other is a failed or cancelled one's. */
  downloads: Pick<DownloadsService, 'livePartFiles'>;
  /** The converter: the files it still keeps and the jobs it runs stay; the rest of its folder may go. */
  converter: Pick<ConverterService, 'inUse'>;
  /** The admins hear of a nearly full disk until there is room again. */
  conditions: ConditionNotifications;
  /** Every module, for the folders each declares (`storageAreas`); asked once all are built. */
  modules(): readonly ModuleManifest[];
}
