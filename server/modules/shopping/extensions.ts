import type { AvailabilityCheck, ToolDefinition } from '../tools/schema.js';
import { SHOPPING_TOOL_ID } from './public.js';

export const shoppingTools: ToolDefinition[] = [
  {
    id: SHOPPING_TOOL_ID,
    name: 'Shopping list in chat',
    description: 'Lets chat add to, read and tick the household’s shared shopping lists ("add milk and eggs").',
    offline: true,
    examples: ['Add milk and eggs to the shopping list', 'What is still on the shopping list?'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSources: [],
    category: 'Household',
    icon: '🛒',
  },
];

/** The chat tool needs chat. */
export function shoppingToolChecks(deps: { chatReadiness: AvailabilityCheck }): Record<string, AvailabilityCheck> {
  return { [SHOPPING_TOOL_ID]: () => deps.chatReadiness() };
}
