import { describe, expect, it } from 'vitest';
import { DEFAULT_PIN_THROTTLE, PinThrottle } from '../../server/modules/auth/throttle.js';
import { createManualClock } from '../../server/platform/clock.js';
import { Semaphore } from '../../server/platform/semaphore.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function setup(rules = {}) {
  const clock = createManualClock();
  let mono = 0;
  const throttle = new PinThrottle(clock, rules, () => mono);
  return {
    clock,
    throttle,
    advance(ms: number) {
      clock.advance(ms);
      mono += ms;
    },
  };
}

/**
 * An attacker who guesses as fast as the rules let them, waiting out every lock and every pace:
 * how long `guesses` wrong PINs take, spread round-robin over `profiles` profiles from `devices`
 * devices (a new device for every guess when devices is Infinity).
 */
function timeForGuesses(guesses: number, profiles: number, devices: number): number {
  const { throttle, advance } = setup();
  let elapsed = 0;
  let device = 0;
  for (let i = 0; i < guesses; i++) {
    const user = `u${i % profiles}`;
    const client = devices === Infinity ? `d${i}` : `d${device}`;
    for (;;) {
      const block = throttle.blocked(user, client);
      if (!block) break;
      if (devices !== Infinity && devices > 1) {
        device = (device + 1) % devices; // another device may still be free
        const other = throttle.blocked(user, `d${device}`);
        if (!other) break;
      }
      advance(block.retryAfterMs);
      elapsed += block.retryAfterMs;
    }
    const wait = throttle.takeTurn(user);
    advance(wait);
    elapsed += wait;
    throttle.failed(user, devices === Infinity ? `d${i}` : `d${device}`);
  }
  return elapsed;
}

describe('PinThrottle', () => {
  it('locks a profile on the device that guessed wrong 5 times, for 5 minutes, and nowhere else', () => {
    const { throttle, advance } = setup();
    for (let i = 1; i <= 4; i++) {
      const f = throttle.failed('alex', 'phone');
      expect(f.locked).toBeNull();
      expect(f.triesLeft).toBe(5 - i);
      expect(f.nextLockMs).toBe(5 * MINUTE);
    }
    expect(throttle.failed('alex', 'phone').locked).toEqual({ scope: 'profile', retryAfterMs: 5 * MINUTE });
    expect(throttle.blocked('alex', 'phone')).toEqual({ scope: 'profile', retryAfterMs: 5 * MINUTE });
    expect(throttle.blocked('alex', 'laptop')).toBeNull();
    expect(throttle.blocked('sam', 'phone')).toBeNull();
    advance(5 * MINUTE);
    expect(throttle.blocked('alex', 'phone')).toBeNull();
  });

  it('doubles each further lock of the same profile on the same device, up to 24 hours', () => {
    const { throttle, advance } = setup();
    const locks: number[] = [];
    for (let round = 0; round < 12; round++) {
      let f;
      for (let i = 0; i < 5; i++) f = throttle.failed('alex', 'phone');
      locks.push(f!.locked!.retryAfterMs);
      advance(f!.locked!.retryAfterMs);
      throttle.succeeded('sam', 'phone'); // the device signing someone else in changes nothing
    }
    expect(locks.slice(0, 5)).toEqual([5, 10, 20, 40, 80].map((m) => m * MINUTE));
    expect(Math.max(...locks)).toBe(24 * HOUR);
  });

  it('the right PIN on that device starts the count and the doubling over', () => {
    const { throttle, advance } = setup();
    for (let i = 0; i < 5; i++) throttle.failed('alex', 'phone');
    advance(5 * MINUTE);
    throttle.succeeded('alex', 'phone');
    for (let i = 0; i < 4; i++) expect(throttle.failed('alex', 'phone').locked).toBeNull();
    expect(throttle.failed('alex', 'phone').locked!.retryAfterMs).toBe(5 * MINUTE);
  });

  it('forgets a device after 24 hours without a wrong PIN', () => {
    const { throttle, advance } = setup();
    for (let r = 0; r < 3; r++) {
      for (let i = 0; i < 5; i++) throttle.failed('alex', 'phone');
      advance(HOUR);
    }
    advance(DAY);
    for (let i = 0; i < 4; i++) throttle.failed('alex', 'phone');
    expect(throttle.failed('alex', 'phone').locked!.retryAfterMs).toBe(5 * MINUTE);
  });

  it('locks a device out of every profile after 20 wrong PINs across profiles; a right PIN does not reset that', () => {
    const { throttle } = setup();
    for (let i = 0; i < 19; i++) {
      expect(throttle.failed(`user${i % 5}`, 'tablet').locked?.scope).not.toBe('device');
      if (i % 5 === 0) throttle.succeeded('me', 'tablet');
    }
    const last = throttle.failed('user9', 'tablet');
    expect(last.locked).toEqual({ scope: 'device', retryAfterMs: 15 * MINUTE });
    expect(throttle.blocked('anyone', 'tablet')).toEqual({ scope: 'device', retryAfterMs: 15 * MINUTE });
    expect(throttle.blocked('anyone', 'phone')).toBeNull();
  });

  it('spaces out PIN checks for a profile guessed at from many devices, without locking it', () => {
    const { throttle, advance } = setup();
    for (let i = 0; i < 9; i++) throttle.failed('alex', `device${i}`);
    expect(throttle.takeTurn('alex')).toBe(0);
    throttle.failed('alex', 'device9'); // the 10th wrong PIN
    advance(1000);
    expect(throttle.takeTurn('alex')).toBe(0); // a second after the last check: at once...
    expect(throttle.takeTurn('alex')).toBe(1000); // ...the next one waits its turn
    expect(throttle.projectedWaitMs('alex', 3, 3)).toBe(2000 + 3 * 1000);
    advance(2000);
    for (let i = 0; i < 5; i++) throttle.failed('alex', `other${i}`);
    expect(throttle.spacingMs(15)).toBe(2000);
    expect(throttle.spacingMs(10_000)).toBe(DEFAULT_PIN_THROTTLE.paceMaxMs);
    // a fresh device is not locked, only slowed; the member signing in does not end the pace
    expect(throttle.blocked('alex', 'new-phone')).toBeNull();
    throttle.succeeded('alex', 'new-phone');
    expect(throttle.takeTurn('alex')).toBeGreaterThan(0);
    advance(DAY + 60_000);
    expect(throttle.takeTurn('alex')).toBe(0); // a day after the last wrong PIN it is gone
  });

  it('spaces out every PIN check after 50 wrong PINs household-wide; a right PIN does not reset that', () => {
    const { throttle, advance } = setup();
    for (let i = 0; i < 50; i++) throttle.failed(`user${i % 10}`, `device${i}`);
    expect(throttle.householdSpacingMs(10_000)).toBe(15_000);
    throttle.succeeded('user0', 'device0');
    expect(throttle.takeTurn('someone-else')).toBe(0);
    expect(throttle.takeTurn('another-one')).toBe(1000);
    advance(DAY + 1000);
    expect(throttle.takeTurn('someone-else')).toBe(0);
    expect(throttle.takeTurn('another-one')).toBe(0); // forgotten a day after the last wrong PIN
  });

  it('unlock lifts every lock on the profile, on every device, and the device-wide locks of the devices that tried it', () => {
    const { throttle } = setup();
    for (let i = 0; i < 5; i++) throttle.failed('alex', 'phone');
    for (let i = 0; i < 5; i++) throttle.failed('alex', 'laptop');
    for (let i = 0; i < 15; i++) throttle.failed(`user${i % 3}`, 'laptop'); // laptop now locked everywhere
    for (let i = 0; i < 5; i++) throttle.failed('sam', 'tv');
    expect(throttle.lockedUntil('alex')).not.toBeNull();
    throttle.unlock('alex');
    expect(throttle.blocked('alex', 'phone')).toBeNull();
    expect(throttle.blocked('alex', 'laptop')).toBeNull();
    expect(throttle.lockedUntil('alex')).toBeNull();
    expect(throttle.blocked('sam', 'tv')).not.toBeNull(); // other members' locks stay
  });

  it('makes guessing a 4-digit PIN (5,000 guesses on average) take years from one device, a month over 12 profiles, days for one profile from endless addresses', () => {
    const expected = 5000;
    expect(timeForGuesses(expected, 1, 1)).toBeGreaterThan(2 * 365 * DAY);
    // a PIN among 12 profiles: 10^4 / 13 guesses on average
    expect(timeForGuesses(Math.ceil(10_000 / 13), 12, 1)).toBeGreaterThan(30 * DAY);
    // a new address for every guess: only the pace is left
    expect(timeForGuesses(expected, 1, Infinity)).toBeGreaterThan(3 * DAY);
    expect(timeForGuesses(Math.ceil(10_000 / 13), 12, Infinity)).toBeGreaterThan(2 * HOUR);
  });
});

describe('Semaphore', () => {
  it('runs at most `size` tasks at once, in order, and frees the slot when a task fails', async () => {
    const slots = new Semaphore(2);
    let running = 0;
    let max = 0;
    const order: number[] = [];
    const task = (i: number) =>
      slots.run(async () => {
        running++;
        max = Math.max(max, running);
        await new Promise((r) => setTimeout(r, 5));
        order.push(i);
        running--;
        if (i === 3) throw new Error('boom');
        return i;
      });
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => task(i)));
    expect(max).toBe(2);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect(order.slice(0, 2).sort()).toEqual([0, 1]);
    expect(slots.pending).toBe(0);
  });

  it('puts a task run with first=true at the head of the queue', async () => {
    const slots = new Semaphore(1);
    const order: string[] = [];
    const task = (name: string) => async () => {
      await new Promise((r) => setTimeout(r, 2));
      order.push(name);
    };
    await Promise.all([slots.run(task('a')), slots.run(task('b')), slots.run(task('c')), slots.run(task('urgent'), true)]);
    expect(order).toEqual(['a', 'urgent', 'b', 'c']);
  });
});
