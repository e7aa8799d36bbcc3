// The runtime model of each essential role (chat, embeddings, router, vision): the one setup, Features or
// an admin chose, and while none was ever chosen the best model the runtime already has, adopted
// and recorded as such so the web app can say Hearth picked it. App settings, no table.
import type { ModelRuntimeClient } from '../../adapters/model-runtime/ollama.js';
import type { AppSettingsStore } from '../../db/kv.js';
import type { Clock } from '../../platform/clock.js';
import type { HardwareProbe } from '../../platform/hardware.js';
import type { Logger } from '../../platform/logger.js';
import { bestForRole, capabilitiesOf, visionModelsOf, type InstalledModel } from '../models/public.js';
import type { Catalog } from './catalog.js';
import { RUNTIME_LOOK_TTL_MS, withinLookBudget } from './runtime-look.js';
import { SETTING_ADOPTED_ROLES, SETTING_CHOSEN_MODELS, type EssentialRole } from './schema.js';

export interface ModelRolesDeps {
  catalog: Catalog;
  settings: AppSettingsStore;
  runtime: ModelRuntimeClient;
  clock: Clock;
  /** How often at most an adoption looks again while nothing fits (default RUNTIME_LOOK_TTL_MS). */
  runtimeLookTtlMs?: number;
  hardware: HardwareProbe;
  logger: Logger;
  /**
   * What a runtime model can do, in Ollama's words (the models module's details cache). Without it
   * no installed model is adopted for a role nobody chose.
   */
  modelCapabilities?: (model: string) => Promise<string[]>;
}

export class ModelRolesService {
  constructor(private readonly deps: ModelRolesDeps) {}

  /**
   * The runtime model for an essential role (chat, embeddings, router): the one setup, Features or
   * an admin chose; while none was ever chosen, the best model the runtime already has for the
   * role, adopted (see adoptInstalled); null when there is none.
   */
  async chosenModel(role: EssentialRole): Promise<string | null> {
    const stored = await this.deps.settings.get<string>(SETTING_CHOSEN_MODELS[role]);
    if (stored !== null && stored !== undefined) return stored || null;
    return (await this.adoptInstalled())[role] ?? null;
  }

  /** Records the model for an essential role (setup, Features, an admin's choice): no longer an adopted one. */
  async setChosenModel(role: EssentialRole, model: string): Promise<void> {
    await this.deps.settings.set(SETTING_CHOSEN_MODELS[role], model);
    const adopted = (await this.deps.settings.get<Partial<Record<EssentialRole, string>>>(SETTING_ADOPTED_ROLES)) ?? {};
    if (role in adopted) {
      delete adopted[role];
      await this.deps.settings.set(SETTING_ADOPTED_ROLES, adopted);
    }
  }

  /**
   * The roles whose model Hearth adopted from what the runtime already had: the role's model is
   * still the one adopted (a choice made since, by anyone, replaced it).
   */
  async adoptedRoles(): Promise<EssentialRole[]> {
    const adopted = (await this.deps.settings.get<Partial<Record<EssentialRole, string>>>(SETTING_ADOPTED_ROLES)) ?? {};
    const out: EssentialRole[] = [];
    for (const role of Object.keys(SETTING_CHOSEN_MODELS) as EssentialRole[]) {
      if (adopted[role] && (await this.deps.settings.get<string>(SETTING_CHOSEN_MODELS[role])) === adopted[role]) out.push(role);
    }
    return out;
  }

  /** An adopted role's model is gone (deleted in Admin › Models): the role adopts again on its next read. */
  async dropAdopted(role: EssentialRole): Promise<void> {
    const adopted = await this.adoptedRoles();
    if (!adopted.includes(role)) return;
    await this.deps.settings.delete(SETTING_CHOSEN_MODELS[role]);
    this.lastAdoptAt = -Infinity;
  }

  private adopting: Promise<Partial<Record<EssentialRole, string>>> | null = null;
  private lastAdoptAt = -Infinity;

  /**
   * Models already in the runtime (pulled before Hearth was installed, or while setup ran without
   * it) fill the roles nobody chose: the best installed model for each (models/roles.ts) becomes
   * the role's model and is recorded as adopted, so the web app says Hearth picked it and an admin
   * can change it in Admin › Models. One look at a time, and at most one per runtime-look period
   * while nothing fits; a runtime that does not answer adopts nothing.
   */
  private adoptInstalled(): Promise<Partial<Record<EssentialRole, string>>> {
    if (!this.deps.modelCapabilities) return Promise.resolve({});
    if (this.adopting) return this.adopting;
    const now = this.deps.clock.now().getTime();
    if (now - this.lastAdoptAt < (this.deps.runtimeLookTtlMs ?? RUNTIME_LOOK_TTL_MS)) return Promise.resolve({});
    this.lastAdoptAt = now;
    const run = this.adoptNow()
      .catch((err: unknown) => {
        this.deps.logger.warn({ err }, 'could not adopt installed models');
        return {};
      })
      .finally(() => {
        this.adopting = null;
      });
    this.adopting = run;
    // a caller waits at most the runtime-look budget; the adoption itself goes on and is kept
    return withinLookBudget<Partial<Record<EssentialRole, string>>>(run, {});
  }

  private async adoptNow(): Promise<Partial<Record<EssentialRole, string>>> {
    const roles = Object.keys(SETTING_CHOSEN_MODELS) as EssentialRole[];
    const unchosen: EssentialRole[] = [];
    for (const role of roles) {
      const stored = await this.deps.settings.get<string>(SETTING_CHOSEN_MODELS[role]);
      if (stored === null || stored === undefined) unchosen.push(role);
    }
    if (!unchosen.length) return {};
    // its own question, not the shared look: a runtime that does not answer adopts nothing
    const listed = await this.deps.runtime.listModels();
    if (!listed.length) return {};
    const installed: InstalledModel[] = await Promise.all(
      listed.map(async (model) => ({ model, capabilities: capabilitiesOf(await this.deps.modelCapabilities!(model.name).catch(() => []), model) })),
    );
    const hw = await this.deps.hardware().catch(() => null);
    const { catalog } = this.deps;
    const targetOf = (itemId: string) => (catalog.item(itemId)?.installs ?? []).map((a) => catalog.artifact(a.id)).find((a) => a?.kind === 'runtime_model')?.target;
    const preferred = {
      embeddings: [targetOf(catalog.data.essentials.embeddings)].filter((x): x is string => Boolean(x)),
      router: [targetOf(catalog.data.essentials.router)].filter((x): x is string => Boolean(x)),
      // the Home inventory feature's vision model
      vision: visionModelsOf(catalog),
    };
    const adopted: Partial<Record<EssentialRole, string>> = {};
    for (const role of unchosen) {
      const pick = bestForRole(role, installed, hw, preferred);
      if (!pick) continue;
      // a choice made meanwhile (setup, an admin) wins over the adoption
      const stored = await this.deps.settings.get<string>(SETTING_CHOSEN_MODELS[role]);
      if (stored !== null && stored !== undefined) continue;
      await this.deps.settings.set(SETTING_CHOSEN_MODELS[role], pick);
      adopted[role] = pick;
    }
    if (Object.keys(adopted).length) {
      const before = (await this.deps.settings.get<Partial<Record<EssentialRole, string>>>(SETTING_ADOPTED_ROLES)) ?? {};
      await this.deps.settings.set(SETTING_ADOPTED_ROLES, { ...before, ...adopted });
      this.deps.logger.info({ adopted }, 'adopted installed models for roles nobody chose');
    }
    return adopted;
  }
}
