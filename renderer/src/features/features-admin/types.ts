// The feature plan that GET /api/admin/features answers (GET /api/setup/catalog answers it with the
// model runtime's state: SetupCatalog). Types only, from the server's schemas.
import type { CatalogItemView, FeatureItem, FeaturePlan } from '../../../../server/modules/features/schema.js';

export type { CatalogGroupView, FeatureFlagsResponse, FeaturePlan, FeatureItem, GpuInfo, HardwareProfile, UninstallResponse } from '../../../../server/modules/features/schema.js';
/** An item of the plan as this household has it (installed, enabled, fits). */
export type CatalogItem = CatalogItemView;

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
