// "Finish setting up": what the wizard could leave undone, checked live each time an admin's Home
// asks. The model runtime running, the models setup chose present in it (the boot checks' own
// "essentials"), and someone besides the admin in the household. Setup offers no archive, so none
// is asked for here.
import { assertAdmin, type Actor } from '../../actor.js';
import type { ModelRuntimeClient } from '../../adapters/model-runtime/ollama.js';
import type { AuthService } from '../auth/service.js';
import type { DownloadsService } from '../downloads/service.js';
import type { EssentialRole } from '../features/schema.js';
import type { FeaturesService } from '../features/service.js';
import { sameModel } from '../models/public.js';
import type { SetupChecklist, SetupChecklistItem } from './schema.js';

export interface SetupChecklistDeps {
  runtime: ModelRuntimeClient;
  features: FeaturesService;
  downloads: DownloadsService;
  auth: AuthService;
}

const ROLES: ReadonlyArray<{ role: EssentialRole; name: string }> = [
  { role: 'chat', name: 'the chat model' },
  { role: 'embeddings', name: 'the search model' },
  { role: 'router', name: 'the helper model' },
];

const FEATURES = { label: 'Open Features', path: '/features' };
const DOWNLOADS = { label: 'Open Downloads', path: '/downloads' };
const MODELS = { label: 'Open Models', path: '/admin/models' };

const list = (names: string[]) => (names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export class SetupChecklistService {
  constructor(private readonly deps: SetupChecklistDeps) {}

  async checklist(actor: Actor): Promise<SetupChecklist> {
    assertAdmin(actor);
    const installed = await this.deps.runtime.listModels().then(
      (models) => models.map((m) => m.name),
      () => null,
    );
    const items = [this.runtimeItem(installed !== null), await this.modelsItem(installed), await this.membersItem()];
    return { done: items.every((i) => i.done), items };
  }

  private runtimeItem(running: boolean): SetupChecklistItem {
    const title = 'Start the model runtime';
    if (running) return { key: 'runtime', title, done: true, detail: 'Ollama, the model runtime, is running.', fix: null };
    return {
      key: 'runtime',
      title,
      done: false,
      detail: 'Ollama, the model runtime that runs the AI helpers, is not running on this computer. Install it from ollama.com and start it; Hearth notices by itself.',
      fix: FEATURES,
    };
  }

  private async modelsItem(installed: string[] | null): Promise<SetupChecklistItem> {
    const title = 'Install the AI models';
    const chosen = await Promise.all(ROLES.map(async (r) => ({ ...r, model: await this.deps.features.chosenModel(r.role) })));
    const unchosen = chosen.filter((c) => c.model === null);
    if (unchosen.length === ROLES.length) {
      return { key: 'models', title, done: false, detail: 'No AI models are installed yet. Once the model runtime is running, choose and install them under Features.', fix: FEATURES };
    }
    if (unchosen.length) {
      return { key: 'models', title, done: false, detail: `${capital(list(unchosen.map((c) => c.name)))} ${unchosen.length > 1 ? 'are' : 'is'} not chosen yet. Choose one under Features.`, fix: FEATURES };
    }
    if (installed === null) {
      return { key: 'models', title, done: false, detail: 'The AI models live inside the model runtime, so they wait for it to run.', fix: null };
    }
    const missing = chosen.filter((c) => !installed.some((name) => sameModel(name, c.model!)));
    if (!missing.length) {
      const adopted = await this.deps.features.adoptedRoles();
      const picked = chosen.filter((c) => adopted.includes(c.role));
      if (picked.length) {
        const which = list(picked.map((c) => `${c.model!} as ${c.name}`));
        return { key: 'models', title, done: true, detail: `Hearth is using models this computer already had: ${which}. You can choose others in Admin › Models.`, fix: MODELS };
      }
      return { key: 'models', title, done: true, detail: 'The chat, search and helper models are installed.', fix: null };
    }
    const jobs = (await this.deps.downloads.status()).jobs.filter((j) => j.kind === 'runtime_model' && missing.some((m) => sameModel(j.target, m.model!)));
    const names = capital(list(missing.map((m) => m.name)));
    const verb = missing.length > 1 ? 'are' : 'is';
    if (jobs.some((j) => j.state === 'pending' || j.state === 'running')) {
      return { key: 'models', title, done: false, detail: `${names} ${verb} still downloading.`, fix: DOWNLOADS };
    }
    if (jobs.some((j) => j.state === 'failed')) {
      return { key: 'models', title, done: false, detail: `${names} could not be downloaded. Try again from Downloads.`, fix: DOWNLOADS };
    }
    return { key: 'models', title, done: false, detail: `${names} ${verb} missing from the model runtime. Install ${missing.length > 1 ? 'them' : 'it'} again under Features.`, fix: FEATURES };
  }

  private async membersItem(): Promise<SetupChecklistItem> {
    const title = 'Add the household';
    const people = (await this.deps.auth.listProfiles()).length;
    if (people > 1) return { key: 'members', title, done: true, detail: `${people} people have a profile.`, fix: null };
    return {
      key: 'members',
      title,
      done: false,
      detail: 'Only you have a profile so far. Add everyone at home, so each person gets their own profile and PIN.',
      fix: { label: 'Open Members', path: '/members' },
    };
  }
}
