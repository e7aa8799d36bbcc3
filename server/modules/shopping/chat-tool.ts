// shopping_list, the chat tool over the household's shared shopping lists: "add milk and eggs",
// "what's on the shopping list?", "tick the bread". It acts as the member who asked (their name is
// on what they add) through ShoppingService, with the same rules as the Shopping page; the list is
// the one named, else the first list (a list called "Shopping" is made when there is none).
// Listed in this module's manifest, its Extension in extensions.ts.
import { z } from 'zod';
import type { UserActor } from '../../actor.js';
import type { ChatTool, ChatToolResult } from '../chat/public.js';
import { SHOPPING_TOOL_ID } from './public.js';
import type { ShoppingList } from './schema.js';
import type { ShoppingService } from './service.js';

export const SHOPPING_TOOL_TIMEOUT_MS = 3_000;

export const ShoppingListArgs = z.object({
  action: z.enum(['add', 'list', 'check']).describe('add: put items on the list; list: read what is still to buy; check: tick items as bought.'),
  items: z.array(z.string().trim().min(1).max(120)).max(30).default([]).describe('For add and check: the items, one name each, e.g. ["milk", "eggs"]. A quantity may lead: "2 lemons".'),
  list: z.string().trim().max(80).optional().describe('The list’s name when the person names one; otherwise the first list.'),
});

type Service = Pick<ShoppingService, 'lists' | 'createList' | 'detail' | 'addItem' | 'updateItem'>;

async function pickList(shopping: Service, actor: UserActor, name: string | undefined, create: boolean): Promise<ShoppingList | null> {
  const lists = await shopping.lists(actor);
  if (name) {
    const hit = lists.find((l) => l.name.toLowerCase() === name.toLowerCase()) ?? lists.find((l) => l.name.toLowerCase().includes(name.toLowerCase()));
    if (hit) return hit;
  }
  if (lists[0]) return name ? null : lists[0];
  return create ? shopping.createList(actor, name ?? 'Shopping') : null;
}

/** "2 lemons" → {quantity: "2", name: "lemons"}. */
function split(text: string): { name: string; quantity: string | null } {
  const m = /^(\d+(?:[.,]\d+)?\s*(?:x|kg|g|l|ml|pcs)?)\s+(.+)$/i.exec(text);
  return m ? { quantity: m[1]!.trim(), name: m[2]!.trim() } : { quantity: null, name: text };
}

export function createShoppingListTool(deps: { shopping: Service }): ChatTool<typeof ShoppingListArgs> {
  const { shopping } = deps;
  return {
    id: SHOPPING_TOOL_ID,
    description:
      'Reads and changes the household’s shared shopping list: add items ("add milk and eggs"), list what is still to buy, or tick items as bought. Use it whenever the person asks about the shopping list or to put something on it.',
    args: ShoppingListArgs,
    timeoutMs: SHOPPING_TOOL_TIMEOUT_MS,
    async run({ action, items, list: listName }, { actor }): Promise<ChatToolResult> {
      const list = await pickList(shopping, actor, listName, action === 'add');
      if (!list) {
        const content = listName ? `There is no shopping list called "${listName}". Tell the person which lists there are, or offer to add to the first one.` : 'The household has no shopping list yet. Nothing is on it.';
        return { content, summary: listName ? `No shopping list called “${listName}”` : 'No shopping list yet', sources: [] };
      }
      if (action === 'add') {
        if (items.length === 0) return { content: 'Nothing was added: no item was named. Ask the person what to add.', summary: 'Nothing added', sources: [] };
        const added: string[] = [];
        for (const text of items) {
          const { name, quantity } = split(text);
          const item = await shopping.addItem(actor, list.id, { name, ...(quantity ? { quantity } : {}) });
          added.push(`${item.quantity ? `${item.quantity} ` : ''}${item.name} (${item.category.replace('_', ' ')})`);
        }
        return { content: `Added to "${list.name}": ${added.join(', ')}. Tell the person it is on the list.`, summary: `Added ${items.length} item${items.length === 1 ? '' : 's'} to ${list.name}`, sources: [] };
      }
      const { items: all } = await shopping.detail(actor, list.id);
      const open = all.filter((i) => !i.checked);
      if (action === 'list') {
        if (open.length === 0) return { content: `"${list.name}" has nothing left to buy.`, summary: `${list.name}: nothing left to buy`, sources: [] };
        const lines = open.map((i) => `- ${i.quantity ? `${i.quantity} ` : ''}${i.name} [${i.category.replace('_', ' ')}]${i.note ? ` (${i.note})` : ''}`);
        return { content: `Still to buy on "${list.name}" (${open.length}):\n${lines.join('\n')}`, summary: `${list.name}: ${open.length} item${open.length === 1 ? '' : 's'} to buy`, sources: [] };
      }
      const ticked: string[] = [];
      const missing: string[] = [];
      for (const text of items) {
        const want = split(text).name.toLowerCase();
        const hit = open.find((i) => i.name.toLowerCase() === want && !ticked.includes(i.name)) ?? open.find((i) => i.name.toLowerCase().includes(want) && !ticked.includes(i.name));
        if (!hit) {
          missing.push(text);
          continue;
        }
        await shopping.updateItem(actor, list.id, hit.id, { checked: true });
        ticked.push(hit.name);
      }
      const content = [ticked.length ? `Ticked on "${list.name}": ${ticked.join(', ')}.` : '', missing.length ? `Not on the list to buy: ${missing.join(', ')}.` : ''].filter(Boolean).join(' ');
      return { content: content || 'Nothing was ticked: no item was named.', summary: `Ticked ${ticked.length} item${ticked.length === 1 ? '' : 's'} on ${list.name}`, sources: [] };
    },
  };
}
