import { ForbiddenError } from '../../errors.js';
import { actorOf, setSessionCookie } from '../../http/auth.js';
import { isHomeHostName } from '../../http/guards.js';
import type { RequestLimit } from '../../http/rate-limit.js';
import { defineRoutes, events } from '../../http/routes.js';
import type { SseRegistry } from '../../http/sse.js';
import { SetupDownloadBody } from '../features/schema.js';
import { parse } from '../../http/validate.js';
import { isWeakPin, OkResponse } from '../auth/schema.js';
import {
  CreateAdminBody,
  CreateAdminResponse,
  MAX_SETUP_STATE_BYTES,
  ModelRuntimeStatus,
  SetupCatalog,
  SetupChecklist,
  SetupInstallEvents,
  SetupState,
  SetupStateResponse,
  SetupStatus,
} from './schema.js';
import type { SetupChecklistService } from './checklist-service.js';
import type { SetupService } from './service.js';

/** `limits.setup` bounds requests per client to the routes anyone may call. */
export function createSetupRoutes(setup: SetupService, sse: SseRegistry, limits: { setup: RequestLimit }, checklist: SetupChecklistService) {
  const open = { access: 'none', limit: limits.setup } as const;
  return defineRoutes((r) => {
    r.get('/status', { ...open, response: SetupStatus }, () => setup.status());

    r.post('/admin', { ...open, response: CreateAdminResponse }, async (req, res) => {
      // The one route where whoever asks first owns the household: a page on a public name that was
      // made to resolve to this computer (DNS rebinding) passes the Origin check, so the first admin
      // is only made through an address of this computer or the home network.
      if (!isHomeHostName(req.hostname)) {
        throw new ForbiddenError(
          'Create the first admin from Hearth’s own address: the Hearth window on this computer, or the address it shows for other devices (for example http://192.168.1.20:8787 or http://my-computer.local:8787).',
          'bad_host',
        );
      }
      const body = parse(CreateAdminBody, req.body);
      const signIn = await setup.createAdmin(body.name, body.pin, req.get('user-agent'));
      setSessionCookie(req, res, signIn.token, signIn.maxAgeMs);
      res.status(201);
      return { user: signIn.user, weakPin: isWeakPin(body.pin) };
    });

    r.get('/ollama-status', { ...open, response: ModelRuntimeStatus }, () => setup.modelRuntimeStatus());

    r.get('/catalog', { access: 'admin', response: SetupCatalog }, (req) => setup.catalog(actorOf(req)));

    r.post('/download', { access: 'admin', response: events(SetupInstallEvents) }, async (req, res) => {
      const body = parse(SetupDownloadBody, req.body ?? {});
      await sse.run(req, res, (open) => setup.download(actorOf(req), body, open));
    });

    r.get('/checklist', { access: 'admin', response: SetupChecklist }, (req) => checklist.checklist(actorOf(req)));

    r.post('/welcome-complete', { access: 'admin', response: OkResponse }, async (req) => {
      await setup.completeWelcome(actorOf(req));
      return { ok: true } as const;
    });

    r.put('/state', { access: 'admin', jsonLimit: MAX_SETUP_STATE_BYTES, response: SetupStateResponse }, async (req) => ({
      state: await setup.saveState(actorOf(req), parse(SetupState, req.body)),
    }));
  });
}
