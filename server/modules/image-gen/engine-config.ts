// The image engine's setup as an admin chose it (app settings): the ComfyUI folder and its Python,
// and the checkpoint in app setting image_model (the spec's name). IMAGE_ENGINE_URL, when set,
// points at an engine Hearth uses as it is.
import path from 'node:path';
import type { AppSettingsStore } from '../../db/kv.js';
import { IMAGE_ENGINE_DIR_KEY, IMAGE_ENGINE_PYTHON_KEY } from './runtime.js';

export const CHECKPOINT_SETTING = 'image_model';

export interface StoredEngineConfig {
  installDir: string | null;
  python: string | null;
}

export class ImageEngineConfig {
  constructor(
    private readonly deps: { settings: AppSettingsStore; dataDir: string; externalUrl: string | null },
  ) {}

  get externalUrl(): string | null {
    return this.deps.externalUrl;
  }

  /** The folder and Python the engine runtime starts (runtime.ts reads the same settings). */
  async engine(): Promise<StoredEngineConfig> {
    const [dir, python] = await Promise.all([this.deps.settings.get<unknown>(IMAGE_ENGINE_DIR_KEY), this.deps.settings.get<unknown>(IMAGE_ENGINE_PYTHON_KEY)]);
    return { installDir: typeof dir === 'string' && dir ? dir : null, python: typeof python === 'string' && python ? python : null };
  }

  async setEngine(c: StoredEngineConfig): Promise<void> {
    for (const [key, value] of [[IMAGE_ENGINE_DIR_KEY, c.installDir], [IMAGE_ENGINE_PYTHON_KEY, c.python]] as const) {
      if (value === null) await this.deps.settings.delete(key);
      else await this.deps.settings.set(key, value);
    }
  }

  /** An engine folder is set up, or IMAGE_ENGINE_URL points at one. */
  async configured(): Promise<boolean> {
    return this.deps.externalUrl !== null || (await this.engine()).installDir !== null;
  }

  async checkpoint(): Promise<string | null> {
    const v = await this.deps.settings.get<unknown>(CHECKPOINT_SETTING);
    return typeof v === 'string' && v ? v : null;
  }

  async setCheckpoint(name: string | null): Promise<void> {
    if (name === null) await this.deps.settings.delete(CHECKPOINT_SETTING);
    else await this.deps.settings.set(CHECKPOINT_SETTING, name);
  }

  /** The engine's models/loras folder: in its install folder, else Hearth's own under DATA_DIR. */
  async lorasDir(): Promise<string> {
    const { installDir } = await this.engine();
    return installDir ? path.join(installDir, 'models', 'loras') : path.join(this.deps.dataDir, 'image-engine', 'models', 'loras');
  }
}
