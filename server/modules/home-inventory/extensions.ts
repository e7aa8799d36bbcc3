import type { AvailabilityCheck, ToolDefinition } from '../tools/schema.js';

export const inventoryTools: ToolDefinition[] = [
  {
    id: 'inventory',
    name: 'Home inventory',
    description: 'Every device in the house in one place: photograph a label and Hearth fills in the details, finds the manual, keeps warranties and service history.',
    offline: false,
    examples: ['When does the dishwasher warranty run out?', 'Add the new washing machine from a photo of its label'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    // the web lookup searches the configured search engine and fetches manuals and support pages
    dataSources: [{ type: 'web', domain: 'the household’s own search server (its address is set by an admin), and the maker sites it finds', purpose: 'Find manuals, support pages and product photos' }],
    category: 'Household',
    icon: '🏠',
  },
  {
    id: 'home_inventory',
    name: 'Inventory search',
    description: 'Lets chat answer from the household inventory: devices, warranties, service history and their manuals, with links to each device.',
    offline: true,
    examples: ['How do I descale the coffee machine?', 'Which devices are still under warranty?'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSources: [],
    category: 'Household',
    icon: '🧰',
  },
];

/** The inventory itself needs nothing else; its chat tool needs chat. */
export function inventoryToolChecks(deps: { chatReadiness: AvailabilityCheck }): Record<string, AvailabilityCheck> {
  return { home_inventory: () => deps.chatReadiness() };
}
