// The feature system: the catalog's items, their flags (app settings, no features table), which
// artifacts are installed, and installing a set of items through the download queue with each
// artifact's prerequisites (archive tools, maps toolchain, image-engine base and custom nodes)
// enqueued first. Completed downloads mark artifacts installed and switch their items on.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { assertAdmin, type Actor } from '../../actor.js';
import type { ModelRuntimeClient } from '../../adapters/model-runtime/ollama.js';
import type { AppSettingsStore } from '../../db/kv.js';
import { NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { HardwareProbe, HardwareProfile } from '../../platform/hardware.js';
import { itemFits, modelBudget, pickLargestFitting } from '../../platform/hardware-fit.js';
import type { Logger } from '../../platform/logger.js';
import type { DownloadJob } from '../downloads/schema.js';
import type { DownloadsService } from '../downloads/service.js';
import { sameModel } from '../models/public.js';
import { AVAILABLE, unavailable, type Availability } from '../tools/schema.js';
import type { Catalog } from './catalog.js';
import type { ModelRolesService } from './model-roles-service.js';
import type { RuntimeLook, RuntimeModels } from './runtime-look.js';
import { CHAT_BASE_ITEM, SETTING_CHOSEN_MODELS, SETTING_FLAGS, SETTING_INSTALLED, SETTING_PENDING_EXTRAS, type CatalogItemView, type EssentialRole, FeatureItem, type FeaturePlan, type MeasuredSpeed } from './schema.js';

export interface FeaturesDeps {
  catalog: Catalog;
  settings: AppSettingsStore;
  downloads: DownloadsService;
  runtime: ModelRuntimeClient;
  /** The shared quick look at the runtime's models. */
  look: RuntimeLook;
  /** The model of each essential role, chosen or adopted. */
  roles: ModelRolesService;
  clock: Clock;
  hardware: HardwareProbe;
  logger: Logger;
  /** The benchmark's measured speed of a chat model (features port `chatSpeed`); absent: none measured. */
  chatSpeed?: (model: string) => Promise<MeasuredSpeed | null>;
}

type Installed = Record<string, { installedAt: string }>;

const RUNTIME_DOWN = unavailable('The model runtime (Ollama) is not running on the Hearth computer.', 'Start Ollama on the Hearth computer.');
/** What chat says while an admin has switched it off (Features, the Chat item's switch). */
export const CHAT_SWITCHED_OFF = unavailable('An admin switched chat off in Features.', 'Switch Chat on in Admin › Features.');

const GB = 1024 ** 3;

export class FeaturesService {
  constructor(private readonly deps: FeaturesDeps) {}

  async flags(): Promise<Record<string, boolean>> {
    return (await this.deps.settings.get<Record<string, boolean>>(SETTING_FLAGS)) ?? {};
  }

  async installed(): Promise<Installed> {
    return (await this.deps.settings.get<Installed>(SETTING_INSTALLED)) ?? {};
  }

  // The model of each essential role, chosen or adopted: ModelRolesService says how.
  chosenModel(role: EssentialRole): Promise<string | null> {
    return this.deps.roles.chosenModel(role);
  }
  setChosenModel(role: EssentialRole, model: string): Promise<void> {
    return this.deps.roles.setChosenModel(role, model);
  }
  adoptedRoles(): Promise<EssentialRole[]> {
    return this.deps.roles.adoptedRoles();
  }
  dropAdopted(role: EssentialRole): Promise<void> {
    return this.deps.roles.dropAdopted(role);
  }

  async setFlag(actor: Actor, id: string, enabled: boolean): Promise<Record<string, boolean>> {
    assertAdmin(actor);
    if (!this.deps.catalog.item(id)) throw new NotFoundError(`There is no feature called ${id}.`);
    const flags = { ...(await this.flags()), [id]: enabled };
    await this.deps.settings.set(SETTING_FLAGS, flags);
    return flags;
  }

  private isItemInstalled(item: FeatureItem, installed: Installed): boolean {
    return item.installs.every((a) => installed[a.id]);
  }

  private async view(item: FeatureItem, hw: HardwareProfile | null, runtime: RuntimeModels): Promise<CatalogItemView> {
    const [installed, flags] = await Promise.all([this.installed(), this.flags()]);
    // a model the runtime already has is installed, whoever pulled it (Hearth, or Ollama before Hearth)
    const isInstalled = item.installs.every((a) => {
      if (installed[a.id]) return true;
      const art = this.deps.catalog.artifact(a.id);
      return art?.kind === 'runtime_model' && runtime !== null && runtime.some((m) => sameModel(m, art.target));
    });
    return {
      // the item's catalog fields only: catalog.item() also carries its lookup keys (groupId…)
      ...FeatureItem.parse(item),
      installed: isInstalled,
      enabled: flags[item.id] === true,
      fits: hw ? itemFits(hw, item.ramBytes) : true,
      measuredSpeed: await this.measuredSpeed(item),
      ...(await this.itemAvailability(item, isInstalled, runtime)),
    };
  }

  /** A chat model's speed as the last benchmark measured it here (the fit hint says it in words a second). */
  private async measuredSpeed(item: FeatureItem): Promise<MeasuredSpeed | null> {
    if (!this.deps.chatSpeed) return null;
    const model = item.installs.map((a) => this.deps.catalog.artifact(a.id)).find((a) => a?.kind === 'runtime_model')?.target;
    return model ? this.deps.chatSpeed(model).catch(() => null) : null;
  }

  /**
   * Whether the item can run now: chat needs the runtime with the chosen chat model in it; an item
   * that lives in the model runtime needs the runtime, and once installed its models there.
   */
  private async itemAvailability(item: FeatureItem, isInstalled: boolean, runtime: RuntimeModels): Promise<Availability> {
    if (item.id === CHAT_BASE_ITEM) return this.chatReadinessFrom(runtime);
    if (!this.needsRuntime(item.id)) return AVAILABLE;
    if (!runtime) return RUNTIME_DOWN;
    const missing = item.installs
      .map((a) => this.deps.catalog.artifact(a.id))
      .filter((a) => a?.kind === 'runtime_model' && !runtime.some((m) => sameModel(m, a.target)));
    if (isInstalled && missing.length) return unavailable('Ollama does not have this model any more.', 'Restart Hearth to download it again, or uninstall it and install it again.');
    return AVAILABLE;
  }

  /** The runtime's model names from the shared quick look (null: it did not answer within the budget). */
  runtimeModels(): Promise<string[] | null> {
    return this.deps.look.models();
  }

  /**
   * Whether chat can answer now (Reader's Summarize and Ask, and chat extensions such as archive
   * search): an admin has not switched it off in Features, and the model runtime answers and has
   * the chat model setup or Features chose. (The Features page's own row for chat leaves the switch
   * out, so the admin can see the runtime's state and switch chat on again: itemAvailability.)
   */
  async chatReadiness(): Promise<Availability> {
    if (await this.chatSwitchedOff()) return CHAT_SWITCHED_OFF;
    return this.chatReadinessFrom(await this.deps.look.models());
  }

  /**
   * An admin switched the Chat item off in Features. Only an explicit Off counts: a chat model
   * installed by setup before flags were kept has no flag and works.
   */
  async chatSwitchedOff(): Promise<boolean> {
    return (await this.flags())[CHAT_BASE_ITEM] === false;
  }

  private async chatReadinessFrom(runtime: RuntimeModels): Promise<Availability> {
    if (!runtime) return RUNTIME_DOWN;
    const chosen = await this.chosenModel('chat');
    if (!chosen) return unavailable('No chat model is installed yet.', 'Install a chat model in Admin › Features.');
    if (!runtime.some((m) => sameModel(m, chosen))) {
      return unavailable(`Ollama does not have the chat model ${chosen} any more.`, 'Restart Hearth to download it again, or install a chat model in Admin › Features.');
    }
    return AVAILABLE;
  }

  /** Whether installing the item (with what it requires) pulls a model into the model runtime. */
  needsRuntime(itemId: string): boolean {
    const { catalog } = this.deps;
    const artifacts = catalog.artifactsWithRequirements(catalog.withRequirements([itemId]).flatMap((id) => catalog.item(id)?.installs.map((a) => a.id) ?? []));
    return artifacts.some((id) => catalog.artifact(id)?.kind === 'runtime_model');
  }

  /** The fitted chat item for this machine (largest chat model that fits the memory budget). */
  fitChat(hw: HardwareProfile): { item: FeatureItem; fits: boolean } {
    const pick = pickLargestFitting(this.deps.catalog.chatModels(), modelBudget(hw).bytes);
    if (!pick) throw new Error('the feature catalog has no chat models');
    return pick;
  }

  async plan(): Promise<FeaturePlan> {
    const [hw, runtime] = await Promise.all([this.deps.hardware(), this.deps.look.models()]);
    const { catalog } = this.deps;
    const budget = modelBudget(hw);
    const chat = this.fitChat(hw);
    const essentials = {
      chat: { ...(await this.view(chat.item, hw, runtime)), fitsBudget: chat.fits },
      embeddings: await this.view(catalog.item(catalog.data.essentials.embeddings)!, hw, runtime),
      router: await this.view(catalog.item(catalog.data.essentials.router)!, hw, runtime),
    };
    const recommended: string[] = ['library-base'];
    if (hw.memoryBytes >= 8 * GB) recommended.push('voice-base');
    const pictures = pickLargestFitting(
      (catalog.data.groups.find((g) => g.id === 'images')?.categories ?? []).flatMap((c) => c.items),
      budget.runsOn === 'cpu' ? hw.memoryBytes * 0.5 : budget.bytes,
    );
    if (pictures?.fits) recommended.push('images-base', pictures.item.id);
    const groups = [];
    for (const g of catalog.data.groups) {
      groups.push({
        id: g.id,
        name: g.name,
        base: await this.view(g.base, hw, runtime),
        items: await Promise.all(g.items.map((i) => this.view(i, hw, runtime))),
        categories: await Promise.all(g.categories.map(async (c) => ({ id: c.id, name: c.name, items: await Promise.all(c.items.map((i) => this.view(i, hw, runtime))) }))),
      });
    }
    const bytesOf = (ids: string[]) => ids.reduce((n, id) => n + (catalog.item(id)?.diskBytes ?? 0), 0);
    const essentialsBytes = essentials.chat.diskBytes + essentials.embeddings.diskBytes + essentials.router.diskBytes;
    const recommendedBytes = bytesOf(recommended);
    return {
      hardware: hw,
      budget,
      essentials,
      recommended,
      groups,
      disk: { freeBytes: hw.diskFreeBytes, essentialsBytes, recommendedBytes, fits: hw.diskFreeBytes === null || essentialsBytes + recommendedBytes < hw.diskFreeBytes },
    };
  }

  /**
   * Enqueues the artifacts of the given items (and of the items they require) that are not yet
   * installed, prerequisites first, each dependent job pointing at its prerequisites' jobs.
   */
  async enqueueItems(actor: Actor, itemIds: string[]): Promise<DownloadJob[]> {
    assertAdmin(actor);
    const { catalog } = this.deps;
    for (const id of itemIds) if (!catalog.item(id)) throw new NotFoundError(`There is no feature called ${id}.`);
    const installed = await this.installed();
    const items = catalog.withRequirements(itemIds).map((id) => catalog.item(id)!);
    const artifacts = catalog.artifactsWithRequirements(items.flatMap((i) => i.installs.map((a) => a.id))).filter((id) => !installed[id]);
    const jobOf = new Map<string, string>();
    const jobs: DownloadJob[] = [];
    for (const id of artifacts) {
      const a = catalog.artifact(id)!;
      const requires = a.requires.map((r) => jobOf.get(r)).filter((x): x is string => Boolean(x));
      const [job] = await this.deps.downloads.enqueue(actor, [
        {
          kind: a.kind,
          target: a.target,
          destination: a.destination ?? null,
          label: a.label,
          itemId: id,
          expectedBytes: a.sizeBytes || null,
          sha256: a.sha256 ?? null,
          hostClass: a.hostClass,
          requires,
        },
      ]);
      jobOf.set(id, job!.id);
      jobs.push(job!);
    }
    // items with nothing left to download are switched on right away
    await this.refreshFlags(items.map((i) => i.id));
    return jobs;
  }

  private async refreshFlags(itemIds: string[]): Promise<void> {
    const installed = await this.installed();
    const flags = await this.flags();
    let changed = false;
    for (const id of itemIds) {
      const item = this.deps.catalog.item(id);
      if (item && this.isItemInstalled(item, installed) && flags[id] !== true) {
        flags[id] = true;
        changed = true;
      }
    }
    if (changed) await this.deps.settings.set(SETTING_FLAGS, flags);
  }

  async markInstalled(artifactIds: string[]): Promise<void> {
    const installed = await this.installed();
    for (const id of artifactIds) installed[id] = { installedAt: this.deps.clock.now().toISOString() };
    await this.deps.settings.set(SETTING_INSTALLED, installed);
    const dependents = [...this.deps.catalog.items.values()].filter((i) => i.installs.some((a) => artifactIds.includes(a.id))).map((i) => i.id);
    await this.refreshFlags(dependents);
    await this.chooseChatModelIfNone(dependents);
  }

  /**
   * The runtime has this model (boot repaired it): the catalog artifacts that are this model are
   * installed. (Marking the model's name itself would leave the artifact missing when its id is
   * not its name.)
   */
  async markRuntimeModelInstalled(model: string): Promise<void> {
    const ids = Object.keys(this.deps.catalog.data.artifacts).filter((id) => {
      const a = this.deps.catalog.artifact(id);
      return a?.kind === 'runtime_model' && sameModel(a.target, model);
    });
    if (ids.length) await this.markInstalled(ids);
  }

  /**
   * A chat model installed from Features while none is chosen (setup ran without the model
   * runtime) becomes the household's chat model: otherwise chat would stay "not set up" for good.
   */
  private async chooseChatModelIfNone(itemIds: string[]): Promise<void> {
    const stored = await this.deps.settings.get<string>(SETTING_CHOSEN_MODELS.chat);
    if (stored && !(await this.adoptedRoles()).includes('chat')) return;
    const chatItems = new Set(this.deps.catalog.chatModels().map((i) => i.id));
    const item = itemIds.map((id) => this.deps.catalog.item(id)).find((i) => i && chatItems.has(i.id));
    const model = item?.installs.map((a) => this.deps.catalog.artifact(a.id)).find((a) => a?.kind === 'runtime_model');
    if (model) await this.setChosenModel('chat', model.target);
  }

  /** A download finished (a listener on `download.completed`, in module.ts): a catalog artifact is now installed. */
  async onDownloaded(artifactId: string | null): Promise<void> {
    if (!artifactId || !this.deps.catalog.artifact(artifactId)) return;
    await this.markInstalled([artifactId]);
    this.deps.logger.info({ artifact: artifactId }, 'installed');
    await this.flushPendingExtras({ kind: 'system' });
  }

  async setPendingExtras(pending: { essentials: string[]; extras: string[] }): Promise<void> {
    await this.deps.settings.set(SETTING_PENDING_EXTRAS, pending);
  }

  /**
   * Once every essential from setup is installed: switches chat on and queues the extras chosen
   * in setup (once). Returns the jobs queued (none while an essential is still missing).
   */
  flushPendingExtras(actor: Actor): Promise<DownloadJob[]> {
    // the setup stream and the download listener may both get here at once: one at a time
    const run = this.flushing.catch(() => undefined).then(() => this.flushPendingExtrasNow(actor));
    this.flushing = run;
    return run;
  }

  private flushing: Promise<unknown> = Promise.resolve();

  private async flushPendingExtrasNow(actor: Actor): Promise<DownloadJob[]> {
    const pending = await this.deps.settings.get<{ essentials: string[]; extras: string[] }>(SETTING_PENDING_EXTRAS);
    if (!pending) return [];
    const installed = await this.installed();
    const ready = pending.essentials.every((id) => {
      const item = this.deps.catalog.item(id);
      return item && this.isItemInstalled(item, installed);
    });
    if (!ready) return [];
    await this.deps.settings.delete(SETTING_PENDING_EXTRAS);
    if (this.deps.catalog.item(CHAT_BASE_ITEM)) await this.deps.settings.set(SETTING_FLAGS, { ...(await this.flags()), [CHAT_BASE_ITEM]: true });
    return pending.extras.length ? this.enqueueItems(actor, pending.extras) : [];
  }

  /** Removes the items' artifacts that no other installed item still uses, and turns them off. */
  async uninstall(actor: Actor, itemIds: string[]): Promise<{ removed: string[] }> {
    assertAdmin(actor);
    const { catalog } = this.deps;
    for (const id of itemIds) if (!catalog.item(id)) throw new NotFoundError(`There is no feature called ${id}.`);
    const installed = await this.installed();
    const flags = await this.flags();
    const keep = new Set(
      [...catalog.items.values()].filter((i) => !itemIds.includes(i.id) && flags[i.id] === true).flatMap((i) => catalog.artifactsWithRequirements(i.installs.map((a) => a.id))),
    );
    const removed: string[] = [];
    for (const id of itemIds) {
      for (const a of catalog.item(id)!.installs) {
        if (keep.has(a.id) || !installed[a.id]) continue;
        const art = catalog.artifact(a.id)!;
        if (art.kind === 'runtime_model') await this.deps.runtime.deleteModel(art.target);
        else if (art.destination) await rm(this.deps.downloads.destinationPath(art.destination), { force: true });
        delete installed[a.id];
        removed.push(a.id);
      }
      flags[id] = false;
    }
    await this.deps.settings.set(SETTING_INSTALLED, installed);
    await this.deps.settings.set(SETTING_FLAGS, flags);
    return { removed };
  }

  /**
   * A runtime model was deleted outside Features (Admin › Models): the catalog artifacts that are
   * that model are no longer installed and the items using them are switched off, so boot does not
   * download it again.
   */
  async forgetRuntimeModel(model: string): Promise<string[]> {
    const installed = await this.installed();
    const gone = Object.keys(installed).filter((id) => {
      const a = this.deps.catalog.artifact(id);
      return a?.kind === 'runtime_model' && sameModel(a.target, model);
    });
    if (!gone.length) return [];
    for (const id of gone) delete installed[id];
    await this.deps.settings.set(SETTING_INSTALLED, installed);
    const flags = await this.flags();
    for (const item of this.deps.catalog.items.values()) if (item.installs.some((a) => gone.includes(a.id))) flags[item.id] = false;
    await this.deps.settings.set(SETTING_FLAGS, flags);
    return gone;
  }

  /**
   * Boot: installed artifacts whose files went missing (or models the runtime no longer has) are
   * handed back to the queue. Returns what was re-queued.
   */
  async reconcile(runtimeModels: string[] | null): Promise<string[]> {
    const installed = await this.installed();
    const missing: string[] = [];
    for (const id of Object.keys(installed)) {
      const a = this.deps.catalog.artifact(id);
      if (!a) continue;
      if (a.kind === 'runtime_model') {
        if (runtimeModels && !runtimeModels.some((m) => sameModel(m, a.target))) missing.push(id);
      } else if (a.destination && !existsSync(this.deps.downloads.destinationPath(a.destination))) {
        missing.push(id);
      }
    }
    if (!missing.length) return [];
    for (const id of missing) delete installed[id];
    await this.deps.settings.set(SETTING_INSTALLED, installed);
    const items = [...this.deps.catalog.items.values()].filter((i) => i.installs.some((a) => missing.includes(a.id))).map((i) => i.id);
    await this.enqueueItems({ kind: 'system' }, items);
    return missing;
  }
}
