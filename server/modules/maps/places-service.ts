// Saved places: a member's own (private: nobody else, admins included, sees or changes them) and
// the household's (home, school), which every member sees and only admins change.
import { randomUUID } from 'node:crypto';
import { assertAdmin, ownedOrNotFound, type UserActor } from '../../actor.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { MAX_PLACES_PER_MEMBER, type Place } from './schema.js';
import type { PlaceRecord, PlacesStore } from './store.js';

type PlaceInput = { name: string; note: string; lat: number; lon: number };

const view = (p: PlaceRecord): Place => ({ id: p.id, name: p.name, note: p.note, lat: p.lat, lon: p.lon, household: p.ownerId === null, createdAt: p.createdAt, updatedAt: p.updatedAt });
const notFound = () => new NotFoundError('There is no such saved place.');

export class PlacesService {
  constructor(private readonly deps: { store: PlacesStore; clock: Clock }) {}

  async list(actor: UserActor): Promise<Place[]> {
    return (await this.deps.store.listFor(actor.id)).map(view);
  }

  async add(actor: UserActor, input: PlaceInput, opts: { household?: boolean } = {}): Promise<Place> {
    if (opts.household) assertAdmin(actor);
    else if ((await this.deps.store.countOwn(actor.id)) >= MAX_PLACES_PER_MEMBER) {
      throw new ConflictError('too_many_places', `You have ${MAX_PLACES_PER_MEMBER} saved places, the most Hearth keeps. Remove some to save more.`);
    }
    const now = this.deps.clock.now().toISOString();
    const place: PlaceRecord = { id: randomUUID(), ownerId: opts.household ? null : actor.id, ...input, createdAt: now, updatedAt: now };
    await this.deps.store.insert(place);
    return view(place);
  }

  /** Changes one of the caller's places, or (admins, `household`) a household place. */
  async change(actor: UserActor, id: string, patch: Partial<PlaceInput>, opts: { household?: boolean } = {}): Promise<Place> {
    const place = await this.editable(actor, id, opts);
    const next: PlaceRecord = { ...place, ...patch, updatedAt: this.deps.clock.now().toISOString() };
    await this.deps.store.update(next);
    return view(next);
  }

  async remove(actor: UserActor, id: string, opts: { household?: boolean } = {}): Promise<void> {
    await this.deps.store.delete((await this.editable(actor, id, opts)).id);
  }

  private async editable(actor: UserActor, id: string, opts: { household?: boolean }): Promise<PlaceRecord> {
    const row = await this.deps.store.get(id);
    if (opts.household) {
      assertAdmin(actor);
      if (!row || row.ownerId !== null) throw notFound();
      return row;
    }
    // a household place is changed on the admin's route; through a member's it is not theirs
    return ownedOrNotFound(actor, row, notFound);
  }
}
