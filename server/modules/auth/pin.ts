// PIN hashing with scrypt (memory-hard, in node:crypto). Stored as
// scrypt$<N>$<r>$<p>$<salt b64>$<hash b64> so parameters can be raised later without a migration.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * The scrypt parameters of a new hash. `standard` is the real cost (~32 MB, tens of milliseconds);
 * `low` only ever runs in the test suite (config.pinHashCost, refused without HEARTH_TEST=1), where
 * hundreds of members are seeded and signed in. A stored hash names its own parameters, so checking
 * a PIN costs what its hash was made with.
 */
export const PIN_HASH_PARAMS = {
  standard: { N: 2 ** 15, r: 8, p: 1 },
  low: { N: 2 ** 4, r: 8, p: 1 },
} as const;
export type PinHashCost = keyof typeof PIN_HASH_PARAMS;

const KEY_LENGTH = 32;

function scryptAsync(pin: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(pin, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

const memFor = (n: number, r: number) => 128 * n * r * 2;

export async function hashPin(pin: string, cost: PinHashCost = 'standard'): Promise<string> {
  const { N, r, p } = PIN_HASH_PARAMS[cost];
  const salt = randomBytes(16);
  const key = await scryptAsync(pin, salt, KEY_LENGTH, { N, r, p, maxmem: memFor(N, r) });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPinHash(pin: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  const key = await scryptAsync(pin, salt, expected.length, { N: n, r, p, maxmem: memFor(n, r) });
  return timingSafeEqual(key, expected);
}
