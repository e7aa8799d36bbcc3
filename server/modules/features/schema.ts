import { z } from 'zod';
import { HostClass, JobKind } from '../downloads/schema.js';
import { Availability } from '../tools/schema.js';

export const GROUP_IDS = ['chat', 'images', 'voice', 'library', 'maps', 'home-inventory'] as const;
export const SETTING_FLAGS = 'features.flags';
export const SETTING_INSTALLED = 'features.installed';
/** Extras chosen in setup, queued once the essentials are installed. */
export const SETTING_PENDING_EXTRAS = 'setup.pending_extras';
/** The chat group's base item: on once a chat model is installed. */
export const CHAT_BASE_ITEM = 'chat-base';
/**
 * The runtime model chosen for each essential role (the boot checks' essentials). The features
 * service owns these keys: other modules call its chosenModel/setChosenModel.
 */
export const SETTING_CHOSEN_MODELS = { chat: 'chat_model', embeddings: 'embedding_model', router: 'router_model', vision: 'vision_model' } as const;
export type EssentialRole = keyof typeof SETTING_CHOSEN_MODELS;
/** The roles whose model was adopted from the runtime's own models, not chosen (FeaturesService.chosenModel). */
export const SETTING_ADOPTED_ROLES = 'models.adopted_roles';

export const Artifact = z.object({
  type: z.enum(['model', 'component']),
  kind: JobKind,
  label: z.string(),
  /** A URL, or the model runtime's model name. */
  target: z.string(),
  destination: z.string().optional(),
  sizeBytes: z.number().int().nonnegative(),
  sha256: z.string().optional(),
  hostClass: HostClass,
  /** Artifacts that must be installed first (archive tools, image-engine base, custom nodes…). */
  requires: z.array(z.string()).default([]),
});
export type Artifact = z.infer<typeof Artifact>;

export const FeatureItem = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  diskBytes: z.number().int().nonnegative(),
  ramBytes: z.number().int().nonnegative(),
  sizing: z.string(),
  requires: z.array(z.string()).default([]),
  installs: z.array(z.object({ id: z.string(), type: z.enum(['model', 'component']) })).default([]),
  advanced: z.string().optional(),
});
export type FeatureItem = z.infer<typeof FeatureItem>;

export const FeatureGroup = z.object({
  id: z.enum(GROUP_IDS),
  name: z.string(),
  base: FeatureItem,
  items: z.array(FeatureItem).default([]),
  categories: z.array(z.object({ id: z.string(), name: z.string(), items: z.array(FeatureItem) })).default([]),
});
export type FeatureGroup = z.infer<typeof FeatureGroup>;

export const FeatureCatalog = z
  .object({
    artifacts: z.record(z.string(), Artifact),
    essentials: z.object({ chat: z.string(), embeddings: z.string(), router: z.string() }),
    groups: z.array(FeatureGroup),
  })
  .superRefine((c, ctx) => {
    const items = c.groups.flatMap((g) => [g.base, ...g.items, ...g.categories.flatMap((k) => k.items)]);
    const ids = new Set(items.map((i) => i.id));
    if (ids.size !== items.length) ctx.addIssue({ code: 'custom', message: 'feature item ids must be unique' });
    for (const i of items) {
      for (const r of i.requires) if (!ids.has(r)) ctx.addIssue({ code: 'custom', message: `${i.id} requires unknown item ${r}` });
      for (const a of i.installs) if (!c.artifacts[a.id]) ctx.addIssue({ code: 'custom', message: `${i.id} installs unknown artifact ${a.id}` });
    }
    for (const [id, a] of Object.entries(c.artifacts)) {
      for (const r of a.requires) if (!c.artifacts[r]) ctx.addIssue({ code: 'custom', message: `artifact ${id} requires unknown ${r}` });
      if (a.kind !== 'runtime_model' && !a.destination) ctx.addIssue({ code: 'custom', message: `artifact ${id} needs a destination` });
    }
    for (const e of Object.values(c.essentials)) if (!ids.has(e)) ctx.addIssue({ code: 'custom', message: `essential ${e} is not an item` });
  });
export type FeatureCatalog = z.infer<typeof FeatureCatalog>;

export const ItemIdParams = z.object({ id: z.string().min(1).max(100) });
export const SetFeatureBody = z.object({ enabled: z.boolean() });
export const ItemsBody = z.object({ items: z.array(z.string().min(1).max(100)).min(1).max(50) });
export const SetupDownloadBody = z.object({
  /** Extra items chosen in the wizard, handed to the queue after the essentials. */
  extras: z.array(z.string().min(1).max(100)).max(50).default([]),
  /** Override of the fitted chat item (must be one of the chat models). */
  chatItem: z.string().min(1).max(100).optional(),
});
export type SetupDownloadBody = z.infer<typeof SetupDownloadBody>;

// ---- what the routes answer

/** This computer as the hardware probe sees it (platform/hardware.ts). */
export const GpuInfo = z.object({ vendor: z.enum(['nvidia', 'amd', 'intel', 'apple', 'other']), model: z.string(), vramBytes: z.number().nonnegative() });
export type GpuInfo = z.infer<typeof GpuInfo>;
export const HardwareProfile = z.object({
  platform: z.string(),
  arch: z.string(),
  cpu: z.object({ brand: z.string(), cores: z.number().int() }),
  memoryBytes: z.number().nonnegative(),
  gpus: z.array(GpuInfo),
  /** M1 = 1, M2 = 2, …; null when not Apple Silicon. */
  appleSiliconGeneration: z.number().int().nullable(),
  diskFreeBytes: z.number().nullable(),
});
export type HardwareProfile = z.infer<typeof HardwareProfile>;
/** The memory a local model may use, and where models run (platform/hardware-fit.ts). */
export const MemoryBudget = z.object({ bytes: z.number().int().nonnegative(), runsOn: z.enum(['gpu', 'unified', 'cpu']), summary: z.string() });

/** What the last benchmark measured of a chat model here. */
export const MeasuredSpeed = z.object({ wordsPerSecond: z.number(), tokensPerSecond: z.number(), measuredAt: z.string() });
export type MeasuredSpeed = z.infer<typeof MeasuredSpeed>;

/** A catalog item as this household has it. */
export const CatalogItemView = FeatureItem.extend({
  installed: z.boolean(),
  enabled: z.boolean(),
  /** Whether its memory need fits this computer. */
  fits: z.boolean(),
  /** A chat model's speed as Admin › Benchmarks measured it on this computer; null when not measured. */
  measuredSpeed: MeasuredSpeed.nullable(),
  /** Whether it can run now (the model runtime up, the chosen model in it), with why not and the fix. */
  ...Availability.shape,
});
export type CatalogItemView = z.infer<typeof CatalogItemView>;
export const CatalogGroupView = z.object({
  id: z.enum(GROUP_IDS),
  name: z.string(),
  base: CatalogItemView,
  items: z.array(CatalogItemView),
  categories: z.array(z.object({ id: z.string(), name: z.string(), items: z.array(CatalogItemView) })),
});
export type CatalogGroupView = z.infer<typeof CatalogGroupView>;

/** GET /api/admin/features (and, with more, GET /api/setup/catalog): the catalog fitted to this computer. */
export const FeaturePlan = z.object({
  hardware: HardwareProfile,
  budget: MemoryBudget,
  essentials: z.object({ chat: CatalogItemView.extend({ fitsBudget: z.boolean() }), embeddings: CatalogItemView, router: CatalogItemView }),
  /** Item ids suggested for this computer. */
  recommended: z.array(z.string()),
  groups: z.array(CatalogGroupView),
  disk: z.object({ freeBytes: z.number().nullable(), essentialsBytes: z.number().int().nonnegative(), recommendedBytes: z.number().int().nonnegative(), fits: z.boolean() }),
});
export type FeaturePlan = z.infer<typeof FeaturePlan>;

/** The feature flags by item id. */
export const FeatureFlagsResponse = z.object({ features: z.record(z.string(), z.boolean()) });
export type FeatureFlagsResponse = z.infer<typeof FeatureFlagsResponse>;
export const UninstallResponse = z.object({ removed: z.array(z.string()) });
export type UninstallResponse = z.infer<typeof UninstallResponse>;
