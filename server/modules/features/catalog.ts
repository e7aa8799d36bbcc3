// Loads and indexes the feature catalog (resources/catalog/features.json or FEATURE_CATALOG_PATH).
import { readFileSync } from 'node:fs';
import { FeatureCatalog, type Artifact, type FeatureGroup, type FeatureItem } from './schema.js';

export class Catalog {
  readonly items = new Map<string, FeatureItem & { groupId: FeatureGroup['id']; categoryId: string | null; isBase: boolean }>();

  constructor(readonly data: FeatureCatalog) {
    for (const g of data.groups) {
      this.items.set(g.base.id, { ...g.base, groupId: g.id, categoryId: null, isBase: true });
      for (const i of g.items) this.items.set(i.id, { ...i, groupId: g.id, categoryId: null, isBase: false });
      for (const c of g.categories) for (const i of c.items) this.items.set(i.id, { ...i, groupId: g.id, categoryId: c.id, isBase: false });
    }
  }

  static load(file: string): Catalog {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(`The feature catalog ${file} could not be read: ${(err as Error).message}`, { cause: err });
    }
    const parsed = FeatureCatalog.safeParse(json);
    if (!parsed.success) throw new Error(`The feature catalog ${file} is not valid: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    return new Catalog(parsed.data);
  }

  item(id: string) {
    return this.items.get(id) ?? null;
  }

  artifact(id: string): Artifact | null {
    return this.data.artifacts[id] ?? null;
  }

  /** Chat models to choose the essential chat item from (the "chat-models" category of the chat group). */
  chatModels(): FeatureItem[] {
    return this.data.groups.find((g) => g.id === 'chat')?.categories.flatMap((c) => c.items) ?? [];
  }

  /** Items with the items they require, transitively, prerequisites first. */
  withRequirements(ids: string[]): string[] {
    return withPrerequisites(ids, (id) => this.item(id)?.requires ?? null);
  }

  /** Artifacts with the artifacts they require, transitively, prerequisites first. */
  artifactsWithRequirements(ids: string[]): string[] {
    return withPrerequisites(ids, (id) => this.artifact(id)?.requires ?? null);
  }
}

/** Depth-first order of `ids` and their prerequisites (unknown ids dropped, cycles broken). */
function withPrerequisites(ids: string[], requiresOf: (id: string) => string[] | null): string[] {
  const out: string[] = [];
  const visit = (id: string, path: string[]) => {
    if (out.includes(id) || path.includes(id)) return;
    const requires = requiresOf(id);
    if (!requires) return;
    for (const r of requires) visit(r, [...path, id]);
    out.push(id);
  };
  for (const id of ids) visit(id, []);
  return out;
}
