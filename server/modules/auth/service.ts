// Profiles, PIN sign-in with lockout, sessions (opaque tokens stored hashed, 30-day sliding
// expiry) and household member management with the last-admin rule.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Actor, UserActor } from '../../actor.js';
import { ConflictError, ForbiddenError, NotFoundError, TooManyRequestsError, UnauthorizedError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { EventBus } from '../../platform/event-bus.js';
import type { Logger } from '../../platform/logger.js';
import { hashPin, verifyPinHash } from './pin.js';
import {
  LOCKOUT_MS,
  MAX_FAILED_PINS,
  PIN_PATTERN,
  SESSION_REFRESH_AFTER_MS,
  SESSION_TTL_MS,
  type CreateUserBody,
  type PublicUser,
  type UpdateUserBody,
} from './schema.js';
import type { AuthStore, UserRecord } from './store.js';

export interface AuthDeps {
  store: AuthStore;
  clock: Clock;
  bus: EventBus;
  logger: Logger;
}

export interface SignIn {
  user: PublicUser;
  token: string;
  maxAgeMs: number;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
/** Profile names are unique ignoring case and Unicode form ("Émile" and "émile" are one name). */
const nameKey = (name: string) => name.normalize('NFKC').toLowerCase();
export const toPublicUser = (u: UserRecord): PublicUser => ({ id: u.id, name: u.name, role: u.role, avatar: u.avatar });

export class AuthService {
  /** PIN checks for one profile run one at a time, so parallel guesses cannot outrun the lockout. */
  private readonly pinQueues = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: AuthDeps) {}

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

  async select(userId: string): Promise<{ userId: string; name: string }> {
    const u = await this.deps.store.findUser(userId);
    if (!u) throw new NotFoundError('That profile does not exist.');
    return { userId: u.id, name: u.name };
  }

  verifyPin(userId: string, pin: string, userAgent?: string): Promise<SignIn> {
    const previous = this.pinQueues.get(userId) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.verifyPinNow(userId, pin, userAgent));
    this.pinQueues.set(userId, run);
    void run.finally(() => {
      if (this.pinQueues.get(userId) === run) this.pinQueues.delete(userId);
    }).catch(() => undefined);
    return run;
  }

  private lockedError(lockedUntil: Date): TooManyRequestsError {
    const seconds = Math.max(1, Math.ceil((lockedUntil.getTime() - this.now().getTime()) / 1000));
    const minutes = Math.ceil(seconds / 60);
    return new TooManyRequestsError('locked_out', `Too many wrong PINs. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, seconds);
  }

  private async verifyPinNow(userId: string, pin: string, userAgent?: string): Promise<SignIn> {
    const { store } = this.deps;
    const user = await store.findUser(userId);
    if (!user) throw new NotFoundError('That profile does not exist.');
    const now = this.now();
    if (user.lockedUntil && new Date(user.lockedUntil) > now) throw this.lockedError(new Date(user.lockedUntil));
    const ok = PIN_PATTERN.test(pin) && (await verifyPinHash(pin, user.pinHash));
    if (!ok) {
      const failed = user.failedPinCount + 1;
      if (failed >= MAX_FAILED_PINS) {
        const until = new Date(this.now().getTime() + LOCKOUT_MS);
        await store.updateUser(user.id, { failedPinCount: 0, lockedUntil: until.toISOString() });
        this.deps.logger.warn({ userId: user.id }, 'profile locked after repeated wrong PINs');
        throw this.lockedError(until);
      }
      await store.updateUser(user.id, { failedPinCount: failed, lockedUntil: null });
      const left = MAX_FAILED_PINS - failed;
      throw new UnauthorizedError(`That PIN is not right. ${left} ${left === 1 ? 'try' : 'tries'} left before a 5-minute lock.`, 'invalid_pin');
    }
    if (user.failedPinCount !== 0 || user.lockedUntil) await store.updateUser(user.id, { failedPinCount: 0, lockedUntil: null });
    return this.startSession(user, userAgent);
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

  async me(actor: UserActor): Promise<PublicUser> {
    const u = await this.deps.store.findUser(actor.id);
    if (!u) throw new UnauthorizedError();
    return toPublicUser(u);
  }

  async sweepExpiredSessions(): Promise<number> {
    return this.deps.store.deleteExpiredSessions(this.now().toISOString());
  }

  // ---- first-run and member management ----

  /** Creates the first admin and signs them in; 409 admin_exists once any admin exists. */
  async createFirstAdmin(name: string, pin: string, userAgent?: string): Promise<SignIn> {
    const pinHash = await hashPin(pin);
    const user = await this.deps.store.transaction(async (tx) => {
      if ((await tx.countAdmins()) > 0) throw new ConflictError('admin_exists', 'This household already has an admin. Sign in from the profile picker.');
      return this.insertUser(tx, { name, role: 'admin', avatar: null }, pinHash);
    });
    this.deps.logger.info({ userId: user.id }, 'first admin created');
    return this.startSession(user, userAgent);
  }

  /** The user going by this name, ignoring case: SQLite's NOCASE index only folds ASCII letters. */
  private async findByName(store: AuthStore, name: string): Promise<UserRecord | null> {
    const key = nameKey(name);
    return (await store.listUsers()).find((u) => nameKey(u.name) === key) ?? null;
  }

  private async insertUser(store: AuthStore, u: { name: string; role: UserRecord['role']; avatar: string | null | undefined }, pinHash: string): Promise<UserRecord> {
    if (await this.findByName(store, u.name)) throw new ConflictError('name_taken', `Someone in the household is already called ${u.name}.`);
    const now = this.now().toISOString();
    const record = { id: randomUUID(), name: u.name, role: u.role, avatar: u.avatar ?? null, pinHash, createdAt: now, updatedAt: now };
    await store.insertUser(record);
    return { ...record, failedPinCount: 0, lockedUntil: null };
  }

  private assertAdmin(actor: Actor): void {
    if (actor.kind === 'user' && actor.role !== 'admin') throw new ForbiddenError();
  }

  async listUsers(actor: Actor): Promise<PublicUser[]> {
    this.assertAdmin(actor);
    return this.listProfiles();
  }

  async createUser(actor: Actor, body: CreateUserBody): Promise<PublicUser> {
    this.assertAdmin(actor);
    const pinHash = await hashPin(body.pin);
    const user = await this.deps.store.transaction((tx) => this.insertUser(tx, { name: body.name, role: body.role, avatar: body.avatar }, pinHash));
    return toPublicUser(user);
  }

  async updateUser(actor: Actor, id: string, body: UpdateUserBody): Promise<PublicUser> {
    this.assertAdmin(actor);
    const pinHash = body.pin !== undefined ? await hashPin(body.pin) : undefined;
    const updated = await this.deps.store.transaction(async (tx) => {
      const user = await tx.findUser(id);
      if (!user) throw new NotFoundError('That household member does not exist.');
      if (body.name !== undefined) {
        const holder = await this.findByName(tx, body.name);
        if (holder && holder.id !== id) throw new ConflictError('name_taken', `Someone in the household is already called ${body.name}.`);
      }
      if (body.role === 'member' && user.role === 'admin' && (await tx.countAdmins()) <= 1) {
        throw new ConflictError('last_admin', 'The household needs at least one admin. Make someone else an admin first.');
      }
      await tx.updateUser(id, {
        name: body.name,
        role: body.role,
        avatar: body.avatar,
        pinHash,
        // A new PIN clears any lockout and signs the member out on their other devices.
        ...(pinHash ? { failedPinCount: 0, lockedUntil: null } : {}),
        updatedAt: this.now().toISOString(),
      });
      if (pinHash) await tx.deleteSessionsOfUser(id, actor.kind === 'user' ? actor.sessionId : undefined);
      return (await tx.findUser(id))!;
    });
    return toPublicUser(updated);
  }

  async deleteUser(actor: Actor, id: string): Promise<void> {
    this.assertAdmin(actor);
    await this.deps.store.transaction(async (tx) => {
      const user = await tx.findUser(id);
      if (!user) throw new NotFoundError('That household member does not exist.');
      if (user.role === 'admin' && (await tx.countAdmins()) <= 1) {
        throw new ConflictError('last_admin', 'The household needs at least one admin. Make someone else an admin first.');
      }
      // sessions, preferences and every per-user row go with the user (ON DELETE CASCADE)
      await tx.deleteUser(id);
    });
    this.deps.bus.emit('user.deleted', { userId: id });
  }
}
