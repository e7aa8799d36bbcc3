// The app store's rules: tools are opt-out (no row = enabled), toggling the "__enabled" row is the
// whole install/uninstall, and any member can ask the admins to install one.
import { assertAdmin, type Actor, type UserActor } from '../../actor.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { NotificationsService } from '../notifications/service.js';
import type { ToolRegistry } from './registry.js';
import { AVAILABLE, type AvailabilityCheck, type InstallRequestBody, type Tool } from './schema.js';
import type { ToolSettingsStore } from './store.js';

export interface ToolsDeps {
  registry: ToolRegistry;
  store: ToolSettingsStore;
  notifications: NotificationsService;
  /** What each tool needs to work, by tool id, asked of the modules that own it; a tool without one always works. */
  checks?: Readonly<Record<string, AvailabilityCheck>>;
}

export class ToolsService {
  constructor(private readonly deps: ToolsDeps) {}

  async list(): Promise<Tool[]> {
    const stored = await this.deps.store.enabledMap();
    const defs = this.deps.registry.list();
    const availability = await Promise.all(defs.map((d) => this.deps.checks?.[d.id]?.() ?? AVAILABLE));
    return defs.map((d, i) => ({
      id: d.id,
      name: d.name,
      description: d.description,
      offline: d.offline,
      examples: d.examples,
      configSchema: d.configSchema,
      dataSources: d.dataSources,
      category: d.category,
      icon: d.icon,
      route: this.deps.registry.routeOf(d.id),
      enabled: stored.get(d.id) ?? true,
      ...availability[i]!,
    }));
  }

  async isEnabled(toolId: string): Promise<boolean> {
    if (!this.deps.registry.get(toolId)) return false;
    return (await this.deps.store.enabledMap()).get(toolId) ?? true;
  }

  async setEnabled(actor: Actor, toolId: string, enabled: boolean): Promise<Tool> {
    assertAdmin(actor);
    if (!this.deps.registry.get(toolId)) throw new NotFoundError(`There is no tool called ${toolId}.`);
    await this.deps.store.setEnabled(toolId, enabled);
    return (await this.list()).find((t) => t.id === toolId)!;
  }

  async requestInstall(actor: UserActor, body: InstallRequestBody): Promise<{ notificationId: string; duplicate: boolean }> {
    if (!this.deps.registry.get(body.toolId)) throw new NotFoundError(`There is no tool called ${body.toolId}.`);
    if (await this.isEnabled(body.toolId)) throw new ConflictError('already_installed', `${body.toolName} is already installed.`);
    // One open request per member and tool: asking again does not pile up notifications.
    const open = await this.deps.notifications.findUnreadInstallRequest(actor.id, body.toolId);
    if (open) return { notificationId: open, duplicate: true };
    const id = await this.deps.notifications.notify({
      userId: null,
      type: 'install_request',
      payload: { requestedBy: actor.id, requestedByName: actor.name, toolId: body.toolId, toolName: body.toolName, message: body.message ?? '' },
    });
    return { notificationId: id, duplicate: false };
  }
}
