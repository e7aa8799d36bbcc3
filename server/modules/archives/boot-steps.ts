// The archives module's boot step: the installed archives are served (the archive server started).
import type { BootStepDefinition } from '../system/boot-service.js';
import type { ArchivesService } from './service.js';

export function bootSteps(deps: { archives: ArchivesService }): BootStepDefinition[] {
  const { archives } = deps;
  return [
    {
      key: 'library',
      label: 'Offline library',
      async run() {
        await archives.serve();
        const st = await archives.statusView();
        if (st.installedCount === 0) return { status: 'ok', detail: 'No archives installed yet.' };
        if (st.kiwixState === 'ready') return { status: 'ok', detail: `${st.installedCount} archive${st.installedCount === 1 ? '' : 's'} served.` };
        return { status: 'warn', detail: st.kiwixError ?? 'The archive server is not running.' };
      },
    },
  ];
}
