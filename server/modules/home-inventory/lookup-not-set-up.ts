// Stand-ins for the web lookup and the manual extraction until those parts are wired in
// (lookup.ts / manual.ts replace them in the container at merge): every device is recorded as
// skipped with a sentence that says why, and an uploaded PDF stays a file without extracted text.
import type { Clock } from '../../platform/clock.js';
import type { DeviceLookup, ManualExtraction } from './ports.js';
import type { HomeInventoryStore } from './store.js';

export const LOOKUP_NOT_SET_UP = 'Web lookup is not set up on this Hearth.';

export class WebLookupNotSetUp implements DeviceLookup {
  constructor(private readonly deps: { store: HomeInventoryStore; clock: Clock }) {}

  async start(deviceId: string): Promise<'skipped'> {
    await this.deps.store.updateDevice(deviceId, { lookupStatus: 'skipped', lookupError: LOOKUP_NOT_SET_UP, lookupQueuedAt: null });
    return 'skipped';
  }
}

export const manualExtractionNotSetUp: ManualExtraction = {
  fromUploadedFile() {
    // nothing reads the PDF's text until manual.ts is wired in
  },
};
