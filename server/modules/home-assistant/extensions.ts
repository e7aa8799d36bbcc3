// Smart home in the app store: the chat tool `home_control` (an Extension of the same id as the tool
// in chat-tool.ts), available while Home Assistant is connected and chat can answer.
import type { AvailabilityCheck, ToolDefinition } from '../tools/schema.js';
import { unavailable } from '../tools/schema.js';
import type { ConnectionService } from './connection-service.js';

export const homeAssistantTools: ToolDefinition[] = [
  {
    id: 'home_control',
    name: 'Smart home in chat',
    description: 'Lets chat read your lights, heating and sensors from Home Assistant and switch what you may use. Locks and alarms are only offered, never operated from chat.',
    offline: true,
    examples: ['Is the kitchen light on?', 'Turn the living room lamp off'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSources: [{ type: 'api', domain: 'the household’s Home Assistant', purpose: 'Device states and the actions a member asks for' }],
    category: 'Home',
    icon: '🏠',
  },
];

export function homeAssistantToolChecks(deps: { connection: Pick<ConnectionService, 'status'>; chatReadiness: AvailabilityCheck }): Record<string, AvailabilityCheck> {
  return {
    home_control: () => (deps.connection.status() === 'connected' ? deps.chatReadiness() : Promise.resolve(unavailable('Home Assistant is not connected.', 'An admin connects it on the Smart home admin page.'))),
  };
}
