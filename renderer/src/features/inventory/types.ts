// The inventory's API types (from the server's schema, type-only) and the words the screens use for
// them: categories, warranty and lookup states, how sure the label reading was. Pure functions, so
// every screen says the same thing the same way.
import type {
  Device,
  DeviceCategory,
  DeviceFile,
  DeviceLink,
  DeviceSummary,
  IdentifiedFields,
  IdentifyResponse,
  LinkCategory,
  MaintenanceSuggestion,
  ServiceEntry,
  ServiceType,
  WarrantyStatus,
} from '../../../../server/modules/home-inventory/schema.js';

import type { CreateDeviceBody as CreateSchema, PatchDeviceBody as PatchSchema } from '../../../../server/modules/home-inventory/schema.js';
import type { z } from 'zod';
import { fmt } from '../../ui/locale.js';
export type { AskEvents } from '../../../../server/modules/home-inventory/schema.js';
/** What the web app sends (the schemas' input: optional fields may be left out, empty text clears). */
export type CreateDeviceBody = z.input<typeof CreateSchema>;
export type PatchDeviceBody = z.input<typeof PatchSchema>;
export type {
  Device,
  DeviceCategory,
  DeviceFile,
  DeviceLink,
  DeviceSummary,
  IdentifiedFields,
  IdentifyResponse,
  LinkCategory,
  MaintenanceSuggestion,
  ServiceEntry,
  ServiceType,
  WarrantyStatus,
};

export const API = '/api/home';
export const deviceApi = (id: string) => `${API}/devices/${encodeURIComponent(id)}`;
export const deviceHref = (id: string) => `/inventory/${encodeURIComponent(id)}`;
export const INVENTORY_HREF = '/inventory';
export const WARRANTIES_HREF = '/inventory/warranties';

// the server's enums, restated as values for selects and chips (the types keep them in step)
export const CATEGORIES: readonly DeviceCategory[] = ['appliance', 'electronics', 'vehicle', 'tool', 'furniture', 'other'];
export const CATEGORY_TEXT: Record<DeviceCategory, string> = {
  appliance: 'Appliances',
  electronics: 'Electronics',
  vehicle: 'Vehicles',
  tool: 'Tools',
  furniture: 'Furniture',
  other: 'Other',
};
/** One of a category, for a select ("Appliance"). */
export const CATEGORY_ONE: Record<DeviceCategory, string> = {
  appliance: 'Appliance',
  electronics: 'Electronics',
  vehicle: 'Vehicle',
  tool: 'Tool',
  furniture: 'Furniture',
  other: 'Something else',
};
export const SERVICE_TYPES: readonly ServiceType[] = ['maintenance', 'repair', 'inspection', 'upgrade', 'other'];
export const SERVICE_TEXT: Record<ServiceType, string> = {
  maintenance: 'Maintenance',
  repair: 'Repair',
  inspection: 'Inspection',
  upgrade: 'Upgrade',
  other: 'Other',
};
export const LINK_GROUPS: ReadonlyArray<{ category: LinkCategory; title: string }> = [
  { category: 'manual', title: 'Manuals' },
  { category: 'support', title: 'Support' },
  { category: 'video', title: 'Videos' },
  { category: 'download', title: 'Downloads' },
  { category: 'other', title: 'Other links' },
];

export const asCategory = (v: string | null): DeviceCategory | null => (v && (CATEGORIES as readonly string[]).includes(v) ? (v as DeviceCategory) : null);

/** Today as YYYY-MM-DD on this device. */
export function todayIso(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

/** Whole days from `from` to `to` (both YYYY-MM-DD); negative when `to` is before. */
export function daysBetween(from: string, to: string): number {
  const a = Date.UTC(+from.slice(0, 4), +from.slice(5, 7) - 1, +from.slice(8, 10));
  const b = Date.UTC(+to.slice(0, 4), +to.slice(5, 7) - 1, +to.slice(8, 10));
  return Math.round((b - a) / 86_400_000);
}

/** "31 March 2026" (a date-only value, shown as written, never shifted by a time zone). */
export function formatDay(iso: string | null | undefined): string {
  if (!iso || !/^\d{4}-\d{2}-\d{2}/.test(iso)) return iso ?? '';
  const d = new Date(Date.UTC(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10)));
  return fmt().day(d.toISOString().slice(0, 10));
}

/** How many days are left, in words: "ends today", "ends tomorrow", "ends in 12 days". */
export function endsIn(daysLeft: number): string {
  if (daysLeft <= 0) return 'ends today';
  if (daysLeft === 1) return 'ends tomorrow';
  return `ends in ${daysLeft} days`;
}

export interface WarrantyWords {
  /** Short, for a card's badge; null when there is nothing to say on a card. */
  badge: string | null;
  /** A sentence for the device page. */
  sentence: string;
  tone: 'ok' | 'warn' | 'error' | 'info';
}

/** The warranty in words, from its end date and the server's status (expiring uses the list's window). */
export function warrantyWords(d: Pick<DeviceSummary, 'warrantyExpires' | 'warrantyStatus'>, today = todayIso()): WarrantyWords {
  if (!d.warrantyExpires || d.warrantyStatus === 'none') return { badge: null, sentence: 'No warranty end date is noted.', tone: 'info' };
  const left = daysBetween(today, d.warrantyExpires);
  const end = formatDay(d.warrantyExpires);
  if (left < 0) return { badge: 'Warranty ended', sentence: `The warranty ended on ${end}.`, tone: 'error' };
  if (d.warrantyStatus === 'expiring' || left <= 60) {
    const badge = `Warranty ${endsIn(left)}`;
    return { badge, sentence: `${badge}, on ${end}.`, tone: 'warn' };
  }
  return { badge: null, sentence: `Under warranty until ${end}.`, tone: 'ok' };
}

/** How sure the label reading was, in words (0 means only the text reader answered). */
export function confidenceWords(fields: Pick<IdentifiedFields, 'confidence'>, aiHelped: boolean): string {
  if (!aiHelped) return 'Read from the label’s text only: check every field.';
  const c = fields.confidence;
  if (c >= 0.8) return 'Hearth is fairly sure about these. Check them before saving.';
  if (c >= 0.5) return 'Hearth is not quite sure about these. Check each field.';
  return 'Hearth is unsure about these. Please check every field.';
}

/** What the list card says about a lookup; null when there is nothing to say. */
export function lookupBadge(d: Pick<DeviceSummary, 'lookupStatus' | 'hasManual'>): string | null {
  if (d.lookupStatus === 'pending') return 'Looking up…';
  if (d.lookupStatus === 'failed') return 'Lookup did not work';
  return null;
}

export const deviceSubtitle = (d: Pick<DeviceSummary, 'brand' | 'model'>) => [d.brand, d.model].filter(Boolean).join(' ');

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

export const isImage = (f: Pick<DeviceFile, 'fileType'>) => f.fileType === 'image';
