import { unavailable, type AvailabilityCheck, type ToolDefinition } from '../tools/schema.js';

export const imageTools: ToolDefinition[] = [
  {
    id: 'image_gen',
    name: 'Picture maker',
    description: 'Lets chat make a picture on the household\'s own image engine when you ask it to draw something; the picture is yours alone.',
    offline: true,
    examples: ['Draw a dragon reading a book, as a watercolour', 'Make a picture of our street in the snow'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSources: [],
    category: 'Creative',
    icon: '🎨',
  },
];

/** The chat tool needs chat and an image engine that is set up (a stopped one is started by the tool and says so). */
export function imageToolChecks(deps: { chatReadiness: AvailabilityCheck; engineConfigured: () => Promise<boolean> }): Record<string, AvailabilityCheck> {
  return {
    image_gen: async () =>
      (await deps.engineConfigured()) ? deps.chatReadiness() : unavailable('The image engine is not set up on this computer yet.', 'An admin chooses its folder on the Image engine page.'),
  };
}
