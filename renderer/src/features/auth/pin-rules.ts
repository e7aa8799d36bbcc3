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
