// Open Food Facts, the open product database a barcode is looked up in (reference/household-tools.md
// §4): `GET <base>/api/v3/product/<code>.json?fields=…`, answered in the v3 shape `{code, status:
// "success"|"success_with_warnings"|"failure", product}` or, from an older mirror, the v2 shape `{code,
// status: 1|0, status_verbose, product}`; both are read. A product it does not know is `null` (a 404,
// or a 200 whose status says so). OFF asks every client for a User-Agent naming it and allows 15
// product reads a minute (the caller keeps to that); it answers 503 (or 429) when it is busy. Every
// request goes through the guard it is handed, with a time budget and a size cap; any failure is a
// ProductDbError with a kind, whose message names no address.
import { z } from 'zod';
import type { SsrfGuard } from '../../platform/ssrf.js';
import { fetchCappedJson, type CappedJsonFailure } from '../web/fetch-capped.js';

export type ProductDbFailure = CappedJsonFailure | 'busy' | 'http_error';

export class ProductDbError extends Error {
  constructor(
    readonly failure: ProductDbFailure,
    message: string,
  ) {
    super(message);
    this.name = 'ProductDbError';
  }
}

export interface ProductFacts {
  code: string;
  name: string | null;
  brand: string | null;
  quantity: string | null;
  imageUrl: string | null;
  /** Category names in English where OFF gives them (`en:dairies` → "dairies"). */
  categories: string[];
}

export interface ProductDb {
  /** The product, or null when the database does not know the code. */
  product(code: string, signal?: AbortSignal): Promise<ProductFacts | null>;
}

const FIELDS = 'code,product_name,product_name_en,generic_name,brands,quantity,categories_tags,image_front_url,image_url';
const Text = z.string().trim().max(500).optional().catch(undefined);
const Product = z
  .object({
    code: z.string().optional().catch(undefined),
    product_name: Text,
    product_name_en: Text,
    generic_name: Text,
    brands: Text,
    quantity: Text,
    categories_tags: z.array(z.string()).max(200).optional().catch(undefined),
    image_front_url: Text,
    image_url: Text,
  })
  .passthrough();
const Answer = z.object({ status: z.union([z.string(), z.number()]), product: z.unknown().optional() }).passthrough();

const SENTENCES: Record<ProductDbFailure, string> = {
  too_large: 'The product database sent an answer too large to read.',
  timeout: 'The product database did not answer in time.',
  blocked: 'The product database address was refused.',
  unreachable: 'The product database could not be reached.',
  bad_response: 'The product database did not answer in its own format.',
  busy: 'The product database is busy.',
  http_error: 'The product database could not answer.',
};

/** Thrown by checkStatus for a 404 and caught below: the database does not know the code. */
class UnknownCode extends Error {}
const blank = (s: string | undefined) => (s && s.length > 0 ? s : null);
/** `en:plant-based-foods` → "plant-based foods"; tags in other languages are left out. */
const categoryName = (tag: string) => (tag.startsWith('en:') ? tag.slice(3).replace(/-/g, ' ') : null);
const safeImage = (url: string | null) => (url && /^https?:\/\//i.test(url) ? url : null);

/** Reads a v3 or v2 answer: the product, null for "not known", or throws bad_response. */
export function readProductAnswer(code: string, raw: unknown): ProductFacts | null {
  const a = Answer.safeParse(raw);
  if (!a.success) throw new ProductDbError('bad_response', SENTENCES.bad_response);
  const found = a.data.status === 1 || a.data.status === 'success' || a.data.status === 'success_with_warnings';
  if (!found) return null;
  const p = Product.safeParse(a.data.product);
  if (!p.success) throw new ProductDbError('bad_response', SENTENCES.bad_response);
  const d = p.data;
  const brand = blank(d.brands?.split(',')[0]?.trim());
  return {
    code,
    name: blank(d.product_name) ?? blank(d.product_name_en) ?? blank(d.generic_name),
    brand,
    quantity: blank(d.quantity),
    imageUrl: safeImage(blank(d.image_front_url) ?? blank(d.image_url)),
    categories: (d.categories_tags ?? []).map(categoryName).filter((c): c is string => c !== null).slice(0, 20),
  };
}

export function createOpenFoodFacts(opts: { baseUrl: string; guard: SsrfGuard; userAgent: string; timeoutMs?: number }): ProductDb {
  const base = opts.baseUrl.replace(/\/+$/, '');
  return {
    async product(code, signal) {
      const url = `${base}/api/v3/product/${encodeURIComponent(code)}.json?fields=${FIELDS}`;
      let raw: unknown;
      try {
        raw = await fetchCappedJson(opts.guard, url, {
          maxBytes: 2 * 1024 * 1024,
          timeoutMs: opts.timeoutMs ?? 8_000,
          maxRedirects: 2,
          headers: { 'user-agent': opts.userAgent },
          ...(signal ? { signal } : {}),
          checkStatus: (status) => {
            if (status === 200) return;
            if (status === 404) throw new UnknownCode();
            if (status === 429 || status === 503) throw new ProductDbError('busy', SENTENCES.busy);
            throw new ProductDbError('http_error', SENTENCES.http_error);
          },
          fail: (kind) => new ProductDbError(kind, SENTENCES[kind]),
        });
      } catch (err) {
        if (err instanceof UnknownCode) return null;
        throw err;
      }
      return readProductAnswer(code, raw);
    },
  };
}
