import type { AvailabilityCheck, ToolDefinition } from '../tools/schema.js';
import type { ArchivesService } from './service.js';

export const archiveTools: ToolDefinition[] = [
  {
    id: 'library',
    name: 'Library',
    description: 'Offline encyclopedias, medical references and book packs, readable with no internet.',
    offline: false,
    examples: ['Open Wikipedia', 'Look up a symptom in the medical encyclopedia'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSources: [{ type: 'cdn', domain: 'download.kiwix.org', purpose: 'Download the archives an admin installs' }],
    category: 'Reference',
    icon: '📚',
  },
  {
    id: 'archive_search',
    name: 'Archive search',
    description: 'Lets chat answer from the installed offline archives, with links to the articles.',
    offline: true,
    examples: ['What does the encyclopedia say about heat stroke?'],
    configSchema: {
      type: 'object',
      properties: { limit: { type: 'integer', minimum: 1, maximum: 20, default: 5 } },
      additionalProperties: false,
    },
    dataSources: [],
    category: 'Reference',
    icon: '🔎',
  },
];

/**
 * What the archive tools need: the Library an archive the running archive server serves; archive
 * search that too, and chat (the model runtime with the chosen chat model) to ask it.
 */
export function archiveToolChecks(deps: { archives: Pick<ArchivesService, 'readiness'>; chatReadiness: AvailabilityCheck }): Record<string, AvailabilityCheck> {
  return {
    library: () => deps.archives.readiness(),
    archive_search: async () => {
      const archives = await deps.archives.readiness();
      return archives.available ? deps.chatReadiness() : archives;
    },
  };
}
