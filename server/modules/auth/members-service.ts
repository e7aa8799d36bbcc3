// Household member management by admins: the members with their locks, adding, changing and
// removing members, with the unique-name and last-admin rules. Signing in is AuthService's.
import { randomUUID } from 'node:crypto';
import { assertAdmin, type Actor } from '../../actor.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { EventBus } from '../../platform/event-bus.js';
import type { Logger } from '../../platform/logger.js';
import type { PinStateJournal } from './pin-state.js';
import type { AdminUser, CreateUserBody, PublicUser, UpdateUserBody } from './schema.js';
import type { AuthStore, UserRecord } from './store.js';
import type { PinThrottle } from './throttle.js';

export interface MembersDeps {
  store: AuthStore;
  clock: Clock;
  logger: Logger;
  throttle: PinThrottle;
  pinState: PinStateJournal;
  /** A new PIN's hash (module.ts: within the PIN hash slots, at the configured cost). */
  hash: (pin: string) => Promise<string>;
  /** Tells the other modules a member was deleted (their files are not rows). */
  bus: EventBus;
}

/** Profile names are unique ignoring case and Unicode form ("Émile" and "émile" are one name). */
const nameKey = (name: string) => name.normalize('NFKC').toLowerCase();
export const toPublicUser = (u: UserRecord): PublicUser => ({ id: u.id, name: u.name, role: u.role, avatar: u.avatar });

export class MembersService {
  constructor(private readonly deps: MembersDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  private hash(pin: string): Promise<string> {
    return this.deps.hash(pin);
  }

  /** The user going by this name, ignoring case: SQLite's NOCASE index only folds ASCII letters. */
  private async findByName(store: AuthStore, name: string): Promise<UserRecord | null> {
    const key = nameKey(name);
    return (await store.listUsers()).find((u) => nameKey(u.name) === key) ?? null;
  }

  private async assertNameFree(store: AuthStore, name: string, exceptId?: string): Promise<void> {
    const holder = await this.findByName(store, name);
    if (holder && holder.id !== exceptId) throw new ConflictError('name_taken', `Someone in the household is already called ${name}.`);
  }

  /** Adds a member (the name checked free in `store`, a transaction or not) with an already hashed PIN. */
  async insertUser(store: AuthStore, u: { name: string; role: UserRecord['role']; avatar: string | null | undefined }, pinHash: string): Promise<UserRecord> {
    await this.assertNameFree(store, u.name);
    const now = this.now().toISOString();
    const record = { id: randomUUID(), name: u.name, role: u.role, avatar: u.avatar ?? null, pinHash, createdAt: now, updatedAt: now };
    await store.insertUser(record);
    return record;
  }

  /** The members with, for admins, when a lock on their profile ends (null when there is none). */
  async listUsers(actor: Actor): Promise<AdminUser[]> {
    assertAdmin(actor);
    return (await this.deps.store.listUsers()).map(toPublicUser).map((u) => ({ ...u, lockedUntil: this.deps.throttle.lockedUntil(u.id)?.toISOString() ?? null }));
  }

  /** Lifts every PIN lock on a member's profile, on every device. */
  async unlockUser(actor: Actor, id: string): Promise<AdminUser> {
    assertAdmin(actor);
    const user = await this.deps.store.findUser(id);
    if (!user) throw new NotFoundError('That household member does not exist.');
    this.deps.throttle.unlock(id);
    await this.deps.pinState.settled();
    this.deps.logger.info({ userId: id }, 'PIN locks lifted by an admin');
    return { ...toPublicUser(user), lockedUntil: null };
  }

  async createUser(actor: Actor, body: CreateUserBody): Promise<PublicUser> {
    assertAdmin(actor);
    await this.assertNameFree(this.deps.store, body.name);
    const pinHash = await this.hash(body.pin);
    const user = await this.deps.store.transaction((tx) => this.insertUser(tx, { name: body.name, role: body.role, avatar: body.avatar }, pinHash));
    return toPublicUser(user);
  }

  /** The refusals an update can meet; run before hashing a new PIN and again in the transaction. */
  private async assertUpdatable(store: AuthStore, id: string, body: UpdateUserBody): Promise<UserRecord> {
    const user = await store.findUser(id);
    if (!user) throw new NotFoundError('That household member does not exist.');
    if (body.name !== undefined) await this.assertNameFree(store, body.name, id);
    if (body.role === 'member' && user.role === 'admin' && (await store.countAdmins()) <= 1) {
      throw new ConflictError('last_admin', 'The household needs at least one admin. Make someone else an admin first.');
    }
    return user;
  }

  async updateUser(actor: Actor, id: string, body: UpdateUserBody): Promise<PublicUser> {
    assertAdmin(actor);
    let pinHash: string | undefined;
    if (body.pin !== undefined) {
      await this.assertUpdatable(this.deps.store, id, body);
      pinHash = await this.hash(body.pin);
    }
    const updated = await this.deps.store.transaction(async (tx) => {
      await this.assertUpdatable(tx, id, body);
      await tx.updateUser(id, { name: body.name, role: body.role, avatar: body.avatar, pinHash, updatedAt: this.now().toISOString() });
      // A new PIN signs the member out on their other devices.
      if (pinHash) await tx.deleteSessionsOfUser(id, actor.kind === 'user' ? actor.sessionId : undefined);
      return (await tx.findUser(id))!;
    });
    // ...and lifts any lock: the guesses were at the old PIN
    if (pinHash) {
      this.deps.throttle.unlock(id);
      await this.deps.pinState.settled();
    }
    return toPublicUser(updated);
  }

  async deleteUser(actor: Actor, id: string): Promise<void> {
    assertAdmin(actor);
    await this.deps.store.transaction(async (tx) => {
      const user = await tx.findUser(id);
      if (!user) throw new NotFoundError('That household member does not exist.');
      if (user.role === 'admin' && (await tx.countAdmins()) <= 1) {
        throw new ConflictError('last_admin', 'The household needs at least one admin. Make someone else an admin first.');
      }
      // sessions, preferences and every per-user row go with the user (ON DELETE CASCADE)
      await tx.deleteUser(id);
    });
    this.deps.throttle.unlock(id);
    await this.deps.pinState.settled();
    this.deps.bus.emit('user.deleted', { userId: id });
  }
}
