// Weak PINs (issue 29 item 25): the server's isWeakPin and the web app's mirror of it agree, and
// both flag what a guesser tries first while leaving ordinary PINs alone.
import { describe, expect, it } from 'vitest';
import { isWeakPin, WEAK_PIN_WARNING } from '../../server/modules/auth/schema.js';
import { isWeakPin as webIsWeakPin, WEAK_PIN_WARNING as WEB_WARNING } from '../../renderer/src/features/auth/pin-rules.js';

const WEAK = ['1234', '0000', '1111', '9999', '4321', '12345678', '87654321', '7890', '0987', '1212', '123123', '121212', '2580', '6969', '1122', '98765'];
const FINE = ['8031', '2468', '5791', '1357', '3579', '4826', '80315', '19283746', '1243', '7072'];

describe('isWeakPin', () => {
  it.each(WEAK)('%s is easy to guess', (pin) => {
    expect(isWeakPin(pin)).toBe(true);
  });

  it.each(FINE)('%s is not flagged', (pin) => {
    expect(isWeakPin(pin)).toBe(false);
  });

  it('is mirrored exactly by the web app, with the same sentence', () => {
    const all = [...WEAK, ...FINE, ...Array.from({ length: 10_000 }, (_, i) => String(i).padStart(4, '0')), '12', 'abcd', ''];
    for (const pin of all) expect(webIsWeakPin(pin), pin).toBe(isWeakPin(pin));
    expect(WEB_WARNING).toBe(WEAK_PIN_WARNING);
    expect(WEAK_PIN_WARNING).toMatch(/easy to guess/);
  });
});
