// Boot steps for the model runtime and the three essential models (chat, embeddings, router).
// A runtime that is down is a warning, not a failure: Hearth works without it, minus chat.
// A chosen essential the runtime no longer has is repaired (pulled) while boot waits, with byte
// progress as `repair` events; components that went missing (checked after those repairs) are
// handed back to the queue.
import type { ModelRuntimeClient, RuntimeModel } from '../../adapters/model-runtime/ollama.js';
import type { FeaturesService } from '../features/service.js';
import type { OfflineState } from '../../platform/offline-switch.js';
import { offlineMessage } from '../../platform/ssrf-address.js';
import type { SetupService } from '../setup/service.js';
import type { BootStepDefinition } from '../system/boot-service.js';
import { sameModel, type ModelPulls } from './pulls.js';

export const ESSENTIAL_MODELS = [
  { key: 'chat-model', label: 'Chat model', role: 'chat' },
  { key: 'embeddings', label: 'Embeddings model', role: 'embeddings' },
  { key: 'router', label: 'Router model', role: 'router' },
] as const;


/** The chosen models are the features service's, whether setup is over the setup service's. */
export function bootSteps(deps: { runtime: ModelRuntimeClient; pulls: ModelPulls; features: FeaturesService; setup: SetupService; offline?: OfflineState }): BootStepDefinition[] {
  let models: RuntimeModel[] | null = null;
  const steps: BootStepDefinition[] = [
    {
      key: 'model-runtime',
      label: 'Model runtime',
      async run() {
        try {
          const version = await deps.runtime.version();
          models = await deps.runtime.listModels();
          return { status: 'ok', detail: `Ollama ${version}, ${models.length} model${models.length === 1 ? '' : 's'}` };
        } catch (err) {
          models = null;
          return { status: 'warn', detail: `${(err as Error).message} Chat and AI features wait until it runs.` };
        }
      },
    },
  ];
  for (const m of ESSENTIAL_MODELS) {
    steps.push({
      key: m.key,
      label: m.label,
      async run(ctx) {
        const chosen = await deps.features.chosenModel(m.role);
        if (!chosen) {
          // after setup this is a choice the household made (setup without the model runtime), not a
          // step left to do: say so once in the boot list instead of warning on every start
          if (await deps.setup.isWelcomeComplete()) {
            return { status: 'ok', detail: 'None installed: models need the model runtime (Ollama). Once it runs, add them in Features.' };
          }
          return { status: 'warn', detail: 'Not chosen yet: finish setup to pick one.' };
        }
        if (!models) return { status: 'warn', detail: `${chosen}: skipped, the model runtime is not reachable.` };
        if (models.some((x) => sameModel(x.name, chosen))) {
          const adopted = (await deps.features.adoptedRoles()).includes(m.role);
          return { status: 'ok', detail: adopted ? `${chosen} (already on this computer, so Hearth uses it; an admin can choose another in Admin › Models)` : chosen };
        }
        // the runtime pulls from the internet, which offline mode rules out
        if (deps.offline?.isOn()) return { status: 'warn', detail: `${chosen} is missing. ${offlineMessage(deps.offline.reason)}` };
        // An essential is missing: repair it now, while boot waits (through the shared pulls, so
        // a queue job for the same model does not pull it a second time meanwhile).
        const started = Date.now();
        let outcome: 'present' | 'pulled';
        try {
          outcome = await deps.pulls.ensure(chosen, {
            signal: ctx.signal,
            onProgress: (p) => {
              const seconds = (Date.now() - started) / 1000;
              const speedBps = seconds > 0 ? Math.round(p.completed / seconds) : 0;
              ctx.repair({ completed: p.completed, total: p.total, speedBps, etaSeconds: speedBps > 0 && p.total ? Math.round((p.total - p.completed) / speedBps) : null });
            },
          });
        } catch (err) {
          return { status: 'error', detail: `${chosen} is missing and could not be downloaded: ${(err as Error).message}` };
        }
        await deps.features.markRuntimeModelInstalled(chosen).catch(() => undefined);
        if (outcome === 'present') return { status: 'ok', detail: chosen };
        return { status: 'ok', detail: `${chosen} was missing and has been downloaded again.` };
      },
    });
  }
  steps.push({
    key: 'components',
    label: 'Installed components',
    async run() {
      try {
        // Read the list again: the essential steps above may have just repaired models, and a
        // stale list would hand those to the queue to be downloaded a second time.
        const current = models ? await deps.runtime.listModels().catch(() => null) : null;
        const requeued = await deps.features.reconcile(current ? current.map((x) => x.name) : null);
        if (!requeued.length) return { status: 'ok', detail: 'Everything installed is present.' };
        return { status: 'warn', detail: `${requeued.length} missing component${requeued.length === 1 ? ' was' : 's were'} handed to the download queue: ${requeued.join(', ')}.` };
      } catch (err) {
        return { status: 'warn', detail: `Missing components could not be queued: ${(err as Error).message}` };
      }
    },
  });
  return steps;
}
