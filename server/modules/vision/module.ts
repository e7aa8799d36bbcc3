// The vision module (/api/vision): a photo looked at by the household's vision model and answered
// as JSON in a task's schema (describe, text, receipt, label) or the caller's; chat hands it the
// photos a chat model that cannot see is sent.
import { defineModule, type Platform } from '../module.js';
import type { VisionPorts } from './ports.js';
import { createVisionRoutes } from './routes.js';
import { VisionStore } from './store.js';
import { VisionService } from './vision-service.js';

export function createVisionModule(p: Platform, ports: VisionPorts) {
  const vision = new VisionService({
    store: new VisionStore(p.db),
    models: ports.models,
    ocr: ports.ocr,
    runtime: p.modelRuntime,
    clock: p.clock,
    logger: p.logger.child('vision'),
    modelTimeoutMs: p.tuning.visionModelMs,
    maxConcurrent: p.tuning.visionConcurrent,
  });
  return defineModule({
    name: 'vision',
    routes: [{ prefix: '/vision', routes: createVisionRoutes(vision) }],
    services: { vision },
  });
}
