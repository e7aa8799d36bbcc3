// Thin routes of the shopping module, /api/shopping: the household's lists, their items, the list's
// live stream and the name suggestions.
import { actorOf } from '../../http/auth.js';
import { defineRoutes, events, NO_CONTENT } from '../../http/routes.js';
import type { SseRegistry } from '../../http/sse.js';
import { parse } from '../../http/validate.js';
import {
  AddItemBody,
  ClearedResponse,
  CreateListBody,
  IdParams,
  ItemParams,
  ItemResponse,
  ListDetailResponse,
  ListResponse,
  ListsResponse,
  ListStreamEvents,
  PatchItemBody,
  PatchListBody,
  SuggestionsQuery,
  SuggestionsResponse,
} from './schema.js';
import type { ShoppingService } from './service.js';

export function createShoppingRoutes(shopping: ShoppingService, sse: SseRegistry) {
  return defineRoutes((r) => {
    r.get('/lists', { access: 'user', response: ListsResponse }, async (req) => ({ lists: await shopping.lists(actorOf(req)) }));
    r.post('/lists', { access: 'user', response: ListResponse }, async (req, res) => {
      const list = await shopping.createList(actorOf(req), parse(CreateListBody, req.body).name);
      res.status(201);
      return { list };
    });
    r.get('/lists/:id', { access: 'user', response: ListDetailResponse }, (req) => shopping.detail(actorOf(req), parse(IdParams, req.params).id));
    r.patch('/lists/:id', { access: 'user', response: ListResponse }, async (req) => ({
      list: await shopping.updateList(actorOf(req), parse(IdParams, req.params).id, parse(PatchListBody, req.body)),
    }));
    r.delete('/lists/:id', { access: 'user', response: NO_CONTENT }, async (req) => {
      await shopping.deleteList(actorOf(req), parse(IdParams, req.params).id);
    });

    r.get('/lists/:id/stream', { access: 'user', response: events(ListStreamEvents) }, async (req, res) => {
      const actor = actorOf(req);
      const { id } = parse(IdParams, req.params);
      await sse.run(req, res, (open) =>
        shopping.stream(actor, id, () => {
          const s = open();
          return { state: (detail) => s.send('state', detail), deleted: (listId) => s.send('deleted', { id: listId }), signal: s.signal };
        }),
      );
    });

    r.post('/lists/:id/items', { access: 'user', response: ItemResponse }, async (req, res) => {
      const { id } = parse(IdParams, req.params);
      const item = await shopping.addItem(actorOf(req), id, parse(AddItemBody, req.body));
      res.status(201);
      return { item };
    });
    r.patch('/lists/:id/items/:itemId', { access: 'user', response: ItemResponse }, async (req) => {
      const { id, itemId } = parse(ItemParams, req.params);
      return { item: await shopping.updateItem(actorOf(req), id, itemId, parse(PatchItemBody, req.body)) };
    });
    r.delete('/lists/:id/items/:itemId', { access: 'user', response: NO_CONTENT }, async (req) => {
      const { id, itemId } = parse(ItemParams, req.params);
      await shopping.deleteItem(actorOf(req), id, itemId);
    });
    r.post('/lists/:id/clear-checked', { access: 'user', response: ClearedResponse }, async (req) => ({ cleared: await shopping.clearChecked(actorOf(req), parse(IdParams, req.params).id) }));

    r.get('/suggestions', { access: 'user', response: SuggestionsResponse }, async (req) => {
      const q = parse(SuggestionsQuery, req.query);
      return { suggestions: await shopping.suggestions(actorOf(req), q.q, q.listId) };
    });
  });
}
