// PIN hashes: the real scrypt cost unless a caller asks for the test suite's low one, and a stored
// hash is checked with the parameters it names (so a household's old hashes keep working).
import { describe, expect, it } from 'vitest';
import { hashPin, PIN_HASH_PARAMS, verifyPinHash } from '../../server/modules/auth/pin.js';

describe('PIN hashes', () => {
  it('are made at the real cost by default: scrypt N 2^15, r 8, p 1', async () => {
    expect(PIN_HASH_PARAMS.standard).toEqual({ N: 32768, r: 8, p: 1 });
    const stored = await hashPin('1234');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPinHash('1234', stored)).toBe(true);
    expect(await verifyPinHash('4321', stored)).toBe(false);
  });

  it('at the low test cost are still salted scrypt hashes that check the PIN', async () => {
    const a = await hashPin('1234', 'low');
    const b = await hashPin('1234', 'low');
    expect(a).toMatch(/^scrypt\$16\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPinHash('1234', a)).toBe(true);
    expect(await verifyPinHash('1235', a)).toBe(false);
  });
});
