import type { ImageArtifactsService } from '../image-gen/artifacts-service.js';
import type { ImageEngineAdminService } from '../image-gen/engine-admin-service.js';
import type { ImageGenerateService } from '../image-gen/generate-service.js';

/** The image module's parts one measured picture needs (built before this module). */
export interface BenchmarkImagePorts {
  engine: Pick<ImageEngineAdminService, 'status'>;
  generate: Pick<ImageGenerateService, 'generate'>;
  artifacts: Pick<ImageArtifactsService, 'attach' | 'delete'>;
}

export interface BenchmarksPorts {
  image: BenchmarkImagePorts;
}
