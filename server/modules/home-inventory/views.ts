// Records (store.ts) to what the web app receives (schema.ts): urls instead of file paths, the
// warranty's state on today's date, and what this caller may do. No file path, manual text or
// nudge bookkeeping ever leaves through here.
import { isAdmin, isOwner, type UserActor } from '../../actor.js';
import { daysBetween, warrantyStatus } from './dates.js';
import { DEFAULT_WARRANTY_DAYS, type Device, type DeviceFile, type DeviceLink, type DeviceSummary, type ServiceEntry } from './schema.js';
import type { DeviceRecord, FileRecord, LinkRecord, ServiceRecord } from './store.js';

const enc = encodeURIComponent;
export const deviceUrl = (id: string) => `/api/home/devices/${enc(id)}`;
export const devicePageUrl = (id: string) => `/inventory/${enc(id)}`;

/** Whoever added the device, or an admin, may delete it. */
export const canDelete = (actor: UserActor, d: Pick<DeviceRecord, 'createdBy'>): boolean => isAdmin(actor) || isOwner(actor, d.createdBy);

export function summaryView(actor: UserActor, d: DeviceRecord, today: string): DeviceSummary {
  return {
    id: d.id,
    name: d.name,
    brand: d.brand,
    model: d.model,
    serialNumber: d.serialNumber,
    category: d.category,
    location: d.location,
    owner: d.owner,
    purchaseDate: d.purchaseDate,
    warrantyExpires: d.warrantyExpires,
    warrantyStatus: warrantyStatus(d.warrantyExpires, today, DEFAULT_WARRANTY_DAYS),
    photoUrl: d.mainPhotoId ? `${deviceUrl(d.id)}/photo?thumb=1` : null,
    lookupStatus: d.lookupStatus,
    hasManual: d.manualPath !== null,
    canDelete: canDelete(actor, d),
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

export function fileView(f: FileRecord): DeviceFile {
  const url = `${deviceUrl(f.deviceId)}/files/${enc(f.id)}`;
  return {
    id: f.id,
    deviceId: f.deviceId,
    label: f.label,
    fileType: f.fileType,
    contentType: f.contentType,
    bytes: f.bytes,
    source: f.source,
    comment: f.comment,
    url,
    thumbUrl: f.fileType === 'image' && f.thumbPath ? `${url}?thumb=1` : null,
    createdAt: f.createdAt,
  };
}

export const linkView = (l: LinkRecord): DeviceLink => ({ id: l.id, deviceId: l.deviceId, category: l.category, label: l.label, url: l.url, source: l.source, createdAt: l.createdAt });

export const serviceView = (s: ServiceRecord): ServiceEntry => ({
  id: s.id,
  deviceId: s.deviceId,
  date: s.date,
  type: s.type,
  description: s.description,
  technician: s.technician,
  cost: s.cost,
  createdAt: s.createdAt,
});

export function deviceView(
  actor: UserActor,
  d: DeviceRecord,
  today: string,
  extra: { files: FileRecord[]; links: LinkRecord[]; service: ServiceRecord[]; createdBy: { id: string; name: string } | null },
): Device {
  return {
    ...summaryView(actor, d, today),
    rawLabelText: d.rawLabelText,
    specs: d.specs,
    manufacturedDate: d.manufacturedDate,
    countryOfOrigin: d.countryOfOrigin,
    purchasePrice: d.purchasePrice,
    purchaseStore: d.purchaseStore,
    warrantyNotes: d.warrantyNotes,
    supportUrl: d.supportUrl,
    supportPhone: d.supportPhone,
    manualUrl: d.manualUrl,
    manualTextChars: d.manualText?.length ?? 0,
    manualFetchedAt: d.manualFetchedAt,
    mainPhotoId: d.mainPhotoId,
    lookupError: d.lookupError,
    lookupQueuedAt: d.lookupQueuedAt,
    notes: d.notes,
    createdBy: extra.createdBy,
    files: extra.files.map(fileView),
    links: extra.links.map(linkView),
    serviceLog: extra.service.map(serviceView),
  };
}

/** Days from today to the warranty's end (negative once it has passed). */
export const daysLeft = (expires: string, today: string): number => daysBetween(today, expires);
