// Shopping (issue 38): requests and answers of /api/shopping, the household's shared lists.
import { z } from 'zod';
import { AISLES } from './aisle-words.js';

export { AISLES };
export const Aisle = z.enum(AISLES, { message: `The aisle is one of ${AISLES.join(', ')}.` });
export type Aisle = z.infer<typeof Aisle>;

export const MAX_LISTS = 50;
export const MAX_ITEMS = 500;

export const IdParams = z.object({ id: z.string().min(1).max(100) });
export const ItemParams = z.object({ id: z.string().min(1).max(100), itemId: z.string().min(1).max(100) });

const ListName = z.string().trim().min(1, 'Give the list a name.').max(80, 'A list name is at most 80 characters.');
export const CreateListBody = z.object({ name: ListName });
export const PatchListBody = z
  .object({ name: ListName.optional(), sortOrder: z.number().int().min(0).max(10_000).optional() })
  .strict()
  .refine((b) => b.name !== undefined || b.sortOrder !== undefined, 'Say what to change: name or sortOrder.');

const ItemName = z.string().trim().min(1, 'Type what to buy.').max(120, 'An item name is at most 120 characters.');
/** "2", "500 g", "a dozen": kept as written; a number is taken as its digits. */
const Quantity = z
  .union([z.string(), z.number().finite().nonnegative()])
  .transform((q) => String(q).trim())
  .pipe(z.string().max(40, 'A quantity is at most 40 characters.'));
const Note = z.string().trim().max(300, 'A note is at most 300 characters.');

/** An item by its name, or by a barcode the lookup names (then name and note come from the product). */
export const AddItemBody = z
  .object({
    name: ItemName.optional(),
    barcode: z
      .string()
      .trim()
      .regex(/^\d{8,14}$/, 'A barcode is 8 to 14 digits, as printed under the bars.')
      .optional(),
    quantity: Quantity.nullish(),
    note: Note.nullish(),
    category: Aisle.optional(),
  })
  .strict()
  .refine((b) => (b.name === undefined) !== (b.barcode === undefined), 'Send the item’s name, or a barcode (one of the two).');
export type AddItemBody = z.infer<typeof AddItemBody>;

export const PatchItemBody = z
  .object({ name: ItemName.optional(), quantity: Quantity.nullable().optional(), note: Note.nullable().optional(), category: Aisle.optional(), checked: z.boolean().optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'Say what to change: name, quantity, note, category or checked.');
export type PatchItemBody = z.infer<typeof PatchItemBody>;

/** `listId`: leave out what is still to buy on that list. */
export const SuggestionsQuery = z.object({ q: z.string().trim().max(120).default(''), listId: z.string().min(1).max(100).optional() });

export const ShoppingList = z.object({
  id: z.string(),
  name: z.string(),
  sortOrder: z.number(),
  /** Items still to buy, and all items. */
  openCount: z.number(),
  itemCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ShoppingList = z.infer<typeof ShoppingList>;

export const ShoppingItem = z.object({
  id: z.string(),
  listId: z.string(),
  name: z.string(),
  quantity: z.string().nullable(),
  note: z.string().nullable(),
  category: Aisle,
  checked: z.boolean(),
  checkedAt: z.string().nullable(),
  position: z.number(),
  /** Who put it on the list (their name stays when they leave the household). */
  addedBy: z.object({ id: z.string().nullable(), name: z.string() }),
  barcode: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ShoppingItem = z.infer<typeof ShoppingItem>;

export const ListsResponse = z.object({ lists: z.array(ShoppingList) });
export const ListResponse = z.object({ list: ShoppingList });
export const ListDetailResponse = z.object({ list: ShoppingList, items: z.array(ShoppingItem) });
export type ListDetail = z.infer<typeof ListDetailResponse>;
export const ItemResponse = z.object({ item: ShoppingItem });
export const ClearedResponse = z.object({ cleared: z.number() });

export const Suggestion = z.object({ name: z.string(), category: Aisle, times: z.number(), lastAt: z.string() });
export const SuggestionsResponse = z.object({ suggestions: z.array(Suggestion) });
export type Suggestion = z.infer<typeof Suggestion>;

/** The list's stream: its whole state at once and after every change; `deleted` when the list is gone (then the stream ends). */
export const ListStreamEvents = z.object({ state: ListDetailResponse, deleted: z.object({ id: z.string() }) });
