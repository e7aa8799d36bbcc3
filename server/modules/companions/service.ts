// The rules of companions: a member sees (and chats with) a companion granted to them and at or
// below their Chat level; a household companion at `child` is granted to everyone unless an admin
// withholds it, any other only by a grant. Favorites are each member's own. Admins keep the roster.
import { randomUUID } from 'node:crypto';
import { assertAdmin, type Actor, type UserActor } from '../../actor.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { allows } from '../content/public.js';
import type { CompanionsPorts } from './ports.js';
import type { AdminCompanion, Companion, CompanionBody, CompanionPatchBody, MemberCompanion } from './schema.js';
import type { CompanionRecord, CompanionsStore } from './store.js';

export interface CompanionsDeps extends CompanionsPorts {
  store: CompanionsStore;
  clock: Clock;
}

const notFound = () => new NotFoundError('That companion is not there any more.');
const strip = ({ builtin: _builtin, ...c }: CompanionRecord): Companion => c;

export class CompanionsService {
  constructor(private readonly deps: CompanionsDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** The companions this member may use: granted (by default or by an admin) and within their Chat level. */
  private async usable(actor: UserActor): Promise<CompanionRecord[]> {
    const [all, grants, dials] = await Promise.all([this.deps.store.list(), this.deps.store.grants(), this.deps.content.effective(actor.id)]);
    const own = new Map(grants.filter((g) => g.userId === actor.id).map((g) => [g.companionId, g.granted]));
    return all.filter((c) => (own.get(c.id) ?? c.level === 'child') && allows(dials.chat, c.level));
  }

  async list(actor: UserActor): Promise<MemberCompanion[]> {
    const [usable, favorites] = await Promise.all([this.usable(actor), this.deps.store.favorites(actor.id)]);
    return usable.map((c) => ({ ...strip(c), favorite: favorites.has(c.id) }));
  }

  /** The companion a chat answer speaks as: 404 when there is none, 403 companion_not_allowed when it is not the member's. */
  async forChat(actor: UserActor, id: string): Promise<Companion> {
    const c = await this.deps.store.find(id);
    if (!c) throw notFound();
    if (!(await this.usable(actor)).some((u) => u.id === id)) throw new ForbiddenError(`${c.name} is not one of your companions. Ask an admin if you would like to use it.`, 'companion_not_allowed');
    return strip(c);
  }

  async setFavorite(actor: UserActor, id: string, favorite: boolean): Promise<{ id: string; favorite: boolean }> {
    if (!(await this.usable(actor)).some((u) => u.id === id)) throw notFound();
    await this.deps.store.setFavorite(id, actor.id, favorite, this.now());
    return { id, favorite };
  }

  // ---- admin ---------------------------------------------------------------------------------
  async adminList(actor: Actor): Promise<AdminCompanion[]> {
    assertAdmin(actor);
    const [all, grants] = await Promise.all([this.deps.store.list(), this.deps.store.grants()]);
    return all.map((c) => ({ ...c, grants: grants.filter((g) => g.companionId === c.id).map((g) => ({ userId: g.userId, granted: g.granted })) }));
  }

  private async adminOne(actor: Actor, id: string): Promise<AdminCompanion> {
    const found = (await this.adminList(actor)).find((c) => c.id === id);
    if (!found) throw notFound();
    return found;
  }

  async create(actor: Actor, body: CompanionBody): Promise<AdminCompanion> {
    assertAdmin(actor);
    const id = randomUUID();
    await this.deps.store.insert({ id, ...body }, this.now());
    return this.adminOne(actor, id);
  }

  async update(actor: Actor, id: string, body: CompanionPatchBody): Promise<AdminCompanion> {
    assertAdmin(actor);
    if (!(await this.deps.store.find(id))) throw notFound();
    await this.deps.store.update(id, body, this.now());
    return this.adminOne(actor, id);
  }

  async remove(actor: Actor, id: string): Promise<void> {
    assertAdmin(actor);
    const c = await this.deps.store.find(id);
    if (!c) throw notFound();
    if (c.builtin) throw new ConflictError('companion_builtin', `${c.name} comes with Hearth and cannot be deleted. Withhold it from members instead.`);
    await this.deps.store.delete(id);
  }

  async setGrant(actor: Actor, id: string, userId: string, granted: boolean): Promise<AdminCompanion> {
    assertAdmin(actor);
    if (!(await this.deps.store.find(id))) throw notFound();
    if (!(await this.deps.users.getUser(userId))) throw new NotFoundError('That member is not in the household.');
    await this.deps.store.setGrant(id, userId, granted, this.now());
    return this.adminOne(actor, id);
  }
}
