// The shopping module (issue 38): /api/shopping, the household's shared shopping lists with a live
// stream per list, aisle guesses, name suggestions from what the household buys, items added by a
// scanned barcode (named through the lookup module), and the `shopping_list` chat tool.
import { defineModule, type Platform } from '../module.js';
import { createShoppingListTool } from './chat-tool.js';
import { shoppingToolChecks, shoppingTools } from './extensions.js';
import type { ShoppingPorts } from './ports.js';
import { createShoppingRoutes } from './routes.js';
import { ShoppingService } from './service.js';
import { ShoppingStore } from './store.js';

export function createShoppingModule(p: Platform, ports: ShoppingPorts) {
  const shopping = new ShoppingService({ store: new ShoppingStore(p.db), clock: p.clock, barcodes: ports.barcodes });
  return defineModule({
    name: 'shopping',
    routes: [{ prefix: '/shopping', routes: createShoppingRoutes(shopping, p.sse) }],
    services: { shopping },
    chatTools: [createShoppingListTool({ shopping })],
    extensions: { definitions: shoppingTools, checks: shoppingToolChecks({ chatReadiness: ports.chatReadiness }) },
  });
}
