// Queries of lookup_barcodes: Hearth's own copy of every barcode answer, "not known" too.
import type { Knex } from 'knex';

interface Row {
  code: string;
  found: number | boolean;
  name: string | null;
  brand: string | null;
  quantity: string | null;
  image_url: string | null;
  categories: string;
  source: string;
  fetched_at: string;
}

export interface CachedBarcode {
  code: string;
  /** null: the source did not know the code. */
  product: { name: string | null; brand: string | null; quantity: string | null; imageUrl: string | null; categories: string[] } | null;
  fetchedAt: string;
}

const categoriesOf = (text: string): string[] => {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

export class LookupStore {
  constructor(private readonly db: Knex) {}

  async barcode(code: string): Promise<CachedBarcode | null> {
    const r = (await this.db<Row>('lookup_barcodes').where({ code }).first()) as Row | undefined;
    if (!r) return null;
    return {
      code: r.code,
      product: r.found ? { name: r.name, brand: r.brand, quantity: r.quantity, imageUrl: r.image_url, categories: categoriesOf(r.categories) } : null,
      fetchedAt: r.fetched_at,
    };
  }

  async putBarcode(c: CachedBarcode): Promise<void> {
    const p = c.product;
    const row = {
      code: c.code,
      found: p !== null,
      name: p?.name ?? null,
      brand: p?.brand ?? null,
      quantity: p?.quantity ?? null,
      image_url: p?.imageUrl ?? null,
      categories: JSON.stringify(p?.categories ?? []),
      source: 'open_food_facts',
      fetched_at: c.fetchedAt,
    };
    await this.db('lookup_barcodes').insert(row).onConflict('code').merge();
  }
}
