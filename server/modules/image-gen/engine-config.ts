// The image engine's setup as an admin chose it (app settings): the ComfyUI folder and its Python,
// and the checkpoint in app setting image_model (the spec's name). IMAGE_ENGINE_URL, when set,
// points at an engine Hearth uses as it is.
import path from 'node:path';
import type { AppSettingsStore } from '../../db/kv.js';

export const ENGINE_SETTING = 'image_engine';
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

  async engine(): Promise<StoredEngineConfig> {
    const v = await this.deps.settings.get<Partial<StoredEngineConfig>>(ENGINE_SETTING);
    return { installDir: typeof v?.installDir === 'string' ? v.installDir : null, python: typeof v?.python === 'string' ? v.python : null };
  }

  async setEngine(c: StoredEngineConfig): Promise<void> {
    await this.deps.settings.set(ENGINE_SETTING, c);
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
