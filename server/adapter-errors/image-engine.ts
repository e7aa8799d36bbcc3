// The one translation of an image engine failure (adapters/image-engine/comfyui.ts) into an answer:
// one status, code and sentence per kind (docs/architecture.md, "Adapter failures"). The image-gen
// module hands every part the client wrapped by `withImageEngineAppErrors`, so no caller sees the
// adapter's error.
import { ImageEngineError } from '../adapters/image-engine/comfyui.js';
import type { ImageEngineClient } from '../adapters/image-engine/protocol.js';
import { AppError } from '../errors.js';

/** An image engine failure as its AppError; anything else comes back unchanged. */
export function imageEngineAppError(err: unknown): unknown {
  if (!(err instanceof ImageEngineError)) return err;
  switch (err.failure) {
    case 'unreachable':
      return new AppError(503, 'image_engine_unavailable', 'The picture engine is not answering right now. It may still be starting; try again in a minute.');
    case 'bad_response':
      return new AppError(502, 'image_engine_bad_response', 'The picture engine gave an answer Hearth could not read. Try again; if it keeps happening, an admin can restart it on the Picture engine page.');
  }
}

/** The client with every failure of every call already turned into its AppError. */
export function withImageEngineAppErrors(client: ImageEngineClient): ImageEngineClient {
  const mapped = <T>(work: () => Promise<T>): Promise<T> =>
    work().catch((err: unknown) => {
      throw imageEngineAppError(err);
    });
  return {
    systemStats: (signal) => mapped(() => client.systemStats(signal)),
    objectInfo: (signal) => mapped(() => client.objectInfo(signal)),
    forget: () => client.forget(),
    connect: (clientId, signal) => mapped(() => client.connect(clientId, signal)),
    submit: (graph, clientId, signal) => mapped(() => client.submit(graph, clientId, signal)),
    queue: (signal) => mapped(() => client.queue(signal)),
    deleteQueued: (ids) => mapped(() => client.deleteQueued(ids)),
    interrupt: (promptId) => mapped(() => client.interrupt(promptId)),
    uploadImage: (bytes, fileName, signal) => mapped(() => client.uploadImage(bytes, fileName, signal)),
    view: (ref, signal) => mapped(() => client.view(ref, signal)),
  };
}
