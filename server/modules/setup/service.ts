// First-run setup: the first admin, the welcome flag, the wizard's resume state and whether the
// model runtime is there. Never throws because the runtime is down.
import { existsSync } from 'node:fs';
import { assertAdmin, type Actor } from '../../actor.js';
import type { ModelRuntimeClient } from '../../adapters/model-runtime/ollama.js';
import { modelRuntimeAppError } from '../../adapter-errors/model-runtime.js';
import { AppError } from '../../errors.js';
import type { AppSettingsStore } from '../../db/kv.js';
import { findProgram } from '../../platform/find-program.js';
import type { HardwareProbe } from '../../platform/hardware.js';
import type { AuthService, SignIn } from '../auth/service.js';
import type { DownloadsService } from '../downloads/service.js';
import type { Catalog } from '../features/public.js';
import type { SetupDownloadBody } from '../features/schema.js';
import type { ConditionNotifications } from '../notifications/public.js';
import type { FeaturesService } from '../features/service.js';
import { installEssentials, type InstallEvents } from './install.js';
import { SETTING_WELCOME_COMPLETE, SETTING_WIZARD_STATE, type ModelRuntimeStatus, type SetupCatalog, type SetupState, type SetupStatus } from './schema.js';

export interface SetupDeps {
  auth: AuthService;
  features: FeaturesService;
  downloads: DownloadsService;
  catalog: Catalog;
  hardware: HardwareProbe;
  settings: AppSettingsStore;
  runtime: ModelRuntimeClient;
  conditions: ConditionNotifications;
  searchPath: string[];
  platform?: NodeJS.Platform;
}

const RUNTIME_APP_PATHS: Partial<Record<NodeJS.Platform, string[]>> = {
  darwin: ['/Applications/Ollama.app'],
};

export class SetupService {
  constructor(private readonly deps: SetupDeps) {}

  async status(): Promise<SetupStatus> {
    const [hasAdmin, welcome, state] = await Promise.all([
      this.deps.auth.hasAdmin(),
      this.deps.settings.get<boolean>(SETTING_WELCOME_COMPLETE),
      this.deps.settings.get<SetupState>(SETTING_WIZARD_STATE),
    ]);
    return { needsAdmin: !hasAdmin, welcomeComplete: welcome === true, state: state ?? null };
  }

  /** Whether an admin finished the welcome (setup is over, whatever it installed). */
  async isWelcomeComplete(): Promise<boolean> {
    return (await this.deps.settings.get<boolean>(SETTING_WELCOME_COMPLETE)) === true;
  }

  createAdmin(name: string, pin: string, userAgent?: string): Promise<SignIn> {
    return this.deps.auth.createFirstAdmin(name, pin, userAgent);
  }

  async completeWelcome(actor: Actor): Promise<void> {
    assertAdmin(actor);
    await this.deps.settings.set(SETTING_WELCOME_COMPLETE, true);
  }

  async saveState(actor: Actor, state: SetupState): Promise<SetupState> {
    assertAdmin(actor);
    await this.deps.settings.set(SETTING_WIZARD_STATE, state);
    return state;
  }

  /**
   * The wizard's plan, checked against the model runtime first: without it, nothing that installs
   * a model is suggested (it could only wait), and `needsRuntime` names those items.
   */
  async catalog(actor: Actor): Promise<SetupCatalog> {
    assertAdmin(actor);
    const [plan, runtime] = await Promise.all([this.deps.features.plan(), this.modelRuntimeStatus()]);
    const ids = [plan.essentials.chat, plan.essentials.embeddings, plan.essentials.router, ...plan.groups.flatMap((g) => [g.base, ...g.items, ...g.categories.flatMap((c) => c.items)])].map((i) => i.id);
    const needsRuntime = [...new Set(ids)].filter((id) => this.deps.features.needsRuntime(id));
    const recommended = runtime.running ? plan.recommended : plan.recommended.filter((id) => !needsRuntime.includes(id));
    return { ...plan, recommended, runtime: { running: runtime.running, installed: runtime.installed }, needsRuntime };
  }

  async download(actor: Actor, body: SetupDownloadBody, open: () => InstallEvents): Promise<void> {
    assertAdmin(actor);
    await installEssentials(this.deps, actor, body, open);
  }

  async modelRuntimeStatus(): Promise<ModelRuntimeStatus> {
    const { runtime } = this.deps;
    try {
      const version = await runtime.version();
      const models = await runtime.listModels();
      return { installed: true, running: true, version, url: runtime.baseUrl, models: models.map((m) => ({ name: m.name, sizeBytes: m.sizeBytes })), error: null };
    } catch (err) {
      const platform = this.deps.platform ?? process.platform;
      const installed = findProgram(['ollama'], this.deps.searchPath, platform) !== null || (RUNTIME_APP_PATHS[platform] ?? []).some((p) => existsSync(p));
      return { installed, running: false, version: null, url: runtime.baseUrl, models: [], error: runtimeProblem(err) };
    }
  }
}

/**
 * Why the model runtime is not usable, for a route anyone may ask: the adapter's own sentences,
 * without the text of the runtime's error answer (which could say anything) or a raw exception.
 */
function runtimeProblem(err: unknown): string {
  const mapped = modelRuntimeAppError(err);
  return mapped instanceof AppError ? mapped.message : 'The model runtime could not be checked.';
}
