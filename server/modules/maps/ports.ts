// What the maps module asks of other modules (container.ts hands these in).
import type { DownloadsService } from '../downloads/service.js';

export interface MapsPorts {
  /** The downloads module's queue: region files are fetched through it. */
  downloads: DownloadsService;
}
