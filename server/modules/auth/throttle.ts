// Who may try a PIN, and when. DESIGN.md §4 keeps "5 wrong PINs lock the profile for 5 minutes,
// 429 locked_out" for the device that guessed wrong; nobody else is locked out by it. Three counts:
// - profile on one device: 5 wrong PINs lock that profile on that device only, for 5 minutes, then
//   10, 20, ... (doubling with each further lock, at most 24 h); the right PIN there starts over.
// - one device, all profiles: 20 wrong PINs lock the device out of every profile for 15 minutes,
//   doubling the same way; a right PIN does not reset it (a member cannot buy more guesses at the
//   admin's PIN by signing in as themselves).
// - one profile, all devices: after 10 wrong PINs in a day, its PIN checks are spaced out
//   (1 s, doubling every 5 more wrong PINs, at most 60 s); and the whole household, after 50 wrong
//   PINs in a day (1 s, doubling every 10 more, at most 15 s). This slows guessing from many
//   addresses without locking anyone out: a check waits only when another one ran just before.
//   The household's spacing stays short on purpose: whoever floods it slows everyone's sign-in.
// A device is the request's address (see http/rate-limit.ts). Counts are read from memory (the
// checks are synchronous, so PIN checks keep the order they arrived in), bounded, and forgotten
// 24 h after the last wrong PIN or lock. Every change is also handed to a journal that keeps it in
// SQLite (pin-state.ts), and restore() reads it back at start: a restart forgets nothing.
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../platform/clock.js';
import type { PaceRecord, StrikeRecord } from './store.js';

export interface PinThrottleRules {
  profileFailures: number;
  profileLockMs: number;
  deviceFailures: number;
  deviceLockMs: number;
  maxLockMs: number;
  forgetAfterMs: number;
  paceAfterFailures: number;
  paceBaseMs: number;
  paceMaxMs: number;
  householdPaceAfterFailures: number;
  householdPaceMaxMs: number;
}

const MINUTE = 60_000;

export const DEFAULT_PIN_THROTTLE: PinThrottleRules = {
  profileFailures: 5,
  profileLockMs: 5 * MINUTE,
  deviceFailures: 20,
  deviceLockMs: 15 * MINUTE,
  maxLockMs: 24 * 60 * MINUTE,
  forgetAfterMs: 24 * 60 * MINUTE,
  paceAfterFailures: 10,
  paceBaseMs: 1000,
  paceMaxMs: 60_000,
  householdPaceAfterFailures: 50,
  // kept short: this spacing also slows the household's own sign-ins while someone guesses
  householdPaceMaxMs: 15_000,
};

/** Devices (and device × profile pairs) remembered at once; the oldest are dropped first. */
const MAX_TRACKED = 10_000;

interface Strikes {
  failures: number;
  /** Locks so far: the next one lasts lockMs × 2^locks. */
  locks: number;
  lockedUntil: number;
  lastFailureAt: number;
}

interface Pace {
  failures: number;
  lastFailureAt: number;
  /** Monotonic ms of the last check let through (real time: the wait is real). */
  lastCheckAt: number;
}

export interface PinBlock {
  /** 'profile': this profile on this device; 'device': every profile on this device. */
  scope: 'profile' | 'device';
  retryAfterMs: number;
}

export interface PinFailure {
  /** Set when this wrong PIN started a lock. */
  locked: PinBlock | null;
  /** Wrong PINs this device has left before the next lock, and how long that lock will last. */
  triesLeft: number;
  nextLockMs: number;
}

/** Where the throttle writes what it must remember across a restart; the writes are its own to order. */
export interface PinThrottleJournal {
  putStrike(strike: StrikeRecord): void;
  dropStrikes(keys: string[]): void;
  putPace(pace: PaceRecord): void;
  dropPaces(keys: string[]): void;
}

/** The pace entry counting every profile's wrong PINs (user ids are UUIDs, never this). */
const HOUSEHOLD = '*';

const profileKey = (userId: string, client: string) => `p|${userId}|${client}`;
const deviceKey = (client: string) => `d|${client}`;
const userOfKey = (key: string) => (key.startsWith('p|') ? key.slice(2, key.indexOf('|', 2)) : null);

export class PinThrottle {
  readonly rules: PinThrottleRules;
  private readonly strikes = new LRUCache<string, Strikes>({
    max: MAX_TRACKED,
    // the oldest entries dropped from memory go from the database too
    disposeAfter: (_s, key, reason) => {
      if (reason === 'evict') this.journal?.dropStrikes([key]);
    },
  });
  private readonly pace = new Map<string, Pace>();

  constructor(
    private readonly clock: Clock,
    rules: Partial<PinThrottleRules> = {},
    private readonly monotonic: () => number = () => performance.now(),
    private readonly journal?: PinThrottleJournal,
  ) {
    this.rules = { ...DEFAULT_PIN_THROTTLE, ...rules };
  }

  /**
   * Takes back what the journal kept (oldest first). Entries already forgotten are dropped; a pace's
   * last check is not kept (it is monotonic time), so the first check after a restart does not wait.
   */
  restore(strikes: StrikeRecord[], paces: PaceRecord[]): void {
    const now = this.now();
    const stale: string[] = [];
    for (const s of strikes) {
      if (now - Math.max(s.lastFailureAt, s.lockedUntil) >= this.rules.forgetAfterMs) stale.push(s.key);
      else this.strikes.set(s.key, { failures: s.failures, locks: s.locks, lockedUntil: s.lockedUntil, lastFailureAt: s.lastFailureAt });
    }
    if (stale.length > 0) this.journal?.dropStrikes(stale);
    const stalePaces: string[] = [];
    for (const p of paces) {
      if (now - p.lastFailureAt >= this.rules.forgetAfterMs) stalePaces.push(p.key);
      else this.pace.set(p.key, { failures: p.failures, lastFailureAt: p.lastFailureAt, lastCheckAt: -Infinity });
    }
    if (stalePaces.length > 0) this.journal?.dropPaces(stalePaces);
  }

  private putStrike(key: string, s: Strikes): void {
    this.strikes.set(key, s);
    this.journal?.putStrike({ key, userId: userOfKey(key), ...s });
  }

  private dropStrikes(keys: string[]): void {
    const gone = keys.filter((k) => this.strikes.delete(k));
    if (gone.length > 0) this.journal?.dropStrikes(gone);
  }

  private dropPaces(keys: string[]): void {
    const gone = keys.filter((k) => this.pace.delete(k));
    if (gone.length > 0) this.journal?.dropPaces(gone);
  }

  private now(): number {
    return this.clock.now().getTime();
  }

  private read(key: string): Strikes | undefined {
    const s = this.strikes.get(key);
    // counted from the end of the last lock, so a 24-hour lock does not wipe the doubling out
    if (s && this.now() - Math.max(s.lastFailureAt, s.lockedUntil) >= this.rules.forgetAfterMs) {
      this.dropStrikes([key]);
      return undefined;
    }
    return s;
  }

  private lockMs(base: number, locks: number): number {
    return Math.min(this.rules.maxLockMs, base * 2 ** Math.min(locks, 30));
  }

  /** Whether this device may try a PIN for this profile now. */
  blocked(userId: string, client: string): PinBlock | null {
    const now = this.now();
    const p = this.read(profileKey(userId, client));
    if (p && p.lockedUntil > now) return { scope: 'profile', retryAfterMs: p.lockedUntil - now };
    const d = this.read(deviceKey(client));
    if (d && d.lockedUntil > now) return { scope: 'device', retryAfterMs: d.lockedUntil - now };
    return null;
  }

  /** The spacing between PIN checks for a profile with this many recent wrong PINs (0: none). */
  spacingMs(failures: number): number {
    const { paceAfterFailures, paceBaseMs, paceMaxMs } = this.rules;
    if (failures < paceAfterFailures) return 0;
    return Math.min(paceMaxMs, paceBaseMs * 2 ** Math.min(Math.floor((failures - paceAfterFailures) / 5), 30));
  }

  /** The spacing between any two PIN checks, with this many wrong PINs household-wide in the last day. */
  householdSpacingMs(failures: number): number {
    const { householdPaceAfterFailures, paceBaseMs, householdPaceMaxMs } = this.rules;
    if (failures < householdPaceAfterFailures) return 0;
    return Math.min(householdPaceMaxMs, paceBaseMs * 2 ** Math.min(Math.floor((failures - householdPaceAfterFailures) / 10), 30));
  }

  private paceOf(key: string): { p: Pace; spacing: number } | null {
    const p = this.pace.get(key);
    if (!p) return null;
    if (this.now() - p.lastFailureAt >= this.rules.forgetAfterMs) {
      this.dropPaces([key]);
      return null;
    }
    return { p, spacing: key === HOUSEHOLD ? this.householdSpacingMs(p.failures) : this.spacingMs(p.failures) };
  }

  private waitFor(entry: { p: Pace; spacing: number } | null, now: number): number {
    return entry && entry.spacing > 0 ? Math.max(0, entry.p.lastCheckAt + entry.spacing - now) : 0;
  }

  /**
   * How long the next PIN check for this profile waits before it runs (0 unless someone is
   * guessing), and takes that turn. Checks for one profile run one at a time (the service queues
   * them), so a profile's turns never overlap.
   */
  takeTurn(userId: string): number {
    const now = this.monotonic();
    const profile = this.paceOf(userId);
    const household = this.paceOf(HOUSEHOLD);
    const wait = Math.max(this.waitFor(profile, now), this.waitFor(household, now));
    if (profile) profile.p.lastCheckAt = now + wait;
    if (household) household.p.lastCheckAt = now + wait;
    return wait;
  }

  /** The wait a new check would have behind `queued` checks for its profile and `queuedAll` in all, without taking a turn. */
  projectedWaitMs(userId: string, queued: number, queuedAll: number): number {
    const now = this.monotonic();
    const profile = this.paceOf(userId);
    const household = this.paceOf(HOUSEHOLD);
    return Math.max(
      this.waitFor(profile, now) + queued * (profile?.spacing ?? 0),
      this.waitFor(household, now) + queuedAll * (household?.spacing ?? 0),
    );
  }

  private strike(key: string, threshold: number, baseLockMs: number): { locked: boolean; left: number; nextLockMs: number } {
    const now = this.now();
    const s = this.read(key) ?? { failures: 0, locks: 0, lockedUntil: 0, lastFailureAt: now };
    s.failures += 1;
    s.lastFailureAt = now;
    let locked = false;
    if (s.failures >= threshold) {
      s.lockedUntil = now + this.lockMs(baseLockMs, s.locks);
      s.locks += 1;
      s.failures = 0;
      locked = true;
    }
    this.putStrike(key, s);
    return { locked, left: threshold - s.failures, nextLockMs: this.lockMs(baseLockMs, s.locks) };
  }

  failed(userId: string, client: string): PinFailure {
    const { rules } = this;
    const p = this.strike(profileKey(userId, client), rules.profileFailures, rules.profileLockMs);
    const d = this.strike(deviceKey(client), rules.deviceFailures, rules.deviceLockMs);
    for (const key of [userId, HOUSEHOLD]) {
      const pace = this.paceOf(key)?.p ?? { failures: 0, lastFailureAt: 0, lastCheckAt: -Infinity };
      pace.failures += 1;
      pace.lastFailureAt = this.now();
      this.pace.set(key, pace);
      this.journal?.putPace({ key, failures: pace.failures, lastFailureAt: pace.lastFailureAt });
    }
    const locked = p.locked ? 'profile' : d.locked ? 'device' : null;
    const block = locked ? this.blocked(userId, client) : null;
    const next = d.left < p.left ? d : p;
    return { locked: block, triesLeft: next.left, nextLockMs: next.nextLockMs };
  }

  /**
   * The right PIN: this device starts over for this profile. The paces stay (they fade a day after
   * the last wrong PIN, or an admin unlocks): the member signing in says nothing about whoever is
   * guessing from elsewhere, and a member must not clear them by signing in as themselves.
   */
  succeeded(userId: string, client: string): void {
    this.dropStrikes([profileKey(userId, client)]);
  }

  /**
   * An admin lets a member in again: every lock on the profile goes, with the device-wide locks of
   * the devices that had tried it, and PIN checks are no longer spaced (the household's either).
   */
  unlock(userId: string): void {
    const prefix = `p|${userId}|`;
    const keys = [...this.strikes.keys()].filter((key) => key.startsWith(prefix));
    this.dropStrikes([...keys, ...keys.map((key) => deviceKey(key.slice(prefix.length)))]);
    this.dropPaces([userId, HOUSEHOLD]);
  }

  /** When the last lock on this profile ends (on any device), or null when it is not locked anywhere. */
  lockedUntil(userId: string): Date | null {
    const now = this.now();
    let until = 0;
    const prefix = `p|${userId}|`;
    for (const [key, s] of this.strikes.entries()) {
      if (key.startsWith(prefix) && s.lockedUntil > now) until = Math.max(until, s.lockedUntil);
    }
    return until > 0 ? new Date(until) : null;
  }
}
