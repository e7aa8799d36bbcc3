// Which installed model fits each household role, for a runtime that already had models before
// Hearth chose any (Ollama installed and used on its own first). Pure: the runtime's models with
// their capabilities and this machine's hardware in, one pick per role out.
import type { RuntimeModel } from '../../adapters/model-runtime/ollama.js';
import type { HardwareProfile } from '../../platform/hardware.js';
import type { Catalog } from '../features/public.js';
import { modelFit } from './fit.js';
import { sameModel } from './pulls.js';
import type { EssentialRoleName, ModelCapability } from './schema.js';

/**
 * Ollama's capability words in Hearth's (`completion` is chat). A runtime too old to report any
 * is judged by the model's family and name: embedding models say so, everything else chats.
 */
export function capabilitiesOf(reported: string[], model: RuntimeModel): ModelCapability[] {
  if (reported.length === 0) {
    const embeds = /bert|embed/i.test(`${model.family ?? ''} ${model.name}`);
    return embeds ? ['embedding'] : ['chat'];
  }
  const out: ModelCapability[] = [];
  if (reported.includes('completion')) out.push('chat');
  if (reported.includes('vision')) out.push('vision');
  if (reported.includes('tools')) out.push('tools');
  if (reported.includes('embedding')) out.push('embedding');
  return out;
}

export interface InstalledModel {
  model: RuntimeModel;
  capabilities: ModelCapability[];
}

/** The runtime models a catalog group installs (home-inventory: its vision model), in catalog order. */
export function visionModelsOf(catalog: Catalog, groupId = 'home-inventory'): string[] {
  const group = catalog.data.groups.find((g) => g.id === groupId);
  if (!group) return [];
  const items = [group.base, ...group.items, ...group.categories.flatMap((c) => c.items)];
  return items.flatMap((i) => i.installs.map((a) => catalog.artifact(a.id))).flatMap((a) => (a?.kind === 'runtime_model' ? [a.target] : []));
}

/** The models the feature catalog would install for each role, preferred when the runtime has them. */
export type CatalogPreference = Partial<Record<EssentialRoleName, string[]>>;

const fitRank = (hw: HardwareProfile | null, m: RuntimeModel): number => {
  const fit = hw ? modelFit(hw, m.sizeBytes)?.fit : undefined;
  return fit === 'fits' ? 2 : fit === 'slow' ? 1 : fit === 'wont_fit' ? -1 : 1;
};

/**
 * The best installed model for a role, or null when none can fill it:
 * - chat: a chat model that runs here (not one that will not fit), one that can use tools first
 *   (chat's extensions need them), then the best fit, then the largest;
 * - embeddings: a model that builds search indexes, the catalog's own first;
 * - router: a small chat model that runs here, the catalog's own first, else the smallest;
 * - vision: a model that sees pictures, the catalog's own first; otherwise only when exactly one is
 *   installed (with several, an admin chooses: Hearth does not guess which).
 */
export function bestForRole(role: EssentialRoleName, installed: InstalledModel[], hw: HardwareProfile | null, preferred: CatalogPreference = {}): string | null {
  const catalogFirst = (list: InstalledModel[]) => (preferred[role] ?? []).map((p) => list.find((m) => sameModel(m.model.name, p))).find((m) => m !== undefined);
  const size = (m: InstalledModel) => m.model.sizeBytes ?? 0;
  if (role === 'embeddings') {
    const embedders = installed.filter((m) => m.capabilities.includes('embedding'));
    const pick = catalogFirst(embedders) ?? [...embedders].sort((a, b) => a.model.name.localeCompare(b.model.name))[0];
    return pick?.model.name ?? null;
  }
  if (role === 'vision') {
    const seeing = installed.filter((m) => m.capabilities.includes('vision') && fitRank(hw, m.model) >= 0);
    const pick = catalogFirst(seeing) ?? (seeing.length === 1 ? seeing[0] : undefined);
    return pick?.model.name ?? null;
  }
  const chatters = installed.filter((m) => m.capabilities.includes('chat') && !m.capabilities.includes('embedding') && fitRank(hw, m.model) >= 0);
  if (role === 'router') {
    const pick = catalogFirst(chatters) ?? [...chatters].sort((a, b) => size(a) - size(b) || a.model.name.localeCompare(b.model.name))[0];
    return pick?.model.name ?? null;
  }
  const tools = (m: InstalledModel) => (m.capabilities.includes('tools') ? 1 : 0);
  const pick = [...chatters].sort((a, b) => tools(b) - tools(a) || fitRank(hw, b.model) - fitRank(hw, a.model) || size(b) - size(a) || a.model.name.localeCompare(b.model.name))[0];
  return pick?.model.name ?? null;
}
