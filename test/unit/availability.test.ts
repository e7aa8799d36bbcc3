// The archive tools' availability from the archive status, and archive search waiting on chat: the
// states an API test cannot reach without a running archive server.
import { describe, expect, it } from 'vitest';
import { archiveReadiness } from '../../server/modules/archives/service.js';
import { archiveToolChecks } from '../../server/modules/archives/extensions.js';
import type { ArchivesStatus } from '../../server/modules/archives/schema.js';
import { AVAILABLE, unavailable } from '../../server/modules/tools/schema.js';

const status = (s: Partial<ArchivesStatus>): ArchivesStatus => ({ kiwixInstalled: true, kiwixState: 'ready', kiwixError: null, installedCount: 1, ...s });

describe('archiveReadiness', () => {
  it('is ready with an archive and the archive server running', () => {
    expect(archiveReadiness(status({}))).toEqual(AVAILABLE);
  });

  it('says what is missing, first things first', () => {
    expect(archiveReadiness(status({ installedCount: 0, kiwixInstalled: false }))).toEqual(unavailable('No archive is installed yet.', 'Install an archive from Admin › Archives.'));
    expect(archiveReadiness(status({ kiwixInstalled: false }))).toMatchObject({ available: false, fix: 'Install it from Admin › Archives.' });
    expect(archiveReadiness(status({ kiwixState: 'starting' }))).toEqual(unavailable('The archive server is still starting.', 'Look again in a minute.'));
  });

  it('passes on why a failed archive server stopped, with where to look', () => {
    expect(archiveReadiness(status({ kiwixState: 'failed', kiwixError: 'The archive server stopped.' }))).toEqual(
      unavailable('The archive server stopped.', 'Open Admin › Archives to see what went wrong and start it again.'),
    );
    expect(archiveReadiness(status({ kiwixState: 'idle' }))).toMatchObject({ available: false, unavailableReason: 'The archive server is not running.' });
  });
});

describe('archiveToolChecks', () => {
  const chatDown = unavailable('The model runtime (Ollama) is not running on the Hearth computer.', 'Start Ollama on the Hearth computer.');

  it('archive search needs chat once the archives are ready; the Library does not', async () => {
    const checks = archiveToolChecks({ archives: { readiness: async () => AVAILABLE }, chatReadiness: async () => chatDown });
    expect(await checks.library!()).toEqual(AVAILABLE);
    expect(await checks.archive_search!()).toEqual(chatDown);
  });

  it('archive search reports the archives first and does not ask chat then', async () => {
    let asked = 0;
    const noArchive = unavailable('No archive is installed yet.', 'Install an archive from Admin › Archives.');
    const checks = archiveToolChecks({
      archives: { readiness: async () => noArchive },
      chatReadiness: async () => {
        asked += 1;
        return AVAILABLE;
      },
    });
    expect(await checks.archive_search!()).toEqual(noArchive);
    expect(asked).toBe(0);
  });

  it('is available when both are ready', async () => {
    const checks = archiveToolChecks({ archives: { readiness: async () => AVAILABLE }, chatReadiness: async () => AVAILABLE });
    expect(await checks.archive_search!()).toEqual(AVAILABLE);
  });
});
