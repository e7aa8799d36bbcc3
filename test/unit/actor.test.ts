import { describe, expect, it } from 'vitest';
import { assertAdmin, isAdmin, ownedOrNotFound, SYSTEM_ACTOR, type UserActor } from '../../server/actor.js';
import { ForbiddenError, NotFoundError } from '../../server/errors.js';

const admin: UserActor = { kind: 'user', id: 'a', name: 'Ada', role: 'admin', sessionId: 's1' };
const member: UserActor = { kind: 'user', id: 'm', name: 'Max', role: 'member', sessionId: 's2' };
const missing = () => new NotFoundError('That item does not exist.');

describe('assertAdmin', () => {
  it('lets an admin and the system through and refuses a member with 403 forbidden', () => {
    expect(() => assertAdmin(admin)).not.toThrow();
    expect(() => assertAdmin(SYSTEM_ACTOR)).not.toThrow();
    expect(() => assertAdmin(member)).toThrow(ForbiddenError);
    expect([isAdmin(admin), isAdmin(SYSTEM_ACTOR), isAdmin(member)]).toEqual([true, true, false]);
  });
});

describe('ownedOrNotFound', () => {
  it('returns the actor’s own row', () => {
    const row = { id: 'r', ownerId: 'm' };
    expect(ownedOrNotFound(member, row, missing)).toBe(row);
  });

  it('reports another member’s row, and a missing one, as not found (never forbidden), even to an admin', () => {
    expect(() => ownedOrNotFound(member, { ownerId: 'a' }, missing)).toThrow(NotFoundError);
    expect(() => ownedOrNotFound(admin, { ownerId: 'm' }, missing)).toThrow(NotFoundError);
    expect(() => ownedOrNotFound(member, null, missing)).toThrow(NotFoundError);
  });

  it('returns a household row (no owner) only when asked to', () => {
    const shared = { ownerId: null };
    expect(ownedOrNotFound(member, shared, missing, { household: true })).toBe(shared);
    expect(() => ownedOrNotFound(member, shared, missing)).toThrow(NotFoundError);
  });
});
