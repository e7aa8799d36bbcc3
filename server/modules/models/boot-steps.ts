// Boot steps for the model runtime and the three essential models (chat, embeddings, router).
// A runtime that is down is a warning, not a failure: Hearth works without it, minus chat.
// Issue #4 adds the repair (pull) of missing essentials; until then a missing model is reported.
import type { ModelRuntimeClient, RuntimeModel } from '../../adapters/model-runtime/ollama.js';
import type { AppSettingsStore } from '../../db/kv.js';
import type { BootStepDefinition } from '../system/boot.js';

export const ESSENTIAL_MODELS = [
  { key: 'chat-model', label: 'Chat model', setting: 'chat_model' },
  { key: 'embeddings', label: 'Embeddings model', setting: 'embedding_model' },
  { key: 'router', label: 'Router model', setting: 'router_model' },
] as const;

/** Ollama names a model "name:tag"; a bare name means ":latest". */
export const sameModel = (a: string, b: string) => {
  const norm = (s: string) => (s.includes(':') ? s : `${s}:latest`);
  return norm(a) === norm(b);
};

export function modelBootSteps(deps: { runtime: ModelRuntimeClient; settings: AppSettingsStore }): BootStepDefinition[] {
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
      async run() {
        const chosen = await deps.settings.get<string>(m.setting);
        if (!chosen) return { status: 'warn', detail: 'Not chosen yet: finish setup to pick one.' };
        if (!models) return { status: 'warn', detail: `${chosen}: skipped, the model runtime is not reachable.` };
        if (models.some((x) => sameModel(x.name, chosen))) return { status: 'ok', detail: chosen };
        return { status: 'warn', detail: `${chosen} is missing from the model runtime.` };
      },
    });
  }
  return steps;
}
