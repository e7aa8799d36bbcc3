// A member's collections (created explicitly or on first use by name) and tags (created on first
// use by the store when applied to an item).
import type { UserActor } from '../../actor.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Collection, CreateCollectionBody, PatchCollectionBody, Tag } from './schema.js';
import type { ReaderCollectionsStore } from './collections-store.js';

export interface ReaderCollectionsDeps {
  store: ReaderCollectionsStore;
  clock: Clock;
}

export class ReaderCollectionsService {
  constructor(private readonly deps: ReaderCollectionsDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** The user's collection id for collectionId / collectionName (created on first use). */
  async resolve(actor: UserActor, collectionId: string | null | undefined, collectionName: string | undefined): Promise<string | null | undefined> {
    if (collectionName !== undefined) {
      const found = await this.deps.store.findCollectionByName(actor.id, collectionName);
      if (found) return found.id;
      const created = await this.deps.store.insertCollection({ ownerId: actor.id, name: collectionName, icon: null, color: null, sortOrder: 0 }, this.now());
      return (created ?? (await this.deps.store.findCollectionByName(actor.id, collectionName)))!.id;
    }
    if (collectionId === undefined || collectionId === null) return collectionId;
    if (!(await this.deps.store.findCollection(actor.id, collectionId))) throw new NotFoundError('That collection does not exist.');
    return collectionId;
  }

  list(actor: UserActor): Promise<Collection[]> {
    return this.deps.store.listCollections(actor.id);
  }

  async create(actor: UserActor, body: CreateCollectionBody): Promise<Collection> {
    const c = await this.deps.store.insertCollection({ ownerId: actor.id, name: body.name, icon: body.icon ?? null, color: body.color ?? null, sortOrder: 0 }, this.now());
    if (!c) throw new ConflictError('collection_exists', `You already have a collection named "${body.name}".`);
    return c;
  }

  async update(actor: UserActor, id: string, body: PatchCollectionBody): Promise<Collection> {
    const c = await this.deps.store.updateCollection(actor.id, id, body, this.now());
    if (c === 'missing') throw new NotFoundError('That collection does not exist.');
    if (c === 'duplicate') throw new ConflictError('collection_exists', `You already have a collection named "${body.name}".`);
    return c;
  }

  async remove(actor: UserActor, id: string): Promise<void> {
    if (!(await this.deps.store.deleteCollection(actor.id, id))) throw new NotFoundError('That collection does not exist.');
  }

  listTags(actor: UserActor): Promise<Tag[]> {
    return this.deps.store.listTags(actor.id);
  }
}
