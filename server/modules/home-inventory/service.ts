// The household's devices: every signed-in member sees and edits every device (DESIGN.md §4: the
// inventory is the household's); whoever added one, or an admin, may delete it. Saving a device
// (or changing its brand or model) hands it to the web lookup, which decides whether it runs.
import { randomUUID } from 'node:crypto';
import type { UserActor } from '../../actor.js';
import { ForbiddenError, NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { AuthService } from '../auth/service.js';
import { todayOf } from './dates.js';
import type { InventoryFiles } from './files.js';
import type { DeviceLookup } from './parts.js';
import {
  DeviceCategory,
  type CreateDeviceBody,
  type Device,
  type DeviceLink,
  type DeviceSummary,
  type DevicesQuery,
  type DevicesResponse,
  type LinkCategory,
  type PatchDeviceBody,
  type ServiceEntry,
  type ServiceType,
} from './schema.js';
import type { DevicePatch, DeviceRecord, HomeInventoryStore } from './store.js';
import { canDelete, deviceView, linkView, serviceView, summaryView } from './views.js';

export interface HomeDevicesDeps {
  store: HomeInventoryStore;
  files: InventoryFiles;
  auth: Pick<AuthService, 'getUser'>;
  clock: Clock;
  logger: Logger;
  lookup: DeviceLookup;
}

export const deviceNotFound = () => new NotFoundError('That device is not in the inventory. It may have been deleted.');

/** A new device record with every column, from the fields a member (or an import) gave. */
export function newDeviceRecord(id: string, body: CreateDeviceBody, createdBy: string | null, now: string): DeviceRecord {
  return {
    id,
    name: body.name,
    brand: body.brand ?? null,
    model: body.model ?? null,
    serialNumber: body.serialNumber ?? null,
    category: body.category ?? 'other',
    location: body.location ?? null,
    owner: body.owner ?? null,
    rawLabelText: body.rawLabelText ?? null,
    specs: body.specs ?? {},
    manufacturedDate: body.manufacturedDate ?? null,
    countryOfOrigin: body.countryOfOrigin ?? null,
    purchaseDate: body.purchaseDate ?? null,
    purchasePrice: body.purchasePrice ?? null,
    purchaseStore: body.purchaseStore ?? null,
    warrantyExpires: body.warrantyExpires ?? null,
    warrantyNotes: body.warrantyNotes ?? null,
    supportUrl: body.supportUrl ?? null,
    supportPhone: body.supportPhone ?? null,
    manualUrl: null,
    manualPath: null,
    manualText: null,
    manualFetchedAt: null,
    photoPath: null,
    mainPhotoId: null,
    lookupStatus: 'skipped',
    lookupQueuedAt: null,
    lookupError: null,
    notes: body.notes ?? null,
    warrantyNudged30For: null,
    warrantyNudged7For: null,
    createdBy,
    createdAt: now,
    updatedAt: now,
  };
}

export class HomeDevicesService {
  constructor(private readonly deps: HomeDevicesDeps) {}

  private today(): string {
    return todayOf(this.deps.clock);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** The device or 404 (every member may see every device). */
  async record(id: string): Promise<DeviceRecord> {
    const d = await this.deps.store.getDevice(id);
    if (!d) throw deviceNotFound();
    return d;
  }

  /** One page of devices in name order (DevicesQuery's limit and offset), with the filter's total and every category's count. */
  async list(actor: UserActor, query: DevicesQuery): Promise<DevicesResponse> {
    const filter = { q: query.q, category: query.category };
    const [rows, total, counts] = await Promise.all([
      this.deps.store.listDevices({ ...filter, limit: query.limit, offset: query.offset }),
      this.deps.store.countDevices(filter),
      this.deps.store.countByCategory(),
    ]);
    const today = this.today();
    const categories = Object.fromEntries(DeviceCategory.options.map((c) => [c, counts[c] ?? 0])) as Record<DeviceCategory, number>;
    const next = query.offset + rows.length;
    return { devices: rows.map((d) => summaryView(actor, d, today)), categories, total, nextOffset: next < total ? next : null };
  }

  async get(actor: UserActor, id: string): Promise<Device> {
    const d = await this.record(id);
    const [files, links, service, creator] = await Promise.all([
      this.deps.store.listFiles(id),
      this.deps.store.listLinks(id),
      this.deps.store.listService(id),
      d.createdBy ? this.deps.auth.getUser(d.createdBy) : Promise.resolve(null),
    ]);
    return deviceView(actor, d, this.today(), { files, links, service, createdBy: creator ? { id: creator.id, name: creator.name } : null });
  }

  /** The list's view of one device (the lookup route answers with it). */
  async getSummary(actor: UserActor, id: string): Promise<DeviceSummary> {
    return summaryView(actor, await this.record(id), this.today());
  }

  async create(actor: UserActor, body: CreateDeviceBody): Promise<Device> {
    const id = randomUUID();
    await this.deps.store.insertDevice(newDeviceRecord(id, body, actor.id, this.now()));
    await this.startLookup(actor, id);
    return this.get(actor, id);
  }

  async patch(actor: UserActor, id: string, body: PatchDeviceBody): Promise<Device> {
    const before = await this.record(id);
    const patch: DevicePatch = { ...body, updatedAt: this.now() };
    await this.deps.store.updateDevice(id, patch);
    const changed = (body.brand !== undefined && body.brand !== before.brand) || (body.model !== undefined && body.model !== before.model);
    if (changed) await this.startLookup(actor, id);
    return this.get(actor, id);
  }

  async delete(actor: UserActor, id: string): Promise<void> {
    const d = await this.record(id);
    if (!canDelete(actor, d)) throw new ForbiddenError('Only the person who added this device, or an admin, can delete it. You can still edit it.');
    await this.deps.store.deleteDevice(id);
    await this.deps.files.removeDevice(id);
  }

  /** The lookup decides pending or skipped; a failure to start it never fails the save. */
  private async startLookup(actor: UserActor, id: string): Promise<void> {
    try {
      await this.deps.lookup.start(actor, id);
    } catch (err) {
      this.deps.logger.warn({ err, deviceId: id }, 'the web lookup could not start');
    }
  }

  private async touch(id: string): Promise<void> {
    await this.deps.store.updateDevice(id, { updatedAt: this.now() });
  }

  // ---- links ---------------------------------------------------------------------------------

  async links(_actor: UserActor, id: string): Promise<DeviceLink[]> {
    await this.record(id);
    return (await this.deps.store.listLinks(id)).map(linkView);
  }

  async addLink(_actor: UserActor, id: string, body: { category: LinkCategory; label: string; url: string }): Promise<DeviceLink> {
    await this.record(id);
    const existing = (await this.deps.store.listLinks(id)).find((l) => l.url === body.url);
    if (existing) return linkView(existing);
    const link = { id: randomUUID(), deviceId: id, category: body.category, label: body.label, url: body.url, source: 'user' as const, createdAt: this.now() };
    await this.deps.store.insertLink(link);
    await this.touch(id);
    return linkView(link);
  }

  async deleteLink(_actor: UserActor, id: string, linkId: string): Promise<void> {
    await this.record(id);
    if (!(await this.deps.store.deleteLink(id, linkId))) throw new NotFoundError('That link is not on this device any more.');
    await this.touch(id);
  }

  // ---- service log ---------------------------------------------------------------------------

  async serviceLog(_actor: UserActor, id: string): Promise<ServiceEntry[]> {
    await this.record(id);
    return (await this.deps.store.listService(id)).map(serviceView);
  }

  async addService(
    actor: UserActor,
    id: string,
    body: { date: string; type: ServiceType; description: string; technician?: string | null; cost?: number | null },
  ): Promise<ServiceEntry> {
    await this.record(id);
    const entry = {
      id: randomUUID(),
      deviceId: id,
      date: body.date,
      type: body.type,
      description: body.description,
      technician: body.technician ?? null,
      cost: body.cost ?? null,
      createdBy: actor.id,
      createdAt: this.now(),
    };
    await this.deps.store.insertService(entry);
    await this.touch(id);
    return serviceView(entry);
  }

  async patchService(
    _actor: UserActor,
    id: string,
    entryId: string,
    body: Partial<{ date: string; type: ServiceType; description: string; technician: string | null; cost: number | null }>,
  ): Promise<ServiceEntry> {
    await this.record(id);
    if (!(await this.deps.store.updateService(id, entryId, body))) throw serviceNotFound();
    await this.touch(id);
    return serviceView((await this.deps.store.getService(id, entryId))!);
  }

  async deleteService(_actor: UserActor, id: string, entryId: string): Promise<void> {
    await this.record(id);
    if (!(await this.deps.store.deleteService(id, entryId))) throw serviceNotFound();
    await this.touch(id);
  }

  /** Devices matching the words of q, for unified search (every member sees every device). */
  async find(actor: UserActor, q: string, limit: number): Promise<DeviceSummary[]> {
    const today = this.today();
    return (await this.deps.store.listDevices({ q, limit })).map((d) => summaryView(actor, d, today));
  }
}

const serviceNotFound = () => new NotFoundError('That service entry is not on this device any more.');
