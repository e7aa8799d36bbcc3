import { unavailable, type AvailabilityCheck, type ToolDefinition } from '../tools/schema.js';
import { REMEMBER_TOOL_ID } from './public.js';

export const memoryTools: ToolDefinition[] = [
  {
    id: REMEMBER_TOOL_ID,
    name: 'Chat memory',
    description: 'Lets chat keep short facts a member asks it to remember, while the household has chat memory on. Each member sees and removes their own under Profile.',
    offline: true,
    examples: ['Remember that Sam is allergic to peanuts', 'Keep in mind that we are vegetarian'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSources: [],
    category: 'Household',
    icon: '🧠',
  },
];

/** The tool needs memory switched on for the household, and chat. */
export function memoryToolChecks(deps: { chatReadiness: AvailabilityCheck; enabled: () => Promise<boolean> }): Record<string, AvailabilityCheck> {
  return {
    [REMEMBER_TOOL_ID]: async () => ((await deps.enabled()) ? deps.chatReadiness() : unavailable('Chat memory is off in this household.', 'An admin switches it on on the Your memories page, under Profile.')),
  };
}
