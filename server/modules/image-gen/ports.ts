// What the image generation module asks of other modules (container.ts hands these in).
import type { ContentService } from '../content/service.js';
import type { DownloadsService } from '../downloads/service.js';
import type { Catalog } from '../features/public.js';
import type { AvailabilityCheck } from '../tools/schema.js';
import type { ImageEngineParts } from './engine-admin-service.js';
import type { LoraRegistry } from './hub-service.js';
import type { ImageModelHelper } from './parts.js';

export interface ImageGenPorts {
  /** The auth module's members: a LoRA is shared with members who exist. */
  users: { getUser(id: string): Promise<{ id: string; role: string } | null> };
  /**
   * The content module: a member's image protections are read from (and, on their old route,
   * written to) their content dials; adult LoRAs and adult pictures also need the adult state.
   */
  content: Pick<ContentService, 'imageProtections' | 'setImageProtections' | 'adultStateOn'>;
  /** The downloads module's queue: the model hub's imports go through it. */
  downloads: DownloadsService;
  /** The features module's catalog: what the Image engine feature downloads. */
  catalog: Catalog;
  /** The models module: the text and vision models of prompt help and preview-check. */
  models: ImageModelHelper;
  /** The features module's chat readiness: the image Extensions need a chat model. */
  chatReadiness: AvailabilityCheck;
  /** Tests' stand-ins: where the hub registers imported LoRAs, and the engine's client, runtime and queue. */
  loraRegistry?: LoraRegistry;
  engine?: ImageEngineParts;
}
