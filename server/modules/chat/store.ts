// chat_projects, chat_conversations, chat_messages, chat_message_images and the two full-text
// indexes (chat_title_fts, chat_message_fts) the migration's triggers keep. Dumb queries: every
// read of a member's rows is scoped by user_id in the same statement; a miss is null.
import type { Knex } from 'knex';
import type { MessageStatus, Source, ToolCallRecord, Usage } from './schema.js';

export interface ConversationRow {
  id: string;
  userId: string;
  title: string;
  model: string | null;
  projectId: string | null;
  pinned: boolean;
  /** The companion the conversation speaks as; null: the household assistant. */
  companionId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MessageRow {
  id: string;
  conversationId: string;
  role: 'user' | 'assistant';
  content: string;
  model: string | null;
  status: MessageStatus;
  error: string | null;
  usage: Usage | null;
  toolCalls: ToolCallRecord[];
  sources: Source[];
  createdAt: string;
}

export interface ImageRow {
  id: string;
  messageId: string;
  conversationId: string;
  /** Relative to DATA_DIR/chat. */
  path: string;
  contentType: string;
  bytes: number;
  createdAt: string;
  /** What the household's vision model saw in it, for a chat model that cannot see (null: not looked at). */
  description: string | null;
}

export interface ProjectRow {
  id: string;
  userId: string;
  name: string;
  conversationCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface SearchHit {
  conversation: ConversationRow;
  snippet: string;
}

interface ConvDb {
  id: string;
  user_id: string;
  title: string;
  model: string | null;
  project_id: string | null;
  pinned: number | boolean;
  companion_id: string | null;
  created_at: string;
  updated_at: string;
}

interface MsgDb {
  id: string;
  conversation_id: string;
  role: 'user' | 'assistant';
  content: string;
  model: string | null;
  status: MessageStatus;
  error: string | null;
  usage: string | null;
  tool_calls: string;
  sources: string;
  created_at: string;
}

const CONV_COLS = ['id', 'user_id', 'title', 'model', 'project_id', 'pinned', 'companion_id', 'created_at', 'updated_at'];

const toConversation = (r: ConvDb): ConversationRow => ({
  id: r.id,
  userId: r.user_id,
  title: r.title,
  model: r.model,
  projectId: r.project_id,
  pinned: Boolean(r.pinned),
  companionId: r.companion_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

function json<T>(s: string | null, fallback: T): T {
  if (s === null) return fallback;
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
}

const toMessage = (r: MsgDb): MessageRow => ({
  id: r.id,
  conversationId: r.conversation_id,
  role: r.role,
  content: r.content,
  model: r.model,
  status: r.status,
  error: r.error,
  usage: json<Usage | null>(r.usage, null),
  toolCalls: json<ToolCallRecord[]>(r.tool_calls, []),
  sources: json<Source[]>(r.sources, []),
  createdAt: r.created_at,
});

export interface ListFilter {
  userId: string;
  /** A project id, 'none' (not in a project), or undefined (all). */
  projectId?: string;
  limit: number;
}

export class ChatStore {
  constructor(private readonly db: Knex) {}

  // ---- conversations ----

  async insertConversation(c: ConversationRow): Promise<void> {
    await this.db('chat_conversations').insert({
      id: c.id,
      user_id: c.userId,
      title: c.title,
      model: c.model,
      project_id: c.projectId,
      pinned: c.pinned,
      companion_id: c.companionId,
      created_at: c.createdAt,
      updated_at: c.updatedAt,
    });
  }

  async conversation(userId: string, id: string): Promise<ConversationRow | null> {
    const r = (await this.db('chat_conversations').select(CONV_COLS).where({ id, user_id: userId }).first()) as ConvDb | undefined;
    return r ? toConversation(r) : null;
  }

  private scoped(f: ListFilter, alias = 'c'): Knex.QueryBuilder {
    const q = this.db({ [alias]: 'chat_conversations' }).where(`${alias}.user_id`, f.userId);
    if (f.projectId === 'none') q.whereNull(`${alias}.project_id`);
    else if (f.projectId !== undefined) q.where(`${alias}.project_id`, f.projectId);
    return q;
  }

  async listConversations(f: ListFilter): Promise<ConversationRow[]> {
    const rows = (await this.scoped(f)
      .select(CONV_COLS.map((c) => `c.${c}`))
      .orderBy([
        { column: 'c.pinned', order: 'desc' },
        { column: 'c.updated_at', order: 'desc' },
        { column: 'c.seq', order: 'desc' },
      ])
      .limit(f.limit)) as ConvDb[];
    return rows.map(toConversation);
  }

  /**
   * Own conversations whose title or message text matches an FTS5 expression, best match first,
   * each once with the snippet of its best match (title matches count before message ones).
   */
  async searchConversations(f: ListFilter, match: string): Promise<SearchHit[]> {
    const cols = CONV_COLS.map((c) => `c.${c}`).join(', ');
    const project = f.projectId === 'none' ? 'AND c.project_id IS NULL' : f.projectId !== undefined ? 'AND c.project_id = ?' : '';
    const projectArgs = f.projectId !== undefined && f.projectId !== 'none' ? [f.projectId] : [];
    const rows = (await this.db.raw(
      `SELECT ${cols}, h.snip AS snip FROM (
         SELECT t.id AS cid, snippet(chat_title_fts, 0, '', '', '…', 12) AS snip, bm25(chat_title_fts) - 1000 AS rank
           FROM chat_title_fts JOIN chat_conversations t ON t.seq = chat_title_fts.rowid WHERE chat_title_fts MATCH ?
         UNION ALL
         SELECT m.conversation_id AS cid, snippet(chat_message_fts, 0, '', '', '…', 12) AS snip, bm25(chat_message_fts) AS rank
           FROM chat_message_fts JOIN chat_messages m ON m.seq = chat_message_fts.rowid WHERE chat_message_fts MATCH ?
       ) h
       JOIN chat_conversations c ON c.id = h.cid
       WHERE c.user_id = ? ${project}
       ORDER BY h.rank`,
      [match, match, f.userId, ...projectArgs],
    )) as Array<ConvDb & { snip: string }>;
    const seen = new Map<string, SearchHit>();
    for (const r of rows) {
      if (!seen.has(r.id)) seen.set(r.id, { conversation: toConversation(r), snippet: r.snip });
      if (seen.size >= f.limit) break;
    }
    return [...seen.values()];
  }

  async updateConversation(userId: string, id: string, patch: Partial<Pick<ConversationRow, 'title' | 'projectId' | 'pinned' | 'model' | 'companionId' | 'updatedAt'>>): Promise<ConversationRow | null> {
    const row: Record<string, unknown> = {};
    if (patch.title !== undefined) row.title = patch.title;
    if (patch.projectId !== undefined) row.project_id = patch.projectId;
    if (patch.pinned !== undefined) row.pinned = patch.pinned;
    if (patch.model !== undefined) row.model = patch.model;
    if (patch.companionId !== undefined) row.companion_id = patch.companionId;
    if (patch.updatedAt !== undefined) row.updated_at = patch.updatedAt;
    if (Object.keys(row).length > 0) await this.db('chat_conversations').where({ id, user_id: userId }).update(row);
    return this.conversation(userId, id);
  }

  async deleteConversation(userId: string, id: string): Promise<boolean> {
    return (await this.db('chat_conversations').where({ id, user_id: userId }).delete()) > 0;
  }

  // ---- messages ----

  async insertMessage(m: MessageRow): Promise<void> {
    await this.db('chat_messages').insert({
      id: m.id,
      conversation_id: m.conversationId,
      role: m.role,
      content: m.content,
      model: m.model,
      status: m.status,
      error: m.error,
      usage: m.usage ? JSON.stringify(m.usage) : null,
      tool_calls: JSON.stringify(m.toolCalls),
      sources: JSON.stringify(m.sources),
      created_at: m.createdAt,
    });
  }

  async updateMessage(id: string, patch: Partial<Pick<MessageRow, 'content' | 'status' | 'error' | 'usage' | 'toolCalls' | 'sources'>>): Promise<void> {
    const row: Record<string, unknown> = {};
    if (patch.content !== undefined) row.content = patch.content;
    if (patch.status !== undefined) row.status = patch.status;
    if (patch.error !== undefined) row.error = patch.error;
    if (patch.usage !== undefined) row.usage = patch.usage ? JSON.stringify(patch.usage) : null;
    if (patch.toolCalls !== undefined) row.tool_calls = JSON.stringify(patch.toolCalls);
    if (patch.sources !== undefined) row.sources = JSON.stringify(patch.sources);
    if (Object.keys(row).length > 0) await this.db('chat_messages').where({ id }).update(row);
  }

  /** Marks every answer still "streaming" as stopped, its text kept; how many there were. */
  async stopStreamingMessages(): Promise<number> {
    return this.db('chat_messages').where({ status: 'streaming' }).update({ status: 'stopped' });
  }

  async deleteMessage(id: string): Promise<void> {
    await this.db('chat_messages').where({ id }).delete();
  }

  /** A conversation's messages, oldest first. */
  async messages(conversationId: string): Promise<MessageRow[]> {
    const rows = (await this.db('chat_messages').where({ conversation_id: conversationId }).orderBy('seq', 'asc')) as MsgDb[];
    return rows.map(toMessage);
  }

  // ---- images ----

  async insertImage(i: ImageRow): Promise<void> {
    await this.db('chat_message_images').insert({
      id: i.id,
      message_id: i.messageId,
      conversation_id: i.conversationId,
      path: i.path,
      content_type: i.contentType,
      bytes: i.bytes,
      created_at: i.createdAt,
      description: i.description,
    });
  }

  async images(conversationId: string): Promise<ImageRow[]> {
    const rows = (await this.db('chat_message_images').where({ conversation_id: conversationId }).orderBy('created_at', 'asc').orderBy('id', 'asc')) as Array<{
      id: string;
      message_id: string;
      conversation_id: string;
      path: string;
      content_type: string;
      bytes: number;
      created_at: string;
      description: string | null;
    }>;
    return rows.map((r) => ({
      id: r.id,
      messageId: r.message_id,
      conversationId: r.conversation_id,
      path: r.path,
      contentType: r.content_type,
      bytes: r.bytes,
      createdAt: r.created_at,
      description: r.description,
    }));
  }

  async image(conversationId: string, imageId: string): Promise<ImageRow | null> {
    return (await this.images(conversationId)).find((i) => i.id === imageId) ?? null;
  }

  // ---- projects ----

  async insertProject(p: Omit<ProjectRow, 'conversationCount'>): Promise<void> {
    await this.db('chat_projects').insert({ id: p.id, user_id: p.userId, name: p.name, created_at: p.createdAt, updated_at: p.updatedAt });
  }

  async projects(userId: string, id?: string): Promise<ProjectRow[]> {
    const q = this.db({ p: 'chat_projects' })
      .leftJoin({ c: 'chat_conversations' }, 'c.project_id', 'p.id')
      .where('p.user_id', userId)
      .groupBy('p.id')
      .select('p.id', 'p.user_id', 'p.name', 'p.created_at', 'p.updated_at')
      .count({ n: 'c.id' })
      .orderBy([
        { column: 'p.name', order: 'asc' },
        { column: 'p.created_at', order: 'asc' },
      ]);
    if (id !== undefined) q.where('p.id', id);
    const rows = (await q) as Array<{ id: string; user_id: string; name: string; created_at: string; updated_at: string; n: number }>;
    return rows.map((r) => ({ id: r.id, userId: r.user_id, name: r.name, conversationCount: Number(r.n), createdAt: r.created_at, updatedAt: r.updated_at }));
  }

  async project(userId: string, id: string): Promise<ProjectRow | null> {
    return (await this.projects(userId, id))[0] ?? null;
  }

  async renameProject(userId: string, id: string, name: string, updatedAt: string): Promise<boolean> {
    return (await this.db('chat_projects').where({ id, user_id: userId }).update({ name, updated_at: updatedAt })) > 0;
  }

  async deleteProject(userId: string, id: string): Promise<boolean> {
    return (await this.db('chat_projects').where({ id, user_id: userId }).delete()) > 0;
  }
}
