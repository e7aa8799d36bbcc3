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
  const n = name.trim();
  if (!n) return 'A name is needed.';
  if (n.length > MAX_NAME_LENGTH) return `A name is at most ${MAX_NAME_LENGTH} characters.`;
  return null;
}

/** Keeps only digits, at most the longest PIN. */
export const digitsOnly = (value: string) => value.replace(/\D+/g, '').slice(0, PIN_MAX_DIGITS);
