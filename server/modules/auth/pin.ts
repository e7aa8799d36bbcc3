// PIN hashing with scrypt (memory-hard, in node:crypto). Stored as
// scrypt$<N>$<r>$<p>$<salt b64>$<hash b64> so parameters can be raised later without a migration.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function scryptAsync(pin: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(pin, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

const memFor = (n: number, r: number) => 128 * n * r * 2;

export async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(pin, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: memFor(N, R) });
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
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
