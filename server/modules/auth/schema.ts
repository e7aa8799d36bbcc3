import { z } from 'zod';
import { EffectiveLocale } from '../locale/schema.js';

export const PIN_PATTERN = /^\d{4,8}$/;
/** A PIN check waits at most this long in its profile's queue (the profile is being guessed at); beyond, 429. */
export const MAX_PIN_WAIT_MS = 2 * 60 * 1000;
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** The sliding expiry is pushed forward at most this often, to keep reads read-only. */
export const SESSION_REFRESH_AFTER_MS = 60 * 60 * 1000;
export const MAX_NAME_LENGTH = 40;

export const Role = z.enum(['admin', 'member']);
export type Role = z.infer<typeof Role>;

export const Pin = z.string().regex(PIN_PATTERN, 'A PIN is 4 to 8 digits.');

/** PINs people often choose beyond the patterns isWeakPin looks for (keypad lines, years, words). */
const COMMON_PINS = new Set(['2580', '0852', '1004', '2000', '1122', '6969', '5683']);

/**
 * Whether a PIN is one of the first a guesser tries: one digit repeated (0000), a short block
 * repeated (1212, 123123), digits counting up or down (1234, 4321, 7890), or a common choice
 * (2580, the keypad's middle column). A warning, never a refusal: the household decides.
 * The web app mirrors it in renderer/src/features/auth/pin-rules.ts (test/unit/weak-pin.test.ts).
 */
export function isWeakPin(pin: string): boolean {
  if (!PIN_PATTERN.test(pin)) return false;
  if (COMMON_PINS.has(pin)) return true;
  for (let block = 1; block <= pin.length / 2; block++) {
    if (pin.length % block === 0 && pin.slice(0, block).repeat(pin.length / block) === pin) return true;
  }
  const steps = new Set<number>();
  for (let i = 1; i < pin.length; i++) steps.add((Number(pin[i]) - Number(pin[i - 1]) + 10) % 10);
  return steps.size === 1 && (steps.has(1) || steps.has(9));
}

/** What the web app says about a weak PIN before it is saved (the API answers `weakPin: true`). */
export const WEAK_PIN_WARNING = 'This PIN is easy to guess (like 1234, 0000 or a repeated pattern). You can still use it, but a less obvious one is safer.';
export const UserName = z
  .string()
  .trim()
  // one stored form per name, so "É" typed composed or decomposed is the same name
  .normalize('NFC')
  .max(MAX_NAME_LENGTH, `A name is at most ${MAX_NAME_LENGTH} characters.`)
  // Bidi overrides would let one name pose as another on the profile picker; ZWJ stays (emoji).
  .refine((s) => !/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(s), 'A name cannot contain control characters.')
  // also covers the empty name: something visible is needed
  .refine((s) => /[^\s\p{Cf}\p{Mn}]/u.test(s), 'A name is needed.');
export const Avatar = z.string().trim().max(16).nullable().optional();

export const UserId = z.string().min(1).max(64);

export const PublicUser = z.object({
  id: z.string(),
  name: z.string(),
  role: Role,
  avatar: z.string().nullable().optional(),
});
export type PublicUser = z.infer<typeof PublicUser>;

export const SelectBody = z.object({ userId: UserId });
/** lockedForSeconds: only when this device may not try a PIN for the profile now. */
export const SelectResponse = z.object({ userId: z.string(), name: z.string(), lockedForSeconds: z.number().int().positive().optional() });
export type SelectResponse = z.infer<typeof SelectResponse>;
export const VerifyPinBody = z.object({ userId: UserId, pin: z.string().max(64) });

export const CreateUserBody = z.object({ name: UserName, pin: Pin, role: Role.default('member'), avatar: Avatar });
export type CreateUserBody = z.infer<typeof CreateUserBody>;

export const UpdateUserBody = z
  .object({ name: UserName.optional(), pin: Pin.optional(), role: Role.optional(), avatar: Avatar })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Nothing to change: send name, pin, role or avatar.');
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

export const UserIdParams = z.object({ id: UserId });

/** POST /api/auth/pin: a member changes their own PIN. */
export const ChangePinBody = z.object({ currentPin: z.string().max(64), newPin: Pin });
export type ChangePinBody = z.infer<typeof ChangePinBody>;
/** weakPin: the new PIN is easy to guess (isWeakPin); it is saved all the same. */
export const ChangePinResponse = z.object({ ok: z.literal(true), weakPin: z.boolean() });
export type ChangePinResponse = z.infer<typeof ChangePinResponse>;

export const ProfilesResponse = z.object({ profiles: z.array(PublicUser) });
export const UserResponse = z.object({ user: PublicUser });
/** A member as created or changed by an admin (or at setup): weakPin says whether the PIN just set is easy to guess (only when one was set). */
export const UserPinResponse = z.object({ user: PublicUser, weakPin: z.boolean().optional() });
export type UserPinResponse = z.infer<typeof UserPinResponse>;
/** Who this browser is signed in as, with the language and region their screens follow: nulls when nobody is (GET /api/auth/session). */
export const SessionResponse = z.object({ user: PublicUser.nullable(), locale: EffectiveLocale.nullable() });
/** GET /api/auth/me: the member and the language and region their screens follow. */
export const MeResponse = z.object({ user: PublicUser, locale: EffectiveLocale });
export type MeResponse = z.infer<typeof MeResponse>;
export type SessionResponse = z.infer<typeof SessionResponse>;
/** A member as admins see them: with when a PIN lock on their profile ends (null: not locked). */
export const AdminUser = PublicUser.extend({ lockedUntil: z.string().nullable() });
export type AdminUser = z.infer<typeof AdminUser>;

export const UsersResponse = z.object({ users: z.array(AdminUser) });
export const AdminUserResponse = z.object({ user: AdminUser });

/** The answer of an action that has nothing else to say. */
export const OkResponse = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof OkResponse>;
export type ProfilesResponse = z.infer<typeof ProfilesResponse>;
export type UserResponse = z.infer<typeof UserResponse>;
export type UsersResponse = z.infer<typeof UsersResponse>;
export type AdminUserResponse = z.infer<typeof AdminUserResponse>;
