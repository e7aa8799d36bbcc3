// /api/content (the caller's dials), /api/admin/content (a member's dials) and /api/privacy (the
// caller's PIN-gated adult state). Thin: parse, call the content service, answer.
import { actorOf } from '../../http/auth.js';
import { clientOf } from '../../http/rate-limit.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { AdultStateBody, ContentResponse, MemberDials, MemberParams, PrivacyResponse, PutDialsBody } from './schema.js';
import type { ContentService } from './service.js';

export function createContentRoutes(content: ContentService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: ContentResponse }, (req) => content.mine(actorOf(req)));
  });
}

export function createContentAdminRoutes(content: ContentService) {
  return defineRoutes((r) => {
    r.get('/members/:userId', { access: 'admin', response: MemberDials }, (req) => content.getMember(actorOf(req), parse(MemberParams, req.params).userId));
    r.put('/members/:userId', { access: 'admin', response: MemberDials }, (req) =>
      content.putMember(actorOf(req), parse(MemberParams, req.params).userId, parse(PutDialsBody, req.body)),
    );
  });
}

export function createPrivacyRoutes(content: ContentService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: PrivacyResponse }, (req) => content.privacy(actorOf(req)));
    // a wrong PIN counts toward the same per-device lock as signing in
    r.post('/adult', { access: 'user', response: PrivacyResponse }, (req) => content.enableAdult(actorOf(req), parse(AdultStateBody, req.body).pin, clientOf(req)));
    r.delete('/adult', { access: 'user', response: PrivacyResponse }, (req) => content.disableAdult(actorOf(req)));
  });
}
