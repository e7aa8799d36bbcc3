// Who is asking, and the checks made on it. Routes pass req.actor to services; jobs and boot steps
// pass SYSTEM_ACTOR. Services check roles and ownership only through the helpers below, so a module
// copied from another copies the check, not a hand-written variant of it.
import { ForbiddenError } from './errors.js';

export type Role = 'admin' | 'member';

export interface UserActor {
  kind: 'user';
  id: string;
  name: string;
  role: Role;
  sessionId: string;
}

export interface SystemActor {
  kind: 'system';
}

export type Actor = UserActor | SystemActor;

export const SYSTEM_ACTOR: SystemActor = { kind: 'system' };

/** The system (jobs, boot steps) acts with an admin's rights. */
export const isAdmin = (actor: Actor): boolean => actor.kind === 'system' || actor.role === 'admin';

/** Throws 403 forbidden unless the actor is an admin or the system. */
export function assertAdmin(actor: Actor): void {
  if (!isAdmin(actor)) throw new ForbiddenError();
}

/** Whether the actor owns a row; `ownerId` null is the household's (nobody's own). */
export const isOwner = (actor: UserActor, ownerId: string | null): boolean => ownerId !== null && ownerId === actor.id;

/**
 * The row when the actor may see it: its own, or (with `household: true`) one with no owner.
 * Anything else — missing or someone else's — throws `notFound()`: another member's rows are
 * reported as missing, never as forbidden (the spec's 404 for other users' items).
 */
export function ownedOrNotFound<T extends { ownerId: string | null }>(
  actor: UserActor,
  row: T | null | undefined,
  notFound: () => Error,
  opts: { household?: boolean } = {},
): T {
  if (!row) throw notFound();
  if (isOwner(actor, row.ownerId) || (opts.household === true && row.ownerId === null)) return row;
  throw notFound();
}
