// The shopping module's pure parts: the aisle guess from the built-in dictionary (phrases before
// words, the last word first, plurals, amounts ignored, product categories before the name), the
// outbound read limiter of the barcode lookup, the Open Food Facts answer reader (v3, v2, not
// found, garbage), and the web app's offline tick queue (the last tick of an item wins, waiting
// ticks laid over a fresh answer).
import { describe, expect, it } from 'vitest';
import { ProductDbError, readProductAnswer } from '../../server/adapters/product-db/open-food-facts.js';
import { ReadLimiter } from '../../server/modules/lookup/barcode-service.js';
import { guessAisle, guessAisleOfProduct, wordsOf } from '../../server/modules/shopping/aisles.js';
import { enqueue, withPending } from '../../renderer/src/features/shopping/offline-queue.js';

describe('aisle guesses', () => {
  it.each([
    ['Milk', 'dairy'],
    ['2 x 500g Eggs', 'dairy'],
    ['strawberry yoghurt', 'dairy'],
    ['Orange juice', 'drinks'],
    ['oranges', 'produce'],
    ['Cherries', 'produce'],
    ['Potatoes', 'produce'],
    ['toilet paper', 'household'],
    ['Ice cream', 'frozen'],
    ['tuna steak', 'fish'],
    ['tuna', 'pantry'],
    ['Dog food', 'pets'],
    ['Brot', 'bakery'],
    ['Frobnicator', 'other'],
    ['', 'other'],
  ])('%s is %s', (name, aisle) => expect(guessAisle(name)).toBe(aisle));

  it('reads words without amounts', () => expect(wordsOf("2 x 500g Ben & Jerry's ice-cream")).toEqual(['ben', 'jerry', 's', 'ice', 'cream']));

  it('takes a product’s most specific category first, then its name', () => {
    expect(guessAisleOfProduct('Nutella', ['breakfasts', 'spreads', 'sweet spreads'])).toBe('pantry');
    expect(guessAisleOfProduct('Vollmilch', ['dairies', 'milks'])).toBe('dairy');
    expect(guessAisleOfProduct('Bananas', ['unknowable things'])).toBe('produce');
  });
});

describe('the barcode lookup’s read limiter', () => {
  it('allows 15 reads in a sliding minute and says how long to wait', () => {
    let now = 0;
    const limiter = new ReadLimiter(15, () => now);
    for (let i = 0; i < 15; i++) {
      expect(limiter.take()).toEqual({ ok: true });
      now += 1000;
    }
    expect(limiter.take()).toEqual({ ok: false, waitSeconds: 45 });
    now = 60_000;
    expect(limiter.take()).toEqual({ ok: true });
    expect(limiter.take()).toEqual({ ok: false, waitSeconds: 1 });
  });
});

describe('reading an Open Food Facts answer', () => {
  it('reads v3 and v2, and "not found" in either', () => {
    const product = { product_name: '  ', product_name_en: 'Oat drink', brands: 'Oatly, Oatly AB', categories_tags: ['en:beverages', 'fr:boissons', 'en:plant-based-milks'], image_front_url: 'javascript:alert(1)' };
    const v3 = readProductAnswer('7394376616228', { code: '7394376616228', status: 'success_with_warnings', product });
    expect(v3).toEqual({ code: '7394376616228', name: 'Oat drink', brand: 'Oatly', quantity: null, imageUrl: null, categories: ['beverages', 'plant based milks'] });
    expect(readProductAnswer('7394376616228', { code: '7394376616228', status: 1, status_verbose: 'product found', product })).toEqual(v3);
    expect(readProductAnswer('1', { status: 'failure', result: { id: 'product_not_found' } })).toBeNull();
    expect(readProductAnswer('1', { status: 0, status_verbose: 'product not found' })).toBeNull();
  });

  it('calls anything else a bad answer', () => {
    for (const raw of ['<html>', null, { product: {} }, { status: 'success', product: 'x' }]) expect(() => readProductAnswer('1', raw)).toThrow(ProductDbError);
  });
});

describe('the offline tick queue', () => {
  it('keeps the last tick of each item, in the order they were made', () => {
    let q = enqueue([], { listId: 'l', itemId: 'a', checked: true });
    q = enqueue(q, { listId: 'l', itemId: 'b', checked: true });
    q = enqueue(q, { listId: 'l', itemId: 'a', checked: false });
    expect(q).toEqual([
      { listId: 'l', itemId: 'b', checked: true },
      { listId: 'l', itemId: 'a', checked: false },
    ]);
  });

  it('lays waiting ticks over a fresh answer', () => {
    const items = [
      { id: 'a', checked: true, name: 'Milk' },
      { id: 'b', checked: false, name: 'Eggs' },
    ];
    expect(withPending(items, [{ listId: 'l', itemId: 'a', checked: false }])).toEqual([
      { id: 'a', checked: false, name: 'Milk' },
      { id: 'b', checked: false, name: 'Eggs' },
    ]);
    expect(withPending(items, [])).toEqual(items);
  });
});
