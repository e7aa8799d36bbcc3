// The auth module: members, PINs and sessions; /api/auth and /api/admin/users.
import { createRequestLimit } from '../../http/rate-limit.js';
import { Semaphore } from '../../platform/semaphore.js';
import { defineModule, type Platform } from '../module.js';
import { MembersService } from './members-service.js';
import type { AuthPorts } from './ports.js';
import { hashPin } from './pin.js';
import { createAuthRoutes, createUserAdminRoutes } from './routes.js';
import { AuthService } from './service.js';
import { PinStateJournal } from './pin-state.js';
import { AuthStore, PinStateStore } from './store.js';
import { PinThrottle } from './throttle.js';

export function createAuthModule(p: Platform, ports: AuthPorts) {
  const logger = p.logger.child('auth');
  const pinState = new PinStateJournal(new PinStateStore(p.db), logger);
  const store = new AuthStore(p.db);
  const throttle = new PinThrottle(p.clock, p.tuning.pinThrottle, undefined, pinState);
  // two of libuv's four threads at most: file and DNS work keep the others
  const pinSlots = new Semaphore(2);
  const hash = (pin: string) => pinSlots.run(() => hashPin(pin, p.config.pinHashCost));
  const members = new MembersService({ store, bus: p.bus, clock: p.clock, logger, throttle, pinState, hash });
  const auth = new AuthService({ store, bus: p.bus, clock: p.clock, logger, throttle, pinState, pinSlots, hash, members, locale: ports.locale });
  // requests per client on select + verify-pin, the anonymous routes that cost work
  const signIn = createRequestLimit({ perMinute: p.tuning.signInRequestsPerMinute ?? 30, message: 'Too many sign-in attempts from this device.' });

  return defineModule({
    name: 'auth',
    routes: [
      { prefix: '/auth', routes: createAuthRoutes(auth, { signIn }) },
      { prefix: '/admin/users', routes: createUserAdminRoutes(auth) },
    ],
    services: { auth },
    tasks: [{ name: 'auth.session-sweep', everyMs: 60 * 60 * 1000, run: () => auth.sweepExpiredSessions() }],
    // PIN locks, paces and trusted devices a previous run kept, read back before the first sign-in
    start: () => auth.restorePinState(),
    // the last writes land before the database closes
    close: async () => {
      signIn.close();
      await auth.pinStateSettled();
    },
  });
}
