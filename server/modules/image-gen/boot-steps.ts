// Image generation's boot step: the household's engine folder has an up-to-date Python
// environment. One that is out of date (ComfyUI or a node pack was updated since it was made) is
// rebuilt in the background (the engine's state is `installing` meanwhile, on the Image engine
// page); boot never waits for pip, and the engine itself still starts only when first needed.
import type { BootStepDefinition } from '../system/boot-service.js';
import type { EnvironmentCheck } from './runtime.js';

const DETAIL: Record<EnvironmentCheck, { status: 'ok' | 'warn'; detail: string }> = {
  external: { status: 'ok', detail: 'Uses the image engine whose address Hearth was started with.' },
  'not-set-up': { status: 'ok', detail: 'Not set up: an admin can choose the ComfyUI folder on the Image engine page.' },
  current: { status: 'ok', detail: 'Ready to start when someone makes a picture.' },
  busy: { status: 'ok', detail: 'Already starting.' },
  rebuilding: {
    status: 'warn',
    detail: 'ComfyUI or one of its node packs changed, so Hearth is setting up its Python environment again in the background. The Image engine page shows how it goes.',
  },
};

export function bootSteps(deps: { prepareIfOutdated: () => Promise<EnvironmentCheck> }): BootStepDefinition[] {
  return [
    {
      key: 'image',
      label: 'Image engine',
      async run() {
        return DETAIL[await deps.prepareIfOutdated()];
      },
    },
  ];
}
