// Conversations and projects, private to their member: every read and write is scoped to the
// caller, and another member's conversation or project is a 404 for everyone, admins included (a
// privacy boundary like the notification rule). The answer stream is ChatStreamService (stream-service.ts).
import { randomUUID } from 'node:crypto';
import type { UserActor } from '../../actor.js';
import { NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { buildMatch } from '../search/public.js';
import type { ChatImageFiles } from './images.js';
import type { RunningAnswers } from './running.js';
import type { ChatMessage, Conversation, ConversationSummary, PatchConversationBody, Project } from './schema.js';
import type { ChatStore, ConversationRow, ImageRow, MessageRow } from './store.js';

export type { ChatModelPicker } from './ports.js';

export interface ChatDeps {
  store: ChatStore;
  files: ChatImageFiles;
  running: RunningAnswers;
  clock: Clock;
}

export const conversationNotFound = () => new NotFoundError('That conversation does not exist.');
export const projectNotFound = () => new NotFoundError('That project does not exist.');

export const imageUrl = (conversationId: string, imageId: string) => `/api/chat/conversations/${encodeURIComponent(conversationId)}/images/${encodeURIComponent(imageId)}`;

export function summaryOf(c: ConversationRow, snippet: string | null = null): ConversationSummary {
  return { id: c.id, title: c.title, model: c.model, projectId: c.projectId, pinned: c.pinned, companionId: c.companionId, createdAt: c.createdAt, updatedAt: c.updatedAt, snippet };
}

export class ChatService {
  constructor(private readonly deps: ChatDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** The caller's own conversation, or 404. */
  async own(actor: UserActor, id: string): Promise<ConversationRow> {
    const c = await this.deps.store.conversation(actor.id, id);
    if (!c) throw conversationNotFound();
    return c;
  }

  async ownProject(actor: UserActor, id: string): Promise<Project> {
    const p = await this.deps.store.project(actor.id, id);
    if (!p) throw projectNotFound();
    return { id: p.id, name: p.name, conversationCount: p.conversationCount, createdAt: p.createdAt, updatedAt: p.updatedAt };
  }

  // ---- conversations ----

  async list(actor: UserActor, q: { projectId?: string; q?: string; limit: number }): Promise<ConversationSummary[]> {
    const filter = { userId: actor.id, projectId: q.projectId, limit: q.limit };
    if (q.q !== undefined && q.q !== '') {
      const match = buildMatch(q.q);
      if (match === null) return [];
      const hits = await this.deps.store.searchConversations({ ...filter, limit: 1000 }, match);
      // the list's own order (pinned first, then newest), each with the snippet of its best match
      return hits
        .sort((a, b) => Number(b.conversation.pinned) - Number(a.conversation.pinned) || b.conversation.updatedAt.localeCompare(a.conversation.updatedAt))
        .slice(0, q.limit)
        .map((h) => summaryOf(h.conversation, h.snippet));
    }
    return (await this.deps.store.listConversations(filter)).map((c) => summaryOf(c));
  }

  /** For unified search: own conversations by title and message text, best match first. */
  async search(actor: UserActor, q: string, limit: number): Promise<ConversationSummary[]> {
    const match = buildMatch(q);
    if (match === null) return [];
    return (await this.deps.store.searchConversations({ userId: actor.id, limit }, match)).map((h) => summaryOf(h.conversation, h.snippet));
  }

  async get(actor: UserActor, id: string): Promise<Conversation> {
    const c = await this.own(actor, id);
    const [messages, images] = await Promise.all([this.deps.store.messages(c.id), this.deps.store.images(c.id)]);
    return { ...summaryOf(c), messages: messages.map((m) => this.messageView(m, images)) };
  }

  /**
   * At start, before any answer can run: an answer a stopped (or crashed) Hearth left "streaming"
   * is stopped, with the text it had written out kept.
   */
  stopLeftoverAnswers(): Promise<number> {
    return this.deps.store.stopStreamingMessages();
  }

  messageView(m: MessageRow, images: ImageRow[]): ChatMessage {
    // an answer left "streaming" by a server that stopped mid-answer is what it is now: stopped
    const status = m.status === 'streaming' && !this.deps.running.isRunning(m.id) ? 'stopped' : m.status;
    return {
      id: m.id,
      role: m.role,
      content: m.content,
      images: images.filter((i) => i.messageId === m.id).map((i) => ({ id: i.id, url: imageUrl(m.conversationId, i.id) })),
      model: m.model,
      toolCalls: m.toolCalls,
      sources: m.sources,
      status,
      error: m.error,
      usage: m.usage,
      createdAt: m.createdAt,
    };
  }

  async patch(actor: UserActor, id: string, body: PatchConversationBody): Promise<ConversationSummary> {
    await this.own(actor, id);
    if (body.projectId !== undefined && body.projectId !== null) await this.ownProject(actor, body.projectId);
    const updated = await this.deps.store.updateConversation(actor.id, id, {
      title: body.title,
      projectId: body.projectId,
      pinned: body.pinned,
      updatedAt: body.title !== undefined || body.projectId !== undefined ? this.now() : undefined,
    });
    if (!updated) throw conversationNotFound();
    return summaryOf(updated);
  }

  async remove(actor: UserActor, id: string): Promise<void> {
    await this.own(actor, id);
    this.deps.running.stop(actor.id, id);
    await this.deps.store.deleteConversation(actor.id, id);
    await this.deps.files.removeConversation(actor.id, id);
  }

  /** Stops the answer being written in the caller's conversation; whether there was one. */
  async stop(actor: UserActor, id: string): Promise<boolean> {
    await this.own(actor, id);
    return this.deps.running.stop(actor.id, id);
  }

  async image(actor: UserActor, id: string, imageId: string): Promise<{ bytes: Buffer; contentType: string }> {
    const c = await this.own(actor, id);
    const row = await this.deps.store.image(c.id, imageId);
    const bytes = row ? await this.deps.files.read(row.path) : null;
    if (!row || !bytes) throw new NotFoundError('That picture does not exist.');
    return { bytes, contentType: row.contentType };
  }

  /** A deleted member's rows went with them (ON DELETE CASCADE); their pictures on disk go here. */
  async onUserDeleted(userId: string): Promise<void> {
    await this.deps.files.removeUser(userId);
  }

  // ---- projects ----

  async projects(actor: UserActor): Promise<Project[]> {
    return (await this.deps.store.projects(actor.id)).map((p) => ({ id: p.id, name: p.name, conversationCount: p.conversationCount, createdAt: p.createdAt, updatedAt: p.updatedAt }));
  }

  async createProject(actor: UserActor, name: string): Promise<Project> {
    const now = this.now();
    const id = randomUUID();
    await this.deps.store.insertProject({ id, userId: actor.id, name, createdAt: now, updatedAt: now });
    return this.ownProject(actor, id);
  }

  async renameProject(actor: UserActor, id: string, name: string): Promise<Project> {
    if (!(await this.deps.store.renameProject(actor.id, id, name, this.now()))) throw projectNotFound();
    return this.ownProject(actor, id);
  }

  /** Deletes the project; its conversations stay, outside any project. */
  async deleteProject(actor: UserActor, id: string): Promise<void> {
    if (!(await this.deps.store.deleteProject(actor.id, id))) throw projectNotFound();
  }
}
