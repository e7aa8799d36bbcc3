// What both the download runner and the downloads service read: whether the queue is paused and
// where a job's destination lies. Built first by the container and handed to both, so neither
// needs the other to exist before it.
import type { AppSettingsStore } from '../../db/kv.js';
import { BadRequestError } from '../../errors.js';
import { resolveInsideFolders } from '../../platform/path-guard.js';
import { DOWNLOAD_FOLDERS, SETTING_QUEUE_PAUSED } from './schema.js';

export class DownloadQueueState {
  constructor(private readonly deps: { settings: AppSettingsStore; dataDir: string }) {}

  isPaused = async (): Promise<boolean> => (await this.deps.settings.get<boolean>(SETTING_QUEUE_PAUSED)) === true;

  async setPaused(paused: boolean): Promise<void> {
    await this.deps.settings.set(SETTING_QUEUE_PAUSED, paused);
  }

  /**
   * Absolute path of a job's destination: a file inside one of the download folders of DATA_DIR,
   * never the database or anything else Hearth keeps beside them.
   */
  destinationPath = (destination: string): string => {
    const abs = resolveInsideFolders(this.deps.dataDir, DOWNLOAD_FOLDERS, destination);
    if (!abs) {
      throw new BadRequestError(
        `A download can only be saved as a file in the ${DOWNLOAD_FOLDERS.join(', ')} folder of Hearth's data folder (for example archives/wikipedia.zim); "${destination.slice(0, 200)}" is not. Change the destination and try again.`,
      );
    }
    return abs;
  };
}
