// What each member may see and do with the household's Home Assistant (issue 37): the entities an
// admin exposed, within the member's rights (rights.ts), grouped by area; the live changes of those
// only; actions checked here (403 not usable, 409 a guarded one without confirm, 422 a service the
// domain does not offer) before Home Assistant is asked (422 refused, 503 down or no answer in
// 10 s); every action asked for is written to the activity log. The admin side: exposure, rights.
import { homeAssistantAppError, homeAssistantDown, homeAssistantFailureKind, homeAssistantStatusSentence } from '../../adapter-errors/smart-home.js';
import type { HaChange, HaEntityState } from '../../adapters/smart-home/home-assistant.js';
import { assertAdmin, isAdmin, type Actor, type UserActor } from '../../actor.js';
import { AppError, ConflictError, ForbiddenError, NotFoundError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { ConnectionService } from './connection-service.js';
import type { HomeAssistantPorts } from './ports.js';
import { defaultRights, domainOf, guardedByDefault, maySee, nameOf, servicesOf, trimAttributes, type Rights } from './rights.js';
import type {
  ActionBody,
  ActivityEntry,
  AreaView,
  ConnectionStatus,
  EntitiesResponse,
  EntityView,
  ExposedResponse,
  FavouritesResponse,
  MemberRights,
  PutExposedBody,
  PutFavouritesBody,
  PutMemberBody,
} from './schema.js';
import type { HomeAssistantStore } from './store.js';

export interface ControlDeps extends Pick<HomeAssistantPorts, 'users' | 'content'> {
  store: HomeAssistantStore;
  connection: ConnectionService;
  clock: Clock;
}

/** What a stream sink receives. */
export interface StreamSink {
  entity(view: EntityView): void;
  removed(id: string): void;
  status(status: ConnectionStatus, message: string | null): void;
}

/** One caller's view: what they may see and how guarded entities treat them. */
interface Scope {
  rights: Rights;
  exposed: Map<string, boolean>;
}

export class ControlService {
  /** Moves whenever exposure or rights change, so an open stream looks at its scope again. */
  private version = 0;

  constructor(private readonly deps: ControlDeps) {}

  private async isChild(userId: string): Promise<boolean> {
    return (await this.deps.content.effective(userId)).level === 'child';
  }

  private async rightsOf(userId: string): Promise<{ rights: Rights; custom: boolean; child: boolean }> {
    const child = await this.isChild(userId);
    const row = (await this.deps.store.rights()).get(userId);
    return row ? { rights: { allowed: row.allowed, guarded: row.guarded }, custom: true, child } : { rights: defaultRights(child), custom: false, child };
  }

  private async scope(actor: UserActor): Promise<Scope> {
    return { rights: (await this.rightsOf(actor.id)).rights, exposed: await this.deps.store.exposed() };
  }

  private guarded(scope: Scope, st: HaEntityState): boolean {
    return guardedByDefault(st.entityId, st.attributes) || scope.exposed.get(st.entityId) === true;
  }

  private visible(scope: Scope, st: HaEntityState): boolean {
    return maySee(scope.rights, scope.exposed, st.entityId, this.guarded(scope, st));
  }

  private view(scope: Scope, st: HaEntityState): EntityView {
    return {
      id: st.entityId,
      name: nameOf(st.entityId, st.attributes),
      domain: domainOf(st.entityId),
      state: st.state,
      attributes: trimAttributes(st.attributes),
      guarded: this.guarded(scope, st),
      services: [...servicesOf(st.entityId)],
    };
  }

  private statusMessage(status: ConnectionStatus, admin: boolean): string | null {
    if (status === 'connected') return null;
    if (status === 'not_set') return admin ? 'Home Assistant is not connected yet. Connect it on the Smart home admin page.' : 'Home Assistant is not connected yet. Ask an admin to connect it.';
    return homeAssistantStatusSentence(status);
  }

  /** The entities the caller may see, grouped by area (areas by name, entities by name; those without an area last). */
  async entities(actor: UserActor): Promise<EntitiesResponse> {
    const status = this.deps.connection.status();
    const conn = this.deps.connection.connection();
    const message = this.statusMessage(status, isAdmin(actor));
    if (!conn || conn.states.size === 0) return { status, message, areas: [] };
    const scope = await this.scope(actor);
    const byArea = new Map<string | null, EntityView[]>();
    for (const st of conn.states.values()) {
      if (!this.visible(scope, st)) continue;
      const area = conn.entityArea.get(st.entityId) ?? null;
      const key = area && conn.areas.has(area) ? area : null;
      byArea.set(key, [...(byArea.get(key) ?? []), this.view(scope, st)]);
    }
    const areas: AreaView[] = [...byArea.entries()].map(([id, entities]) => ({
      id,
      name: id ? conn.areas.get(id)!.name : 'Other',
      entities: entities.sort((a, b) => a.name.localeCompare(b.name)),
    }));
    areas.sort((a, b) => (a.id === null ? 1 : b.id === null ? -1 : a.name.localeCompare(b.name)));
    return { status, message, areas };
  }

  /** One entity the caller may see, or null. */
  async entity(actor: UserActor, entityId: string): Promise<EntityView | null> {
    const st = this.deps.connection.connection()?.states.get(entityId);
    if (!st) return null;
    const scope = await this.scope(actor);
    return this.visible(scope, st) ? this.view(scope, st) : null;
  }

  /** The caller's favourite devices they may still see, in their order (private: only their own). */
  async favourites(actor: UserActor): Promise<FavouritesResponse> {
    const status = this.deps.connection.status();
    const message = this.statusMessage(status, isAdmin(actor));
    const states = this.deps.connection.connection()?.states;
    if (!states || states.size === 0) return { status, message, entities: [] };
    const scope = await this.scope(actor);
    const entities: EntityView[] = [];
    for (const id of await this.deps.store.favourites(actor.id)) {
      const st = states.get(id);
      if (st && this.visible(scope, st)) entities.push(this.view(scope, st));
    }
    return { status, message, entities };
  }

  /** Replaces the caller's favourites: each must be a device they may see now (403 otherwise); needs Home Assistant connected to tell. */
  async setFavourites(actor: UserActor, body: PutFavouritesBody): Promise<FavouritesResponse> {
    const conn = this.deps.connection.connection();
    if (!conn || conn.status !== 'connected') throw homeAssistantDown();
    const ids = [...new Set(body.entityIds)];
    const scope = await this.scope(actor);
    for (const id of ids) {
      const st = conn.states.get(id);
      if (!st || !this.visible(scope, st)) throw new ForbiddenError('One of those is not a device you may use. An admin decides which devices each member of the household may use.', 'not_allowed');
    }
    await this.deps.store.replaceFavourites(actor.id, ids);
    return this.favourites(actor);
  }

  /** Sends the changes of the entities the caller may see until the signal aborts. */
  async stream(actor: UserActor, sink: StreamSink, signal: AbortSignal): Promise<void> {
    let scope = await this.scope(actor);
    let at = this.version;
    const admin = isAdmin(actor);
    sink.status(this.deps.connection.status(), this.statusMessage(this.deps.connection.status(), admin));
    // changes are handled in order, one at a time, so a refreshed scope never races an older change
    let chain = Promise.resolve();
    const onChange = (c: HaChange) => {
      chain = chain.then(async () => {
        if (signal.aborted) return;
        if (at !== this.version) {
          at = this.version;
          scope = await this.scope(actor);
        }
        const states = this.deps.connection.connection()?.states;
        for (const id of c.changed) {
          const st = states?.get(id);
          if (st && this.visible(scope, st)) sink.entity(this.view(scope, st));
        }
        for (const id of c.removed) if (scope.exposed.has(id)) sink.removed(id);
      });
    };
    const offChange = this.deps.connection.onChange(onChange);
    const offStatus = this.deps.connection.onStatus((s) => sink.status(s, this.statusMessage(s, admin)));
    try {
      await new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    } finally {
      offChange();
      offStatus();
    }
  }

  private async log(actor: UserActor, entityId: string, service: string, source: 'app' | 'chat', outcome: ActivityEntry['outcome']): Promise<void> {
    await this.deps.store.addActivity({ userId: actor.id, userName: actor.name, entityId, service, source, outcome, at: this.deps.clock.now().toISOString() });
  }

  /**
   * Checks an action without running it: the entity's view when the caller may ask for it, or the
   * refusal (403 not usable, 422 a service its domain does not offer, 409 guarded without confirm).
   */
  async check(actor: UserActor, entityId: string, body: ActionBody, source: 'app' | 'chat'): Promise<{ view: EntityView }> {
    const conn = this.deps.connection.connection();
    if (!conn || conn.status !== 'connected') throw homeAssistantDown();
    const st = conn.states.get(entityId);
    const scope = await this.scope(actor);
    if (!st || !this.visible(scope, st)) {
      if (st && scope.exposed.has(entityId)) await this.log(actor, entityId, body.service, source, 'denied');
      throw new ForbiddenError('You may not use that device. An admin decides which devices each member of the household may use.', 'not_allowed');
    }
    const view = this.view(scope, st);
    if (!view.services.includes(body.service)) throw new UnprocessableError('service_not_offered', `${view.name} cannot do that from Hearth.`);
    if (view.guarded && body.confirm !== true)
      throw new ConflictError('confirmation_required', `${view.name} is a guarded device: confirm that you want to do this.`, { entity: view.id, service: body.service });
    return { view };
  }

  /** Runs an action on an entity the caller may use; the entity as it is afterwards (null when it left the caller's view). */
  async action(actor: UserActor, entityId: string, body: ActionBody, source: 'app' | 'chat' = 'app'): Promise<EntityView | null> {
    await this.check(actor, entityId, body, source);
    const conn = this.deps.connection.connection()!;
    try {
      await conn.callService(domainOf(entityId), body.service, entityId, body.data ?? {});
    } catch (err) {
      const kind = homeAssistantFailureKind(err);
      await this.log(actor, entityId, body.service, source, kind === 'refused' ? 'refused' : 'unavailable');
      const mapped = homeAssistantAppError(err);
      throw mapped instanceof AppError ? mapped : err;
    }
    await this.log(actor, entityId, body.service, source, 'done');
    return this.entity(actor, entityId);
  }

  // ---- admin ----------------------------------------------------------------------------------

  async exposedList(actor: Actor): Promise<ExposedResponse> {
    assertAdmin(actor);
    const conn = this.deps.connection.connection();
    const exposed = await this.deps.store.exposed();
    const entities = [...(conn?.states.values() ?? [])].map((st) => {
      const area = conn?.entityArea.get(st.entityId);
      const byDefault = guardedByDefault(st.entityId, st.attributes);
      return {
        id: st.entityId,
        name: nameOf(st.entityId, st.attributes),
        domain: domainOf(st.entityId),
        area: area ? (conn?.areas.get(area)?.name ?? null) : null,
        state: st.state,
        exposed: exposed.has(st.entityId),
        guarded: byDefault || exposed.get(st.entityId) === true,
        guardedByDefault: byDefault,
      };
    });
    entities.sort((a, b) => a.id.localeCompare(b.id));
    return { status: this.deps.connection.status(), entities };
  }

  async putExposed(actor: Actor, body: PutExposedBody): Promise<{ exposed: string[]; guarded: string[] }> {
    assertAdmin(actor);
    const ids = [...new Set(body.entityIds)].sort();
    const guarded = new Set((body.guarded ?? []).filter((g) => ids.includes(g)));
    await this.deps.store.replaceExposed(ids, guarded);
    this.version++;
    return { exposed: ids, guarded: [...guarded].sort() };
  }

  private async memberView(userId: string, name: string): Promise<MemberRights> {
    const { rights, custom, child } = await this.rightsOf(userId);
    return { userId, name, allowed: rights.allowed, guarded: rights.guarded, child, custom };
  }

  async members(actor: Actor): Promise<MemberRights[]> {
    assertAdmin(actor);
    const users = await this.deps.users.listProfiles();
    return Promise.all(users.map((u) => this.memberView(u.id, u.name)));
  }

  async putMember(actor: Actor, userId: string, body: PutMemberBody): Promise<MemberRights> {
    assertAdmin(actor);
    const user = await this.deps.users.getUser(userId);
    if (!user) throw new NotFoundError('That member is not in the household (they may have been removed).');
    const allowed = body.allowed === 'all-exposed' ? body.allowed : [...new Set(body.allowed)].sort();
    await this.deps.store.saveRights({ userId, allowed, guarded: body.guarded }, this.deps.clock.now().toISOString());
    this.version++;
    return this.memberView(user.id, user.name);
  }

  async activity(actor: Actor): Promise<ActivityEntry[]> {
    assertAdmin(actor);
    return this.deps.store.activity(200);
  }
}
