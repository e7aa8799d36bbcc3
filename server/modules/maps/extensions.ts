// Maps in the app store: the Maps App (its page, over the regions an admin installs) with every
// host it contacts, and the chat tool `maps` (an Extension of the same id as the tool in chat-tool.ts).
import type { AvailabilityCheck, ToolDefinition } from '../tools/schema.js';
import { AVAILABLE, unavailable } from '../tools/schema.js';
import type { MapTilesService } from './tiles-service.js';
import { SYSTEM_ACTOR } from '../../actor.js';

export const mapTools: ToolDefinition[] = [
  {
    id: 'offline-maps',
    name: 'Maps',
    description: 'Maps of the regions the household installs, with place search and directions that work with the internet cut.',
    offline: false,
    examples: ['Find the pharmacy on the map', 'Directions to school on foot'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSources: [{ type: 'cdn', domain: 'the download host the map catalog names', purpose: 'A region’s map and roads, once, when an admin installs it' }],
    category: 'Everyday',
    icon: '🗺️',
  },
  {
    id: 'maps',
    name: 'Maps in chat',
    description: 'Lets chat find places on the household’s maps and say how far and how long a trip is.',
    offline: true,
    examples: ['How long does it take to walk to the school?'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSources: [],
    category: 'Everyday',
    icon: '🧭',
  },
];

/** The chat tool needs chat and an installed region. */
export function mapToolChecks(deps: { tiles: Pick<MapTilesService, 'regions'>; chatReadiness: AvailabilityCheck }): Record<string, AvailabilityCheck> {
  return {
    'offline-maps': () => Promise.resolve(AVAILABLE),
    maps: async () => ((await deps.tiles.regions(SYSTEM_ACTOR)).length > 0 ? deps.chatReadiness() : unavailable('No map region is installed yet.', 'An admin adds one in Admin, Maps.')),
  };
}
