import { actorOf, clearSessionCookie, readDeviceToken, setDeviceCookie, setSessionCookie } from '../../http/auth.js';
import { clientOf, type RequestLimit } from '../../http/rate-limit.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import {
  AdminUserResponse,
  ChangePinBody,
  ChangePinResponse,
  CreateUserBody,
  isWeakPin,
  MeResponse,
  OkResponse,
  ProfilesResponse,
  SelectBody,
  SelectResponse,
  SessionResponse,
  UpdateUserBody,
  UserIdParams,
  UserPinResponse,
  UserResponse,
  UsersResponse,
  VerifyPinBody,
} from './schema.js';
import type { AuthService } from './service.js';

/** `signIn` limits requests per client to select and verify-pin together. */
export function createAuthRoutes(auth: AuthService, limits: { signIn: RequestLimit }) {
  return defineRoutes((r) => {
    r.get('/profiles', { access: 'none', response: ProfilesResponse }, async () => ({ profiles: await auth.listProfiles() }));

    r.post('/select', { access: 'none', limit: limits.signIn, response: SelectResponse }, (req) => auth.select(parse(SelectBody, req.body).userId, clientOf(req)));

    r.post('/verify-pin', { access: 'none', limit: limits.signIn, response: UserResponse }, async (req, res) => {
      const body = parse(VerifyPinBody, req.body);
      const signIn = await auth.verifyPin(body.userId, body.pin, clientOf(req), { device: readDeviceToken(req), userAgent: req.get('user-agent') });
      setSessionCookie(req, res, signIn.token, signIn.maxAgeMs);
      if (signIn.device) setDeviceCookie(req, res, signIn.device);
      return { user: signIn.user };
    });

    // a member's own PIN (the admin's edit in Members stays); a wrong current PIN counts toward the sign-in lock
    r.post('/pin', { access: 'user', response: ChangePinResponse }, (req) => auth.changePin(actorOf(req), parse(ChangePinBody, req.body), clientOf(req)));

    r.get('/me', { access: 'user', response: MeResponse }, (req) => auth.me(actorOf(req)));

    // The web app's start asks this rather than /me: signed out is an answer here, not a 401 that
    // every browser logs as a failed request on the profile picker. It tells the caller only who
    // its own cookie belongs to.
    r.get('/session', { access: 'none', response: SessionResponse }, (req) => auth.sessionUser(req.actor));

    r.post('/logout', { access: 'user', response: OkResponse }, async (req, res) => {
      await auth.logout(actorOf(req));
      clearSessionCookie(req, res);
      return { ok: true } as const;
    });
  });
}

export function createUserAdminRoutes(auth: AuthService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: UsersResponse }, async (req) => ({ users: await auth.listUsers(actorOf(req)) }));

    r.post('/', { access: 'admin', response: UserPinResponse }, async (req, res) => {
      const body = parse(CreateUserBody, req.body);
      const user = await auth.createUser(actorOf(req), body);
      res.status(201);
      return { user, weakPin: isWeakPin(body.pin) };
    });

    r.patch('/:id', { access: 'admin', response: UserPinResponse }, async (req) => {
      const { id } = parse(UserIdParams, req.params);
      const body = parse(UpdateUserBody, req.body);
      const user = await auth.updateUser(actorOf(req), id, body);
      return body.pin === undefined ? { user } : { user, weakPin: isWeakPin(body.pin) };
    });

    r.post('/:id/unlock', { access: 'admin', response: AdminUserResponse }, async (req) => ({ user: await auth.unlockUser(actorOf(req), parse(UserIdParams, req.params).id) }));

    r.delete('/:id', { access: 'admin', response: OkResponse }, async (req) => {
      await auth.deleteUser(actorOf(req), parse(UserIdParams, req.params).id);
      return { ok: true } as const;
    });
  });
}
