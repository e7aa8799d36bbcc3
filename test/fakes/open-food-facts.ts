// A stand-in for Open Food Facts' product API (reference/household-tools.md §4): `GET
// /api/v3/product/<code>.json` answered in the v3 shape `{code, status: "success", result{id, name},
// warnings[], errors[], product{…}}`, a code it does not know as a 404 `{status: "failure", result:
// {id: "product_not_found"}}`. Failure modes, switched at run time: `v2` (the v2 shape `{code, status:
// 1|0, status_verbose, product}` on the same path, as an older mirror answers), `busy` (503, OFF's
// answer over its global limits), `down` (not listening), `slow` (held back slowMs), `garbage` (an
// HTML page with 200). Requests are recorded with their User-Agent.
import type { ServerResponse } from 'node:http';
import { sendText as send, startModalFake, type ModalFake } from './modal-http.js';

export type FakeOffMode = 'ok' | 'v2' | 'busy' | 'down' | 'slow' | 'garbage';

export interface FakeProduct {
  code: string;
  product_name?: string;
  brands?: string;
  quantity?: string;
  categories_tags?: string[];
  image_front_url?: string;
}

export const OFF_PRODUCTS: FakeProduct[] = [
  { code: '3017620422003', product_name: 'Nutella', brands: 'Ferrero,Nutella', quantity: '400 g', categories_tags: ['en:breakfasts', 'en:spreads', 'en:sweet-spreads', 'en:hazelnut-spreads'], image_front_url: 'https://images.openfoodfacts.org/images/products/301/762/042/2003/front_en.jpg' },
  { code: '7610200337405', product_name: 'Vollmilch UHT', brands: 'Migros', quantity: '1 l', categories_tags: ['en:dairies', 'en:milks', 'en:whole-milks'] },
  { code: '5449000000996', product_name: 'Coca-Cola', brands: 'Coca-Cola', quantity: '330 ml', categories_tags: ['en:beverages', 'en:carbonated-drinks', 'en:sodas'] },
  { code: '40084107', product_name: '', brands: 'Ritter Sport', quantity: '100 g', categories_tags: ['de:schokolade'] },
];

export type FakeOpenFoodFacts = ModalFake<FakeOffMode>;

export function startFakeOpenFoodFacts(products: FakeProduct[] = OFF_PRODUCTS): Promise<FakeOpenFoodFacts> {
  const json = (res: ServerResponse, status: number, body: unknown) => send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
  return startModalFake<FakeOffMode>((mode, _req, res, u) => {
    if (mode === 'garbage') return send(res, 200, 'text/html', '<html><body>Page temporarily unavailable</body></html>');
    if (mode === 'busy') return send(res, 503, 'text/html', '<html><body>Service Temporarily Unavailable</body></html>');
    const m = /^\/api\/v[23]\/product\/(\d+)\.json$/.exec(u.pathname);
    if (!m) return send(res, 404, 'text/plain', 'not found');
    const code = m[1]!;
    const p = products.find((x) => x.code === code);
    if (mode === 'v2') {
      if (!p) return json(res, 404, { code, status: 0, status_verbose: 'product not found' });
      return json(res, 200, { code, status: 1, status_verbose: 'product found', product: { ...p, _id: code } });
    }
    if (!p) return json(res, 404, { code, status: 'failure', result: { id: 'product_not_found', name: 'Product not found', lc_name: 'Product not found' }, errors: [{ message: { id: 'product_not_found' }, field: { id: 'code', value: code }, impact: { id: 'failure' } }], warnings: [] });
    return json(res, 200, { code, status: 'success', result: { id: 'product_found', name: 'Product found', lc_name: 'Product found' }, warnings: [], errors: [], product: p });
  });
}
