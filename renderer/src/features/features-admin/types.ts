// The feature plan that GET /api/setup/catalog and GET /api/admin/features answer. FeatureItem comes
// from the server's schema; the plan itself is built in the features service (no schema module
// spells it), so its shape is written out here.
import type { FeatureItem } from '../../../../server/modules/features/schema.js';

export type { FeatureItem };

export interface CatalogItem extends FeatureItem {
  installed: boolean;
  enabled: boolean;
  /** Whether its memory need fits this computer. */
  fits: boolean;
}

export interface CatalogGroup {
  id: string;
  name: string;
  base: CatalogItem;
  items: CatalogItem[];
  categories: Array<{ id: string; name: string; items: CatalogItem[] }>;
}

export interface GpuInfo {
  vendor: 'nvidia' | 'amd' | 'intel' | 'apple' | 'other';
  model: string;
  vramBytes: number;
}

export interface HardwareProfile {
  platform: string;
  arch: string;
  cpu: { brand: string; cores: number };
  memoryBytes: number;
  gpus: GpuInfo[];
  appleSiliconGeneration: number | null;
  diskFreeBytes: number | null;
}

export interface FeaturePlan {
  hardware: HardwareProfile;
  /** The memory a local model may use, and where models run. */
  budget: { bytes: number; runsOn: 'gpu' | 'unified' | 'cpu'; summary: string };
  essentials: { chat: CatalogItem & { fitsBudget: boolean }; embeddings: CatalogItem; router: CatalogItem };
  /** Item ids suggested for this computer. */
  recommended: string[];
  groups: CatalogGroup[];
  disk: { freeBytes: number | null; essentialsBytes: number; recommendedBytes: number; fits: boolean };
  /** The model runtime as setup found it (setup's plan only). */
  runtime?: { running: boolean; installed: boolean };
  /** Items that install a model into the model runtime (setup's plan only). */
  needsRuntime?: string[];
}

/** Every item of the plan, in catalog order, with the group (and category) it sits in. */
export function planItems(plan: Pick<FeaturePlan, 'groups'>): Array<CatalogItem & { groupId: string; categoryName: string | null }> {
  return plan.groups.flatMap((g) => [
    { ...g.base, groupId: g.id, categoryName: null },
    ...g.items.map((i) => ({ ...i, groupId: g.id, categoryName: null })),
    ...g.categories.flatMap((c) => c.items.map((i) => ({ ...i, groupId: g.id, categoryName: c.name }))),
  ]);
}

/** The item ids plus everything they require, transitively (what the server will install). */
export function withRequirements(ids: Iterable<string>, byId: ReadonlyMap<string, Pick<FeatureItem, 'requires'>>): Set<string> {
  const out = new Set<string>();
  const visit = (id: string) => {
    if (out.has(id)) return;
    out.add(id);
    for (const r of byId.get(id)?.requires ?? []) visit(r);
  };
  for (const id of ids) visit(id);
  return out;
}
