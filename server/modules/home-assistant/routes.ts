// Thin routes of the home-assistant module: the member group /api/home-assistant (entities, the
// live stream, actions) and the admin group /api/admin/home-assistant (connection, exposure, member
// rights, the activity log).
import { pipeline } from 'node:stream/promises';
import { actorOf } from '../../http/auth.js';
import { bytes, defineRoutes, events } from '../../http/routes.js';
import type { SseRegistry } from '../../http/sse.js';
import { parse } from '../../http/validate.js';
import type { CameraService } from './camera-service.js';
import type { ConnectionService } from './connection-service.js';
import type { ControlService } from './control-service.js';
import {
  ActionBody,
  ActionResponse,
  ActivityResponse,
  CameraEventParams,
  CameraEventsResponse,
  ConnectionResponse,
  EntitiesResponse,
  EntityParams,
  MemberParams,
  MemberRightsResponse,
  MembersResponse,
  PutConnectionBody,
  PutExposedBody,
  PutExposedResponse,
  PutFavouritesBody,
  PutMemberBody,
  ExposedResponse,
  FavouritesResponse,
  FrigateResponse,
  PutFrigateBody,
  StreamEntityEvent,
  StreamRemovedEvent,
  StreamStatusEvent,
} from './schema.js';

export function createHomeAssistantRoutes(control: ControlService, cameras: CameraService, sse: SseRegistry) {
  return defineRoutes((r) => {
    r.get('/events', { access: 'user', response: CameraEventsResponse }, (req) => cameras.events(actorOf(req)));
    r.get('/events/:id/snapshot.jpg', { access: 'user', response: bytes('image/jpeg, the event’s snapshot proxied from the camera recorder') }, async (req, res) => {
      const shot = await cameras.snapshot(actorOf(req), parse(CameraEventParams, req.params).id);
      res.set({ 'Content-Type': shot.contentType, 'Cache-Control': 'private, max-age=3600' });
      res.end(shot.bytes);
    });

    r.get('/events/:id/clip', { access: 'user', response: bytes('video/mp4, the event’s clip streamed from the camera recorder; 206 with Content-Range when a Range was asked') }, async (req, res) => {
      const abort = new AbortController();
      res.on('close', () => abort.abort());
      const clip = await cameras.clip(actorOf(req), parse(CameraEventParams, req.params).id, req.headers.range, abort.signal);
      res.status(clip.status).set({ ...clip.headers, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' });
      await pipeline(clip.body, res).catch(() => undefined); // the player went away or the recorder cut the stream
    });

    r.get('/entities', { access: 'user', response: EntitiesResponse }, (req) => control.entities(actorOf(req)));

    r.get('/favourites', { access: 'user', response: FavouritesResponse }, (req) => control.favourites(actorOf(req)));
    r.put('/favourites', { access: 'user', response: FavouritesResponse }, (req) => control.setFavourites(actorOf(req), parse(PutFavouritesBody, req.body)));

    r.get('/stream', { access: 'user', response: events({ entity: StreamEntityEvent, removed: StreamRemovedEvent, status: StreamStatusEvent }) }, async (req, res) => {
      const actor = actorOf(req);
      await sse.run(req, res, async (open) => {
        const s = open();
        await control.stream(
          actor,
          {
            entity: (entity) => s.send('entity', { entity }),
            removed: (id) => s.send('removed', { id }),
            status: (status, message) => s.send('status', { status, message }),
          },
          s.signal,
        );
      });
    });

    r.post('/entities/:id/action', { access: 'user', response: ActionResponse }, async (req) => {
      const { id } = parse(EntityParams, req.params);
      return { entity: await control.action(actorOf(req), id, parse(ActionBody, req.body)) };
    });
  });
}

export function createHomeAssistantAdminRoutes(connection: ConnectionService, control: ControlService) {
  return defineRoutes((r) => {
    r.get('/connection', { access: 'admin', response: ConnectionResponse }, (req) => connection.get(actorOf(req)));
    r.put('/connection', { access: 'admin', response: ConnectionResponse }, (req) => connection.put(actorOf(req), parse(PutConnectionBody, req.body)));
    r.delete('/connection', { access: 'admin', response: ConnectionResponse }, (req) => connection.remove(actorOf(req)));

    r.get('/exposed', { access: 'admin', response: ExposedResponse }, (req) => control.exposedList(actorOf(req)));
    r.put('/exposed', { access: 'admin', response: PutExposedResponse }, (req) => control.putExposed(actorOf(req), parse(PutExposedBody, req.body)));

    r.get('/members', { access: 'admin', response: MembersResponse }, async (req) => ({ members: await control.members(actorOf(req)) }));
    r.put('/members/:userId', { access: 'admin', response: MemberRightsResponse }, async (req) => ({
      member: await control.putMember(actorOf(req), parse(MemberParams, req.params).userId, parse(PutMemberBody, req.body)),
    }));

    r.get('/activity', { access: 'admin', response: ActivityResponse }, async (req) => ({ entries: await control.activity(actorOf(req)) }));
  });
}

export function createFrigateAdminRoutes(cameras: CameraService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: FrigateResponse }, (req) => cameras.get(actorOf(req)));
    r.put('/', { access: 'admin', response: FrigateResponse }, (req) => cameras.put(actorOf(req), parse(PutFrigateBody, req.body)));
    r.delete('/', { access: 'admin', response: FrigateResponse }, (req) => cameras.remove(actorOf(req)));
  });
}
