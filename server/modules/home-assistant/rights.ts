// The rules of who may see and use which entity (issue 37): pure, so the member routes, the stream
// and the chat tool decide alike.
import { DOMAIN_SERVICES, GUARDED_COVER_CLASSES, GUARDED_DOMAINS, type Allowed, type GuardedRule } from './schema.js';

export const domainOf = (entityId: string): string => entityId.slice(0, entityId.indexOf('.'));

/** Guarded by its kind: locks, alarms, garage and gate covers. */
export function guardedByDefault(entityId: string, attributes: Record<string, unknown>): boolean {
  const domain = domainOf(entityId);
  if (GUARDED_DOMAINS.includes(domain)) return true;
  return domain === 'cover' && GUARDED_COVER_CLASSES.includes(String(attributes.device_class ?? ''));
}

export interface Rights {
  allowed: Allowed;
  guarded: GuardedRule;
}

/** A member's rights when an admin has set none: every exposed entity; guarded ones with a confirmation, or none for a child. */
export const defaultRights = (child: boolean): Rights => ({ allowed: 'all-exposed', guarded: child ? 'deny' : 'confirm' });

/**
 * Whether someone with these rights may see (and so use) an entity: exposed, within their allowed
 * list, and not guarded for a `deny` member.
 */
export function maySee(rights: Rights, exposed: ReadonlyMap<string, boolean>, entityId: string, guarded: boolean): boolean {
  if (!exposed.has(entityId)) return false;
  if (rights.allowed !== 'all-exposed' && !rights.allowed.includes(entityId)) return false;
  return !(guarded && rights.guarded === 'deny');
}

export const servicesOf = (entityId: string): readonly string[] => DOMAIN_SERVICES[domainOf(entityId)] ?? [];

/** The attributes a tile uses (reference §5): plain values only, nothing else Home Assistant keeps. */
const TILE_ATTRIBUTES = [
  'brightness',
  'color_mode',
  'supported_color_modes',
  'color_temp_kelvin',
  'current_temperature',
  'temperature',
  'target_temp_low',
  'target_temp_high',
  'target_temp_step',
  'min_temp',
  'max_temp',
  'hvac_modes',
  'hvac_action',
  'current_position',
  'device_class',
  'supported_features',
  'unit_of_measurement',
  'volume_level',
  'is_volume_muted',
  'media_title',
  'media_artist',
  'percentage',
  'code_format',
] as const;

type Plain = string | number | boolean | null | Array<string | number>;
const isPlain = (v: unknown): v is Plain =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || (Array.isArray(v) && v.length <= 50 && v.every((x) => typeof x === 'string' || typeof x === 'number'));

export function trimAttributes(attributes: Record<string, unknown>): Record<string, Plain> {
  const out: Record<string, Plain> = {};
  for (const k of TILE_ATTRIBUTES) {
    const v = attributes[k];
    if (v !== undefined && isPlain(v)) out[k] = typeof v === 'string' ? v.slice(0, 200) : v;
  }
  return out;
}

export const nameOf = (entityId: string, attributes: Record<string, unknown>): string =>
  typeof attributes.friendly_name === 'string' && attributes.friendly_name.trim() ? attributes.friendly_name.slice(0, 200) : entityId.slice(entityId.indexOf('.') + 1).replace(/_/g, ' ');
