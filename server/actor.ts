// Who is asking. Routes pass req.actor to services; jobs and boot steps pass SYSTEM_ACTOR.
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

export const isAdmin = (actor: Actor): boolean => actor.kind === 'system' || actor.role === 'admin';
