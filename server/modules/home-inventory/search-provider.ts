// The inventory in unified search: devices by name, brand, model, category or location (every
// member sees every device), linking to the device's page.
import type { SearchProvider } from '../search/public.js';
import type { HomeDevicesService } from './service.js';
import { devicePageUrl } from './views.js';

export function createDeviceSearchProvider(deps: { devices: Pick<HomeDevicesService, 'find'>; isEnabled: () => Promise<boolean> }): SearchProvider {
  return {
    type: 'device',
    label: 'Inventory',
    async search(q, ctx) {
      if (!(await deps.isEnabled())) return [];
      const devices = await deps.devices.find(ctx.actor, q, ctx.limit);
      return devices.map((d) => ({
        type: 'device',
        id: d.id,
        title: d.name,
        snippet: [[d.brand, d.model].filter(Boolean).join(' '), d.location].filter(Boolean).join(' · ') || null,
        url: devicePageUrl(d.id),
      }));
    },
  };
}
