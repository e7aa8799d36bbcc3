import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { NotifyChannelsService } from './channels-service.js';
import type { NotifyMemberService } from './member-service.js';
import {
  AdminChannelResponse,
  AdminChannelsResponse,
  ChannelTypeParams,
  DeletedResponse,
  DeliveriesResponse,
  LinkCodeResponse,
  LinkStatusResponse,
  MemberRoutes,
  RoutesBody,
  TestResponse,
} from './schema.js';

/** /api/notify: a member's own channels, routes, tests and Telegram link. */
export function createNotifyRoutes(member: NotifyMemberService) {
  return defineRoutes((r) => {
    r.get('/routes', { access: 'user', response: MemberRoutes }, (req) => member.routes(actorOf(req)));
    r.put('/routes', { access: 'user', response: MemberRoutes }, (req) => member.putRoutes(actorOf(req), parse(RoutesBody, req.body)));
    r.post('/channels/:type/test', { access: 'user', response: TestResponse }, (req) => member.test(actorOf(req), parse(ChannelTypeParams, req.params).type));
    r.post('/link-code', { access: 'user', response: LinkCodeResponse }, async (req, res) => {
      const answer = await member.linkCode(actorOf(req));
      res.status(201);
      return answer;
    });
    r.get('/link-status', { access: 'user', response: LinkStatusResponse }, (req) => member.linkStatus(actorOf(req)));
    r.delete('/telegram', { access: 'user', response: DeletedResponse }, async (req) => ({ deleted: await member.unlink(actorOf(req)) }));
  });
}

/** /api/admin/notify: the channel servers and the delivery log. */
export function createNotifyAdminRoutes(channels: NotifyChannelsService, offline: { isOn(): boolean }) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: AdminChannelsResponse }, async (req) => ({ channels: await channels.list(actorOf(req)), offline: offline.isOn() }));
    r.get('/deliveries', { access: 'admin', response: DeliveriesResponse }, async (req) => ({ deliveries: await channels.deliveries(actorOf(req)) }));
    r.put('/:type', { access: 'admin', response: AdminChannelResponse }, async (req) => ({ channel: await channels.put(actorOf(req), parse(ChannelTypeParams, req.params).type, req.body) }));
    r.delete('/:type', { access: 'admin', response: DeletedResponse }, async (req) => ({ deleted: await channels.remove(actorOf(req), parse(ChannelTypeParams, req.params).type) }));
  });
}
