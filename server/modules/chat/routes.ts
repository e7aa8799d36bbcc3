import { actorOf } from '../../http/auth.js';
import { bytes, defineRoutes, events, NO_CONTENT } from '../../http/routes.js';
import type { SseRegistry } from '../../http/sse.js';
import { parse } from '../../http/validate.js';
import {
  ConversationIdParams,
  ConversationResponse,
  ConversationsQuery,
  ConversationsResponse,
  ConversationSummaryResponse,
  ImageParams,
  PatchConversationBody,
  ProjectBody,
  ProjectIdParams,
  ProjectResponse,
  ProjectsResponse,
  StopResponse,
  STREAM_BODY_LIMIT,
  StreamBody,
  StreamEvents,
} from './schema.js';
import type { ChatService } from './service.js';
import type { ChatStreamService } from './stream-service.js';

/** /api/chat: a member's own conversations and the answer stream; another member's are 404, admins included. */
export function createChatRoutes(chat: ChatService, answers: ChatStreamService, sse: SseRegistry) {
  return defineRoutes((r) => {
    r.get('/conversations', { access: 'user', response: ConversationsResponse }, async (req) => ({
      conversations: await chat.list(actorOf(req), parse(ConversationsQuery, req.query)),
    }));

    r.get('/conversations/:id', { access: 'user', response: ConversationResponse }, async (req) => ({
      conversation: await chat.get(actorOf(req), parse(ConversationIdParams, req.params).id),
    }));

    r.patch('/conversations/:id', { access: 'user', response: ConversationSummaryResponse }, async (req) => ({
      conversation: await chat.patch(actorOf(req), parse(ConversationIdParams, req.params).id, parse(PatchConversationBody, req.body)),
    }));

    r.delete('/conversations/:id', { access: 'user', response: NO_CONTENT }, async (req) => {
      await chat.remove(actorOf(req), parse(ConversationIdParams, req.params).id);
    });

    r.post('/conversations/:id/stop', { access: 'user', response: StopResponse }, async (req) => ({
      stopped: await chat.stop(actorOf(req), parse(ConversationIdParams, req.params).id),
    }));

    r.get('/conversations/:id/images/:imageId', { access: 'user', response: bytes('image/jpeg, image/png, image/webp or image/gif (a picture attached to a message)') }, async (req, res) => {
      const { id, imageId } = parse(ImageParams, req.params);
      const image = await chat.image(actorOf(req), id, imageId);
      res.set({ 'Content-Type': image.contentType, 'Cache-Control': 'private, max-age=86400', 'X-Content-Type-Options': 'nosniff' });
      res.send(image.bytes);
    });

    r.post('/chat/stream', { access: 'user', response: events(StreamEvents), jsonLimit: STREAM_BODY_LIMIT }, (req, res) =>
      sse.run(req, res, async (open) => {
        const body = parse(StreamBody, req.body);
        await answers.stream(actorOf(req), body, () => {
          const stream = open();
          return { send: (event, data) => stream.send(event, data), signal: stream.signal };
        });
      }),
    );
  });
}

/** /api/projects: a member's own projects. */
export function createProjectRoutes(chat: ChatService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: ProjectsResponse }, async (req) => ({ projects: await chat.projects(actorOf(req)) }));

    r.post('/', { access: 'user', response: ProjectResponse }, async (req, res) => {
      const project = await chat.createProject(actorOf(req), parse(ProjectBody, req.body).name);
      res.status(201);
      return { project };
    });

    r.patch('/:id', { access: 'user', response: ProjectResponse }, async (req) => ({
      project: await chat.renameProject(actorOf(req), parse(ProjectIdParams, req.params).id, parse(ProjectBody, req.body).name),
    }));

    r.delete('/:id', { access: 'user', response: NO_CONTENT }, async (req) => {
      await chat.deleteProject(actorOf(req), parse(ProjectIdParams, req.params).id);
    });
  });
}
