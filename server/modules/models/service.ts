// The models module: the runtime's installed models with what each can do and whether it fits
// this machine, the household's essential choices (stored by FeaturesService, where boot and chat
// readiness read them), pulls through the durable download queue, deletes, and which chat models
// each member may use. `pickChatModel` is the chat module's ChatModelPicker.
import { assertAdmin, isAdmin, type Actor, type UserActor } from '../../actor.js';
import type { ModelRuntimeClient, RuntimeModel } from '../../adapters/model-runtime/ollama.js';
import { modelRuntimeAppError } from '../../adapter-errors/model-runtime.js';
import { AppError, BadRequestError, ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { HardwareProbe, HardwareProfile } from '../../platform/hardware.js';
import type { OfflineState } from '../../platform/offline-switch.js';
import { offlineMessage } from '../../platform/ssrf-address.js';
import type { AuthService } from '../auth/service.js';
import { DownloadJob } from '../downloads/schema.js';
import type { DownloadsService } from '../downloads/service.js';
import type { FeaturesService } from '../features/service.js';
import type { InventoryModelPicker } from '../home-inventory/public.js';
import { unavailable, AVAILABLE, type Availability } from '../tools/schema.js';
import { sameModel } from './pulls.js';
import type { ModelDetailsCache } from './details.js';
import { modelFit } from './fit.js';
import { capabilitiesOf } from './roles.js';
import {
  EssentialRoleName,
  type MemberModelAccess,
  type ModelAccessResponse,
  type ModelCapability,
  type ModelsResponse,
  type ModelView,
  type PullModelResponse,
  type SelectModelBody,
} from './schema.js';
import type { ModelAccessStore } from './store.js';

export interface ModelsDeps {
  runtime: ModelRuntimeClient;
  details: ModelDetailsCache;
  features: FeaturesService;
  downloads: DownloadsService;
  auth: AuthService;
  store: ModelAccessStore;
  hardware: HardwareProbe;
  clock: Clock;
  /** Offline mode, read at each call (platform/offline-switch.ts). */
  offline: OfflineState;
  /** Vision models to prefer, in order (the Home inventory feature's model: see visionModelsOf). */
  preferredVisionModels?: string[];
}

/** The chat module's way of choosing the model for a turn (see server/modules/chat). */
export interface ChatModelPicker {
  pick(actor: UserActor, requested: string | undefined): Promise<string>;
}

const RUNTIME_DOWN_REASON = 'The model runtime (Ollama) is not running on the Hearth computer.';
const RUNTIME_DOWN_FIX = 'Start Ollama on the Hearth computer.';

type Chosen = ModelsResponse['chosen'];
interface Installed {
  model: RuntimeModel;
  capabilities: ModelCapability[];
}

const ROLE_WORDS: Record<EssentialRoleName, string> = { chat: 'chat model', embeddings: 'search index model', router: 'router model', vision: 'vision model' };
/** What a model must be able to do to fill each role, and the words for it. */
const ROLE_NEEDS: Record<EssentialRoleName, [ModelCapability, string]> = {
  chat: ['chat', 'chat'],
  embeddings: ['embedding', 'build the search index'],
  router: ['chat', 'chat'],
  vision: ['vision', 'look at pictures'],
};

export class ModelsService implements ChatModelPicker, InventoryModelPicker {
  constructor(private readonly deps: ModelsDeps) {}

  private runtimeUnavailable(err: unknown): unknown {
    return modelRuntimeAppError(err);
  }

  /** The installed models with their capabilities; throws 503 model_runtime_unavailable when the runtime does not answer. */
  private async installed(): Promise<Installed[]> {
    let models: RuntimeModel[];
    try {
      models = await this.deps.runtime.listModels();
    } catch (err) {
      throw this.runtimeUnavailable(err);
    }
    return Promise.all(
      models.map(async (model) => {
        // a model whose details cannot be read is listed by its name alone, never hidden
        const reported = await this.deps.details.get(model.name).then(
          (d) => d.capabilities,
          () => [] as string[],
        );
        return { model, capabilities: capabilitiesOf(reported, model) };
      }),
    );
  }

  private async chosen(): Promise<Chosen> {
    const { features } = this.deps;
    const [chat, embeddings, router, vision] = await Promise.all([features.chosenModel('chat'), features.chosenModel('embeddings'), features.chosenModel('router'), features.chosenModel('vision')]);
    return { chat, embeddings, router, vision };
  }

  /** The member's allowed chat models, or null for every one (admins always null). */
  private async allowedFor(actor: Actor): Promise<string[] | null> {
    if (isAdmin(actor) || actor.kind !== 'user') return null;
    return this.deps.store.get(actor.id);
  }

  private static mayUse(allowed: string[] | null, name: string): boolean {
    return allowed === null || allowed.some((a) => sameModel(a, name));
  }

  /** GET /api/models: every installed model for an admin; a member's allowed chat models for a member. */
  async list(actor: Actor): Promise<ModelsResponse> {
    const chosen = await this.chosen();
    const adoptedRoles = await this.deps.features.adoptedRoles();
    const adopted = EssentialRoleName.options.filter((r) => chosen[r] !== null && adoptedRoles.includes(r));
    let installed: Installed[];
    try {
      installed = await this.installed();
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return { runtime: unavailable(RUNTIME_DOWN_REASON, RUNTIME_DOWN_FIX), models: [], chosen, adopted };
    }
    const hw: HardwareProfile | null = await this.deps.hardware().catch(() => null);
    let shown = installed;
    if (!isAdmin(actor)) {
      const allowed = await this.allowedFor(actor);
      shown = installed.filter((m) => m.capabilities.includes('chat') && ModelsService.mayUse(allowed, m.model.name));
    }
    const models: ModelView[] = shown
      .map(({ model, capabilities }) => {
        const fit = hw ? modelFit(hw, model.sizeBytes) : null;
        return {
          name: model.name,
          sizeBytes: model.sizeBytes,
          family: model.family,
          parameterSize: model.parameterSize,
          capabilities,
          fit: fit?.fit ?? null,
          fitNote: fit?.fitNote ?? null,
          roles: EssentialRoleName.options.filter((role) => chosen[role] !== null && sameModel(chosen[role], model.name)),
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
    const runtime: Availability = AVAILABLE;
    return { runtime, models, chosen, adopted };
  }

  /** POST /api/models/select: an installed model able to fill the role becomes the household's choice. */
  async select(actor: Actor, body: SelectModelBody): Promise<ModelsResponse> {
    assertAdmin(actor);
    const found = await this.findInstalled(body.model);
    const [needs, can] = ROLE_NEEDS[body.role];
    if (!found.capabilities.includes(needs)) {
      throw new UnprocessableError('model_wrong_role', `${found.model.name} cannot ${can}, so it cannot be the ${ROLE_WORDS[body.role]}. Choose another model.`);
    }
    await this.deps.features.setChosenModel(body.role, found.model.name);
    return this.list(actor);
  }

  private async findInstalled(name: string): Promise<Installed> {
    const found = (await this.installed()).find((m) => sameModel(m.model.name, name));
    if (!found) throw new NotFoundError(`There is no model called ${name} on this computer. Download it first.`, 'model_not_found');
    return found;
  }

  /**
   * POST /api/models/pull: a runtime_model job on the durable download queue (progress on the
   * Downloads page, kept across restarts). A model already installed is 409; one already waiting
   * or downloading gives its job back with alreadyQueued.
   */
  async pull(actor: Actor, model: string): Promise<PullModelResponse> {
    assertAdmin(actor);
    if (this.deps.offline.isOn()) throw new ServiceUnavailableError('offline_mode', offlineMessage(this.deps.offline.reason));
    let have: RuntimeModel[];
    try {
      have = await this.deps.runtime.listModels();
    } catch (err) {
      throw this.runtimeUnavailable(err);
    }
    const installed = have.find((m) => sameModel(m.name, model));
    if (installed) throw new ConflictError('model_installed', `${installed.name} is already on this computer.`);
    const live = (await this.deps.downloads.status()).jobs.find((j) => j.kind === 'runtime_model' && (j.state === 'pending' || j.state === 'running') && sameModel(j.target, model));
    // the status view adds live progress (etaSeconds) the job's own shape does not carry
    if (live) return { job: DownloadJob.parse(live), alreadyQueued: true };
    const [job] = await this.deps.downloads.enqueue(actor, [{ kind: 'runtime_model', target: model, label: `AI model ${model}`, hostClass: 'model_runtime' }]);
    return { job: job!, alreadyQueued: false };
  }

  /**
   * DELETE /api/models/:name. A model chosen for a household role is refused (409): choose
   * another for that role first, so chat and search never point at a model that is gone. A model
   * Hearth adopted for a role (nobody chose it) is deleted, and the role adopts another.
   */
  async remove(actor: Actor, name: string): Promise<void> {
    assertAdmin(actor);
    const found = await this.findInstalled(name);
    const chosen = await this.chosen();
    const adopted = await this.deps.features.adoptedRoles();
    const holds = EssentialRoleName.options.filter((r) => chosen[r] !== null && sameModel(chosen[r], found.model.name));
    // a model Hearth adopted (nobody chose it) may go: the role adopts another, or none
    const role = holds.find((r) => !adopted.includes(r));
    if (role) {
      throw new ConflictError('model_in_use', `${found.model.name} is the household’s ${ROLE_WORDS[role]}. Choose another ${ROLE_WORDS[role]} first, then delete this one.`);
    }
    try {
      await this.deps.runtime.deleteModel(found.model.name);
    } catch (err) {
      throw this.runtimeUnavailable(err);
    }
    this.deps.details.forget(found.model.name);
    for (const r of holds) await this.deps.features.dropAdopted(r);
    // a model Features installed is no longer installed: boot must not download it again
    await this.deps.features.forgetRuntimeModel(found.model.name);
  }

  /** GET /api/models/access: every member (not admins, who may use every model) with their allowed set. */
  async listAccess(actor: Actor): Promise<ModelAccessResponse> {
    assertAdmin(actor);
    const [users, stored] = await Promise.all([this.deps.auth.listProfiles(), this.deps.store.all()]);
    const members: MemberModelAccess[] = users.filter((u) => u.role !== 'admin').map((u) => ({ userId: u.id, name: u.name, allowed: stored.get(u.id) ?? null }));
    return { members };
  }

  /** PUT /api/models/access/:userId: null lets the member use every chat model. */
  async setAccess(actor: Actor, userId: string, allowed: string[] | null): Promise<MemberModelAccess> {
    assertAdmin(actor);
    const user = await this.deps.auth.getUser(userId);
    if (!user) throw new NotFoundError('That member does not exist.', 'user_not_found');
    if (user.role === 'admin') throw new UnprocessableError('admin_uses_every_model', 'Admins can always use every model.');
    let names = allowed;
    if (names !== null) {
      const unique = [...new Set(names)];
      // Every name must be a chat model this computer has (stored as the runtime names it).
      const installed = await this.installed();
      names = unique.map((n) => {
        const found = installed.find((m) => sameModel(m.model.name, n));
        if (!found) throw new BadRequestError(`There is no model called ${n} on this computer.`, undefined, 'model_not_found');
        if (!found.capabilities.includes('chat')) throw new BadRequestError(`${found.model.name} cannot chat, so it cannot be offered for chat.`, undefined, 'model_cannot_chat');
        return found.model.name;
      });
      names = [...new Set(names)];
    }
    await this.deps.store.set(user.id, names, this.deps.clock.now().toISOString());
    return { userId: user.id, name: user.name, allowed: names };
  }

  /** `user.deleted`: the member's allow-list goes with them. */
  async onUserDeleted(userId: string): Promise<void> {
    await this.deps.store.remove(userId);
  }

  /**
   * The chat model for a turn. A requested model must be installed (404), able to chat (400) and
   * allowed for this member (403 model_not_allowed). With none requested: the household's chat
   * model (409 no_chat_model while an admin has chosen none, as chat readiness says) when this
   * member may use it — a chosen model the runtime lost is still named, so the answer says it is
   * not installed rather than quietly using another — else the member's first allowed chat
   * model, else 403.
   */
  async pickChatModel(actor: UserActor, requested: string | undefined, opts: { runtimeChecked?: boolean } = {}): Promise<string> {
    const allowed = await this.allowedFor(actor);
    if (requested === undefined && opts.runtimeChecked) {
      // the household's model, when this member may use it, needs no look at the runtime's list
      const household = await this.deps.features.chosenModel('chat');
      if (household && ModelsService.mayUse(allowed, household)) return household;
    }
    const installed = await this.installed();
    const chat = installed.filter((m) => m.capabilities.includes('chat'));
    if (requested !== undefined) {
      const found = installed.find((m) => sameModel(m.model.name, requested));
      if (!found) throw new NotFoundError(`There is no model called ${requested} on this computer.`, 'model_not_found');
      if (!found.capabilities.includes('chat')) throw new BadRequestError(`${found.model.name} cannot chat. Choose a chat model.`, undefined, 'model_cannot_chat');
      if (!ModelsService.mayUse(allowed, found.model.name)) {
        throw new ForbiddenError(`You may not use ${found.model.name}. Choose another model, or ask an admin to allow it.`, 'model_not_allowed');
      }
      return found.model.name;
    }
    const household = await this.deps.features.chosenModel('chat');
    if (!household) throw new ConflictError('no_chat_model', 'No chat model is chosen yet. An admin can choose one in Admin › Models.');
    if (ModelsService.mayUse(allowed, household)) return household;
    const first = chat.map((m) => m.model.name).sort((a, b) => a.localeCompare(b)).find((n) => ModelsService.mayUse(allowed, n));
    if (first) return first;
    throw new ForbiddenError('No chat model is open to you yet. Ask an admin to choose one for you in Admin › Models.', 'model_not_allowed');
  }

  /**
   * The ChatModelPicker the chat module takes. The answer stream has just asked whether the
   * runtime answers (its shared quick look), so the household's model is taken without listing
   * the runtime's models again: a request to the runtime per answer was the largest part of an
   * answer's start when many begin at once (issue 29 item 16).
   */
  pick(actor: UserActor, requested: string | undefined): Promise<string> {
    return this.pickChatModel(actor, requested, { runtimeChecked: true });
  }

  /** The inventory's text model (reconcile, Ask): the chat model this member may use, as chat picks it. */
  textModel(actor: UserActor): Promise<string> {
    return this.pickChatModel(actor, undefined);
  }

  /**
   * The household's vision model (photo analysis, pictures in chat, the inventory's labels): the one
   * an admin chose in Admin › Models (or Hearth adopted: the only one installed) while it is
   * installed and can see; otherwise an installed model that can: the Home inventory feature's
   * model first, then the household chat model when it can see, then the first by name; null when
   * none can. Throws 503 model_runtime_unavailable when the runtime does not answer.
   */
  async visionModel(): Promise<string | null> {
    const chosen = await this.deps.features.chosenModel('vision');
    const seeing = (await this.installed()).filter((m) => m.capabilities.includes('vision')).map((m) => m.model.name);
    if (seeing.length === 0) return null;
    const household = chosen ? seeing.find((n) => sameModel(n, chosen)) : undefined;
    if (household) return household;
    for (const preferred of this.deps.preferredVisionModels ?? []) {
      const found = seeing.find((n) => sameModel(n, preferred));
      if (found) return found;
    }
    const chatModel = await this.deps.features.chosenModel('chat');
    const chat = chatModel ? seeing.find((n) => sameModel(n, chatModel)) : undefined;
    return chat ?? [...seeing].sort((a, b) => a.localeCompare(b))[0]!;
  }
}
