// PIN and name rules, mirrored from server/modules/auth/schema.ts (the web app may only import its
// types). The server checks again; these only give quicker, friendlier feedback.
export const PIN_MIN_DIGITS = 4;
export const PIN_MAX_DIGITS = 8;
export const MAX_NAME_LENGTH = 40;
const PIN_PATTERN = /^\d{4,8}$/;

export function pinProblem(pin: string): string | null {
  if (!pin) return 'Choose a PIN.';
  if (!/^\d+$/.test(pin)) return 'A PIN is digits only.';
  if (!PIN_PATTERN.test(pin)) return `A PIN is ${PIN_MIN_DIGITS} to ${PIN_MAX_DIGITS} digits.`;
  return null;
}

export function nameProblem(name: string): string | null {
  if (!name.trim()) return 'A name is needed.';
  return nameLengthProblem(name);
}

/**
 * A name over the server's limit, said at the field as it is typed (the field does not cut it off
 * silently with maxLength: the person sees what is too long and chooses how to shorten it).
 * Counted as the server counts: trimmed, in UTF-16 units.
 */
export function nameLengthProblem(name: string): string | null {
  const length = name.trim().length;
  if (length <= MAX_NAME_LENGTH) return null;
  return `That name has ${length} characters; a name can have at most ${MAX_NAME_LENGTH}. A shorter name or a nickname works.`;
}

export const NAME_HINT = `Up to ${MAX_NAME_LENGTH} characters.`;

/** Keeps only digits, at most the longest PIN. */
export const digitsOnly = (value: string) => value.replace(/\D+/g, '').slice(0, PIN_MAX_DIGITS);

/** PINs people often choose beyond the patterns isWeakPin looks for; the server's list (auth/schema.ts). */
const COMMON_PINS = new Set(['2580', '0852', '1004', '2000', '1122', '6969', '5683']);

/**
 * Whether a PIN is easy to guess, mirrored from isWeakPin in server/modules/auth/schema.ts (the
 * server answers `weakPin` too; test/unit/weak-pin.test.ts keeps the two alike). Said before
 * saving, as a warning: the PIN is still accepted.
 */
// jscpd:ignore-start -- a deliberate mirror of the server's isWeakPin (the web app may import only types from server/); weak-pin.test.ts keeps the two alike
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
// jscpd:ignore-end

/** The sentence shown under a weak PIN before it is saved (the server's WEAK_PIN_WARNING). */
export const WEAK_PIN_WARNING = 'This PIN is easy to guess (like 1234, 0000 or a repeated pattern). You can still use it, but a less obvious one is safer.';
