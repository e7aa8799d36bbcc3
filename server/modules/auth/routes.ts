import { actorOf, clearSessionCookie, readDeviceToken, setDeviceCookie, setSessionCookie } from '../../http/auth.js';
import { clientOf, type RequestLimit } from '../../http/rate-limit.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { CreateUserBody, SelectBody, UpdateUserBody, UserIdParams, VerifyPinBody } from './schema.js';
import type { AuthService } from './service.js';

/** `signIn` limits requests per client to select and verify-pin together. */
export function createAuthRoutes(auth: AuthService, limits: { signIn: RequestLimit }) {
  return defineRoutes((r) => {
    r.get('/profiles', 'none', async () => ({ profiles: await auth.listProfiles() }));

    r.post('/select', { access: 'none', limit: limits.signIn }, (req) => auth.select(parse(SelectBody, req.body).userId, clientOf(req)));

    r.post('/verify-pin', { access: 'none', limit: limits.signIn }, async (req, res) => {
      const body = parse(VerifyPinBody, req.body);
      const signIn = await auth.verifyPin(body.userId, body.pin, clientOf(req), { device: readDeviceToken(req), userAgent: req.get('user-agent') });
      setSessionCookie(req, res, signIn.token, signIn.maxAgeMs);
      if (signIn.device) setDeviceCookie(req, res, signIn.device);
      return { user: signIn.user };
    });

    r.get('/me', 'user', async (req) => ({ user: await auth.me(actorOf(req)) }));

    r.post('/logout', 'user', async (req, res) => {
      await auth.logout(actorOf(req));
      clearSessionCookie(req, res);
      return { ok: true };
    });
  });
}

export function createUserAdminRoutes(auth: AuthService) {
  return defineRoutes((r) => {
    r.get('/', 'admin', async (req) => ({ users: await auth.listUsers(actorOf(req)) }));

    r.post('/', 'admin', async (req, res) => {
      const user = await auth.createUser(actorOf(req), parse(CreateUserBody, req.body));
      res.status(201);
      return { user };
    });

    r.patch('/:id', 'admin', async (req) => {
      const { id } = parse(UserIdParams, req.params);
      return { user: await auth.updateUser(actorOf(req), id, parse(UpdateUserBody, req.body)) };
    });

    r.post('/:id/unlock', 'admin', async (req) => ({ user: await auth.unlockUser(actorOf(req), parse(UserIdParams, req.params).id) }));

    r.delete('/:id', 'admin', async (req) => {
      await auth.deleteUser(actorOf(req), parse(UserIdParams, req.params).id);
      return { ok: true };
    });
  });
}
