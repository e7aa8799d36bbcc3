// The capture engine pulls in Playwright, jsdom, Readability, DOMPurify and sharp: together more
// than 100 MB of resident memory and most of a second of start-up. A household may never save a
// page, so the server loads all of it on the first capture, not at start.
import type { CaptureEngineDeps } from './engine.js';
import type { CaptureEngine } from './types.js';

export function createLazyCaptureEngine(deps: CaptureEngineDeps): CaptureEngine {
  let engine: Promise<CaptureEngine> | null = null;
  const load = () => {
    engine ??= import('./engine.js').then((m) => m.createCaptureEngine(deps));
    // a failed load (a broken install) is retried on the next capture instead of cached
    engine.catch(() => {
      engine = null;
    });
    return engine;
  };
  return {
    async capture(req) {
      return (await load()).capture(req);
    },
    async close() {
      if (engine) await (await engine).close();
    },
  };
}
