// What the music module asks of other modules (container.ts hands these in).
import type { ContentService } from '../content/service.js';
import type { ImageEngineAdminService } from '../image-gen/engine-admin-service.js';

export interface MusicPorts {
  /** The image module's engine: music runs its own graphs on the household's one ComfyUI. */
  engine: Pick<ImageEngineAdminService, 'configured' | 'engineParts'>;
  /** The content module: a member's dials decide what their prompts may ask for, and adult pieces need the adult state. */
  content: Pick<ContentService, 'imageProtections' | 'adultStateOn'>;
}
