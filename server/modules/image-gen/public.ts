// What other modules may use of image generation besides its schema and its services' types: the
// adult flag its prompts carry (music flags its prompts the same way) and the engine's parts, so a
// module that runs its own graphs on the household's one engine (music) asks the same client and
// runtime.
export { isAdult } from './prompt.js';
export type { ImageEngineClient, ImageEngineRuntime, ImageJobRunner, EngineFrame, EngineFileRef, EngineSocket } from './parts.js';

/** A checkpoint file of Stable Audio Open (music), which can never draw a picture. */
export const AUDIO_CHECKPOINT = /stable[-_]audio/i;
