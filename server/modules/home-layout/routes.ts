import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { DefaultLayoutResponse, HomeLayout, LayoutResponse, MAX_LAYOUT_BYTES, SetUserLayoutBody, UserLayoutParams } from './schema.js';
import type { HomeLayoutService } from './service.js';

// The 64 KB cap is the route's JSON parser: an oversized body is 413 before anything is read or written.
const capped = <S>(access: 'user' | 'admin', response: S) => ({ access, response, jsonLimit: MAX_LAYOUT_BYTES });

export function createHomeLayoutRoutes(layouts: HomeLayoutService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: LayoutResponse }, (req) => layouts.get(actorOf(req)));
    r.put('/', capped('user', LayoutResponse), (req) => layouts.save(actorOf(req), parse(HomeLayout, req.body)));

    r.get('/default', { access: 'admin', response: DefaultLayoutResponse }, (req) => layouts.readDefault(actorOf(req)));
    r.put('/default', capped('admin', DefaultLayoutResponse), (req) => layouts.saveDefault(actorOf(req), parse(HomeLayout, req.body)));

    r.get('/users/:userId', { access: 'admin', response: LayoutResponse }, (req) => layouts.readForUser(actorOf(req), parse(UserLayoutParams, req.params).userId));
    r.put('/users/:userId', capped('admin', LayoutResponse), (req) =>
      layouts.saveForUser(actorOf(req), parse(UserLayoutParams, req.params).userId, parse(SetUserLayoutBody, req.body)),
    );
  });
}
