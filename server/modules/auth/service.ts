// Profiles, PIN sign-in with lockout, sessions (opaque tokens stored hashed, 30-day sliding
// expiry) and household member management with the last-admin rule.
// PIN hashing is the one expensive step (scrypt, ~32 MB and a thread-pool thread each): every
// check that can refuse a request runs before it, and at most a few hashes run at once.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Actor, UserActor } from '../../actor.js';
import { ConflictError, NotFoundError, TooManyRequestsError, UnauthorizedError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { Semaphore } from '../../platform/semaphore.js';
import type { EventBus } from '../../platform/event-bus.js';
import { verifyPinHash } from './pin.js';
import {
  isWeakPin,
  MAX_PIN_WAIT_MS,
  PIN_PATTERN,
  SESSION_REFRESH_AFTER_MS,
  SESSION_TTL_MS,
  type AdminUser,
  type ChangePinBody,
  type ChangePinResponse,
  type CreateUserBody,
  type MeResponse,
  type SessionResponse,
  type PublicUser,
  type SelectResponse,
  type UpdateUserBody,
} from './schema.js';
import type { PinStateJournal } from './pin-state.js';
import type { AuthPorts } from './ports.js';
import { toPublicUser, type MembersService } from './members-service.js';
import type { AuthStore, UserRecord } from './store.js';
import type { PinBlock, PinThrottle } from './throttle.js';

export interface AuthDeps {
  store: AuthStore;
  clock: Clock;
  logger: Logger;
  /** Who may try a PIN when (per device, per profile). */
  throttle: PinThrottle;
  /** Keeps the throttle's counts and the trusted devices in SQLite (the throttle's journal too). */
  pinState: PinStateJournal;
  /** Bounds the PIN hashes and checks running at once, so sign-ins cannot fill the thread pool. */
  pinSlots: Semaphore;
  /** A new PIN's hash, within pinSlots, at config.pinHashCost (`standard` but in the test suite). */
  hash: (pin: string) => Promise<string>;
  /** Member management by admins (the same store, throttle and hash). */
  members: MembersService;
  /** Tells the other modules a member was deleted (their files are not rows). */
  bus: EventBus;
  /** The signed-in member's language and region (the locale module). */
  locale: AuthPorts['locale'];
}

export interface SignIn {
  user: PublicUser;
  token: string;
  maxAgeMs: number;
  /** The device token to set as a cookie after a PIN sign-in (new, or the one the browser sent). */
  device?: string;
}

/** Browsers remembered as "a member signed in here before"; the oldest are forgotten first. */
const MAX_TRUSTED_DEVICES = 10_000;
/** A trusted device not used for this long is forgotten: as long as its cookie lives (http/auth.ts). */
const TRUSTED_DEVICE_TTL_MS = 400 * 24 * 60 * 60 * 1000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** "5 minutes", "2 hours" (or "5-minute" as an adjective): how long a lock lasts, for a person. */
export function formatWait(ms: number, adjective = false): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  const [n, unit] = minutes <= 90 ? [minutes, 'minute'] : [Math.ceil(minutes / 60), 'hour'];
  return adjective ? `${n}-${unit}` : `${n} ${unit}${n === 1 ? '' : 's'}`;
}

export class AuthService {
  /** PIN checks for one profile run one at a time, so parallel guesses cannot outrun the lockout. */
  private readonly pinQueues = new Map<string, Promise<unknown>>();
  /** PIN checks waiting in each profile's queue. */
  private readonly pinWaiting = new Map<string, number>();
  /**
   * Device token hash -> the profiles that signed in with the right PIN on that browser. Such a
   * browser skips the pace and the queue that slow guessing (its own wrong PINs still lock it): a
   * flood of guesses from many addresses cannot keep a member out of their own phone. An attacker
   * cannot get one without the PIN. Read from memory (the check runs before a PIN check joins its
   * queue, without awaiting), kept in SQLite and restored at start, so a restart forgets none.
   */
  private readonly trustedDevices = new LRUCache<string, Set<string>>({
    max: MAX_TRUSTED_DEVICES,
    disposeAfter: (_users, key, reason) => {
      if (reason === 'evict') this.deps.pinState.forgetDevice(key);
    },
  });

  constructor(private readonly deps: AuthDeps) {}

  /** Takes back the PIN locks, paces and trusted devices a previous run kept (createServer, before listening). */
  async restorePinState(): Promise<void> {
    const since = new Date(this.now().getTime() - TRUSTED_DEVICE_TTL_MS).toISOString();
    const kept = await this.deps.pinState.load(since, MAX_TRUSTED_DEVICES * 4);
    this.deps.throttle.restore(kept.strikes, kept.paces);
    for (const d of kept.devices) this.trustedDevices.set(d.deviceHash, new Set(this.trustedDevices.get(d.deviceHash)).add(d.userId));
    await this.deps.pinState.settled();
  }

  /** Resolves once every PIN lock, pace and trusted device changed so far is on disk. */
  pinStateSettled(): Promise<void> {
    return this.deps.pinState.settled();
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  async listProfiles(): Promise<PublicUser[]> {
    return (await this.deps.store.listUsers()).map(toPublicUser);
  }

  async getUser(id: string): Promise<PublicUser | null> {
    const u = await this.deps.store.findUser(id);
    return u ? toPublicUser(u) : null;
  }

  async hasAdmin(): Promise<boolean> {
    return (await this.deps.store.countAdmins()) > 0;
  }

  /** The profile, and when this device is locked out of it, for how long (so the PIN screen can say so upfront). */
  async select(userId: string, client: string): Promise<SelectResponse> {
    const u = await this.deps.store.findUser(userId);
    if (!u) throw new NotFoundError('That profile does not exist.');
    const block = this.deps.throttle.blocked(u.id, client);
    return block ? { userId: u.id, name: u.name, lockedForSeconds: Math.ceil(block.retryAfterMs / 1000) } : { userId: u.id, name: u.name };
  }

  /**
   * Signs in with a PIN from `client` (the device's address). Refusals that cost nothing come
   * first: unknown profile, a lock on this device, a queue of checks for this profile too long to
   * wait in; only then is the PIN hashed.
   */
  async verifyPin(userId: string, pin: string, client: string, opts: { device?: string; userAgent?: string } = {}): Promise<SignIn> {
    // (no await before the queue is joined: checks keep the order they arrived in)
    const block = this.deps.throttle.blocked(userId, client);
    if (block) throw this.lockedError(block);
    if (opts.device && this.trustedDevices.get(hashToken(opts.device))?.has(userId)) {
      return this.verifyPinNow(userId, pin, client, opts, true);
    }
    const waiting = this.pinWaiting.get(userId) ?? 0;
    let waitingAll = 0;
    for (const n of this.pinWaiting.values()) waitingAll += n;
    const wait = this.deps.throttle.projectedWaitMs(userId, waiting, waitingAll);
    if (wait > MAX_PIN_WAIT_MS) {
      const seconds = Math.ceil(wait / 1000);
      throw new TooManyRequestsError('rate_limited', `Many wrong PINs were tried lately, so PIN checks are slowed down. Try again in ${seconds} seconds.`, seconds);
    }
    return this.inPinQueue(userId, () => this.verifyPinNow(userId, pin, client, opts, false));
  }

  /** Runs a PIN check after the ones queued before it under the same key (joined synchronously, in arrival order). */
  private inPinQueue<T>(userId: string, check: () => Promise<T>): Promise<T> {
    this.pinWaiting.set(userId, (this.pinWaiting.get(userId) ?? 0) + 1);
    const previous = this.pinQueues.get(userId) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => {
      this.pinWaiting.set(userId, (this.pinWaiting.get(userId) ?? 1) - 1);
      return check();
    });
    this.pinQueues.set(userId, run);
    void run.finally(() => {
      if (this.pinQueues.get(userId) === run) {
        this.pinQueues.delete(userId);
        this.pinWaiting.delete(userId);
      }
    }).catch(() => undefined);
    return run;
  }

  /**
   * A member changes their own PIN. The current PIN is checked as a sign-in checks it, from the
   * same device and against the same counts: a wrong one counts toward the lock of this profile on
   * this device, and a locked device is refused. A member's PIN changes are checked one at a time,
   * so parallel guesses cannot outrun the lock; the pace is skipped, the session being proof of an
   * earlier sign-in. The new PIN signs the member out on their other devices.
   */
  async changePin(actor: UserActor, body: ChangePinBody, client: string): Promise<ChangePinResponse> {
    await this.confirmPin(actor, body.currentPin, client);
    const pinHash = await this.hash(body.newPin);
    await this.deps.store.transaction(async (tx) => {
      if (!(await tx.updateUser(actor.id, { pinHash, updatedAt: this.now().toISOString() }))) throw new UnauthorizedError();
      await tx.deleteSessionsOfUser(actor.id, actor.sessionId);
    });
    this.deps.logger.info({ userId: actor.id }, 'PIN changed by its member');
    return { ok: true, weakPin: isWeakPin(body.newPin) };
  }

  /**
   * Checks the signed-in member's own PIN again (a PIN change, the adult state): 401 invalid_pin,
   * and a wrong one counts toward the same per-device lock as signing in (429 locked_out).
   */
  async confirmPin(actor: UserActor, pin: string, client: string): Promise<void> {
    const block = this.deps.throttle.blocked(actor.id, client);
    if (block) throw this.lockedError(block);
    // its own queue: the check never waits behind strangers' paced sign-in checks for the profile
    await this.inPinQueue(`change|${actor.id}`, () => this.checkCurrentPin(actor.id, pin, client));
  }

  private async checkCurrentPin(userId: string, pin: string, client: string): Promise<void> {
    const { throttle } = this.deps;
    const user = await this.deps.store.findUser(userId);
    if (!user) throw new UnauthorizedError();
    const block = throttle.blocked(userId, client);
    if (block) throw this.lockedError(block);
    const ok = PIN_PATTERN.test(pin) && (await this.deps.pinSlots.run(() => verifyPinHash(pin, user.pinHash)));
    if (ok) {
      throttle.succeeded(userId, client);
      await this.deps.pinState.settled();
      return;
    }
    const failure = throttle.failed(userId, client);
    await this.deps.pinState.settled();
    if (failure.locked) {
      this.deps.logger.warn({ userId, client, scope: failure.locked.scope }, 'PIN check locked after repeated wrong PINs');
      throw this.lockedError(failure.locked);
    }
    const left = failure.triesLeft;
    throw new UnauthorizedError(
      `That is not your current PIN. ${left} ${left === 1 ? 'try' : 'tries'} left on this device before a ${formatWait(failure.nextLockMs, true)} lock.`,
      'invalid_pin',
    );
  }

  private lockedError(block: PinBlock): TooManyRequestsError {
    const seconds = Math.max(1, Math.ceil(block.retryAfterMs / 1000));
    const what = block.scope === 'profile' ? 'for this profile on this device' : 'from this device';
    return new TooManyRequestsError(
      'locked_out',
      `Too many wrong PINs ${what}. Try again in ${formatWait(block.retryAfterMs)}, or ask an admin to unlock the profile in Members.`,
      seconds,
    );
  }

  private async verifyPinNow(userId: string, pin: string, client: string, opts: { device?: string; userAgent?: string }, trusted: boolean): Promise<SignIn> {
    const { store, throttle } = this.deps;
    const user = await store.findUser(userId);
    if (!user) throw new NotFoundError('That profile does not exist.');
    let block = throttle.blocked(user.id, client);
    if (block) throw this.lockedError(block);
    const wait = trusted ? 0 : throttle.takeTurn(user.id);
    if (wait > 0) {
      await sleep(wait, undefined, { ref: false });
      // another profile's wrong PINs from this device may have locked it meanwhile
      block = throttle.blocked(user.id, client);
      if (block) throw this.lockedError(block);
    }
    const ok = PIN_PATTERN.test(pin) && (await this.deps.pinSlots.run(() => verifyPinHash(pin, user.pinHash), trusted));
    if (!ok) {
      const failure = throttle.failed(user.id, client);
      // the count is on disk before the answer: a crash right after a wrong PIN does not undo it
      await this.deps.pinState.settled();
      if (failure.locked) {
        this.deps.logger.warn({ userId: user.id, client, scope: failure.locked.scope }, 'PIN sign-in locked after repeated wrong PINs');
        throw this.lockedError(failure.locked);
      }
      const left = failure.triesLeft;
      throw new UnauthorizedError(
        `That PIN is not right. ${left} ${left === 1 ? 'try' : 'tries'} left on this device before a ${formatWait(failure.nextLockMs, true)} lock.`,
        'invalid_pin',
      );
    }
    throttle.succeeded(user.id, client);
    const device = opts.device ?? randomBytes(32).toString('base64url');
    const key = hashToken(device);
    this.trustedDevices.set(key, new Set(this.trustedDevices.get(key)).add(user.id));
    this.deps.pinState.trustDevice(key, user.id, this.now().toISOString());
    await this.deps.pinState.settled();
    return { ...(await this.startSession(user, opts.userAgent)), device };
  }

  private async startSession(user: UserRecord, userAgent?: string): Promise<SignIn> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.deps.store.insertSession({
      id: randomUUID(),
      tokenHash: hashToken(token),
      userId: user.id,
      createdAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
      userAgent: userAgent?.slice(0, 300) ?? null,
    });
    return { user: toPublicUser(user), token, maxAgeMs: SESSION_TTL_MS };
  }

  async resolveSession(token: string): Promise<{ actor: UserActor; refreshedMaxAgeMs?: number } | null> {
    const found = await this.deps.store.findSessionByTokenHash(hashToken(token));
    if (!found) return null;
    const { session, user } = found;
    const now = this.now();
    if (new Date(session.expiresAt) <= now) {
      await this.deps.store.deleteSession(session.id);
      return null;
    }
    const actor: UserActor = { kind: 'user', id: user.id, name: user.name, role: user.role, sessionId: session.id };
    if (now.getTime() - new Date(session.lastSeenAt).getTime() < SESSION_REFRESH_AFTER_MS) return { actor };
    await this.deps.store.touchSession(session.id, now.toISOString(), new Date(now.getTime() + SESSION_TTL_MS).toISOString());
    return { actor, refreshedMaxAgeMs: SESSION_TTL_MS };
  }

  async logout(actor: UserActor): Promise<void> {
    await this.deps.store.deleteSession(actor.sessionId);
  }

  /** The signed-in user and their language and region, or nulls when the request has no session (or its user is gone). */
  async sessionUser(actor: UserActor | undefined): Promise<SessionResponse> {
    const u = actor ? await this.deps.store.findUser(actor.id) : null;
    return u && actor ? { user: toPublicUser(u), locale: await this.deps.locale.effective(actor) } : { user: null, locale: null };
  }

  async me(actor: UserActor): Promise<MeResponse> {
    const u = await this.deps.store.findUser(actor.id);
    if (!u) throw new UnauthorizedError();
    return { user: toPublicUser(u), locale: await this.deps.locale.effective(actor) };
  }

  async sweepExpiredSessions(): Promise<number> {
    return this.deps.store.deleteExpiredSessions(this.now().toISOString());
  }

  // ---- first-run and member management ----

  /** Creates the first admin and signs them in; 409 admin_exists once any admin exists. */
  async createFirstAdmin(name: string, pin: string, userAgent?: string): Promise<SignIn> {
    // checked before hashing, so the route costs nothing once setup is done (and again below, in
    // the transaction, for two requests racing to be first)
    if (await this.hasAdmin()) throw this.adminExists();
    const pinHash = await this.hash(pin);
    const user = await this.deps.store.transaction(async (tx) => {
      if ((await tx.countAdmins()) > 0) throw this.adminExists();
      return this.deps.members.insertUser(tx, { name, role: 'admin', avatar: null }, pinHash);
    });
    this.deps.logger.info({ userId: user.id }, 'first admin created');
    return this.startSession(user, userAgent);
  }

  private adminExists(): ConflictError {
    return new ConflictError('admin_exists', 'This household already has an admin. Sign in from the profile picker.');
  }

  private hash(pin: string): Promise<string> {
    return this.deps.hash(pin);
  }

  // Member management (admins): MembersService.
  listUsers(actor: Actor): Promise<AdminUser[]> {
    return this.deps.members.listUsers(actor);
  }
  unlockUser(actor: Actor, id: string): Promise<AdminUser> {
    return this.deps.members.unlockUser(actor, id);
  }
  createUser(actor: Actor, body: CreateUserBody): Promise<PublicUser> {
    return this.deps.members.createUser(actor, body);
  }
  updateUser(actor: Actor, id: string, body: UpdateUserBody): Promise<PublicUser> {
    return this.deps.members.updateUser(actor, id, body);
  }
  deleteUser(actor: Actor, id: string): Promise<void> {
    return this.deps.members.deleteUser(actor, id);
  }
}
