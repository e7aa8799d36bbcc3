// The device form's state as text (what the member types) and the request body made from it:
// empty text clears a field, a price is read as people write it (price.ts), blank specification
// rows are dropped.
import { parsePrice } from './price.js';
import type { Device, DeviceCategory, IdentifiedFields, PatchDeviceBody } from './types.js';

export interface DeviceDraft {
  name: string;
  brand: string;
  model: string;
  serialNumber: string;
  category: DeviceCategory;
  manufacturedDate: string;
  countryOfOrigin: string;
  purchaseDate: string;
  purchasePrice: string;
  purchaseStore: string;
  warrantyExpires: string;
  location: string;
  owner: string;
  notes: string;
  specs: Array<{ key: string; value: string }>;
}

export const EMPTY_DRAFT: DeviceDraft = {
  name: '',
  brand: '',
  model: '',
  serialNumber: '',
  category: 'appliance',
  manufacturedDate: '',
  countryOfOrigin: '',
  purchaseDate: '',
  purchasePrice: '',
  purchaseStore: '',
  warrantyExpires: '',
  location: '',
  owner: '',
  notes: '',
  specs: [],
};

const specRows = (specs: Record<string, string>) => Object.entries(specs).map(([key, value]) => ({ key, value }));

/** What the label reading found, as a draft for review. */
export function draftFromIdentified(f: IdentifiedFields): DeviceDraft {
  const name = f.name ?? ([f.brand, f.model].filter(Boolean).join(' ') || '');
  return {
    ...EMPTY_DRAFT,
    name,
    brand: f.brand ?? '',
    model: f.model ?? '',
    serialNumber: f.serialNumber ?? '',
    category: f.category ?? 'appliance',
    manufacturedDate: f.manufacturedDate ?? '',
    countryOfOrigin: f.countryOfOrigin ?? '',
    specs: specRows(f.labelSpecs),
  };
}

export function draftFromDevice(d: Device): DeviceDraft {
  return {
    name: d.name,
    brand: d.brand ?? '',
    model: d.model ?? '',
    serialNumber: d.serialNumber ?? '',
    category: d.category,
    manufacturedDate: d.manufacturedDate ?? '',
    countryOfOrigin: d.countryOfOrigin ?? '',
    purchaseDate: d.purchaseDate ?? '',
    purchasePrice: d.purchasePrice === null ? '' : String(d.purchasePrice),
    purchaseStore: d.purchaseStore ?? '',
    warrantyExpires: d.warrantyExpires ?? '',
    location: d.location ?? '',
    owner: d.owner ?? '',
    notes: d.notes ?? '',
    specs: specRows(d.specs),
  };
}

/**
 * The body for POST or PATCH, or a sentence saying what to fix (keyed by field). A price is read
 * as people write it in `locale` (the browser's unless given): "$2,199", "2.199,00 €".
 */
export function toBody(d: DeviceDraft, locale?: string): { body: PatchDeviceBody & { name: string }; errors: null } | { body: null; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const name = d.name.trim();
  if (!name) errors.name = 'Give the device a name, for example “Kitchen fridge”.';
  let price: number | null = null;
  const priceText = d.purchasePrice.trim();
  if (priceText) {
    price = parsePrice(priceText, locale);
    if (price === null) errors.purchasePrice = `Write the price as an amount, like ${new Intl.NumberFormat(locale, { minimumFractionDigits: 2 }).format(1299.99)}.`;
  }
  const specs: Record<string, string> = {};
  for (const row of d.specs) {
    const key = row.key.trim();
    if (!key && !row.value.trim()) continue;
    if (!key) {
      errors.specs = 'Each specification needs a name, like “Voltage”.';
      continue;
    }
    specs[key] = row.value.trim();
  }
  if (Object.keys(errors).length) return { body: null, errors };
  return {
    errors: null,
    body: {
      name,
      brand: d.brand.trim(),
      model: d.model.trim(),
      serialNumber: d.serialNumber.trim(),
      category: d.category,
      manufacturedDate: d.manufacturedDate.trim(),
      countryOfOrigin: d.countryOfOrigin.trim(),
      purchaseDate: d.purchaseDate,
      purchasePrice: price,
      purchaseStore: d.purchaseStore.trim(),
      warrantyExpires: d.warrantyExpires,
      location: d.location.trim(),
      owner: d.owner.trim(),
      notes: d.notes.trim(),
      specs,
    },
  };
}
