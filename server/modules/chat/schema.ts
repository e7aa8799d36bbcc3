// The chat module's contract: conversations (private to their member, admins included), the
// answer stream, and projects that group conversations. The web app imports these types.
import { z } from 'zod';

export const MAX_MESSAGE_CHARS = 8_000;
export const MAX_TITLE_CHARS = 100;
export const MAX_PROJECT_NAME_CHARS = 60;
/** Images per message (vision models), and each one's size once decoded. */
export const MAX_IMAGES = 4;
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** The stream route's body limit: the images, base64, plus the message. */
export const STREAM_BODY_LIMIT = '48mb';
/** Tool rounds in one answer; the next round is asked to answer in words. */
export const MAX_TOOL_ROUNDS = 5;
export const MAX_SEARCH_QUERY_CHARS = 200;

/** Where part of an answer came from, linked to the web app's own viewer. */
export const Source = z.object({
  type: z.enum(['archive', 'reader', 'inventory']),
  title: z.string(),
  /** A web app path: `/read/:sourceId/...` for an archive article, `/reader/:id` for a Reader item, `/inventory/:id` for a device. */
  url: z.string(),
  snippet: z.string().nullable(),
});
export type Source = z.infer<typeof Source>;

/**
 * An action a tool proposes instead of running it, shown under the answer as a button the member
 * presses to confirm. The only kind: a guarded smart-home action (issue 37), which the button asks
 * for at POST /api/home-assistant/entities/:entityId/action with confirm: true, where the member's
 * rights are checked again.
 */
export const ToolAction = z.object({
  kind: z.literal('home_action'),
  entityId: z.string(),
  service: z.string(),
  data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  /** The button's words, e.g. `Unlock Front door`. */
  label: z.string(),
});
export type ToolAction = z.infer<typeof ToolAction>;

/** One tool call in an answer, as a person sees it on its chip. */
export const ToolCallRecord = z.object({
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  /** A sentence for people, e.g. `Looked up "heat stroke" in the archives: 3 articles`. */
  summary: z.string(),
  sources: z.array(Source),
  /** ok, error (the tool failed or ran out of time; the model was told), refused (not an enabled tool, or arguments that do not fit its schema). */
  status: z.enum(['ok', 'error', 'refused']),
  /** An action the tool proposes for the member to confirm (never run by the tool). */
  action: ToolAction.optional(),
});
export type ToolCallRecord = z.infer<typeof ToolCallRecord>;

/** complete; streaming (being written now); stopped (by the member, partial text kept); error (cut, garbage, runtime gone: partial text kept). */
export const MessageStatus = z.enum(['complete', 'streaming', 'stopped', 'error']);
export type MessageStatus = z.infer<typeof MessageStatus>;

export const Usage = z.object({ promptTokens: z.number().int().nullable(), outputTokens: z.number().int().nullable() });
export type Usage = z.infer<typeof Usage>;

export const ChatMessage = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  /** Attached pictures, each a web app URL served by GET /api/chat/conversations/:id/images/:imageId. */
  images: z.array(z.object({ id: z.string(), url: z.string() })),
  /** The model that wrote an assistant message; null on the member's own messages. */
  model: z.string().nullable(),
  toolCalls: z.array(ToolCallRecord),
  sources: z.array(Source),
  status: MessageStatus,
  /** A sentence for people when status is error; null otherwise. */
  error: z.string().nullable(),
  usage: Usage.nullable(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ConversationSummary = z.object({
  id: z.string(),
  title: z.string(),
  model: z.string().nullable(),
  projectId: z.string().nullable(),
  pinned: z.boolean(),
  /**
   * The companion the conversation speaks as (set by the stream that started it with companionId, or
   * a later one naming another); null: the household assistant. An answer uses it while the companion
   * is still the member's; otherwise the household assistant answers.
   */
  companionId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** With ?q=: the matching words in context; null otherwise. */
  snippet: z.string().nullable(),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;

export const Conversation = ConversationSummary.extend({ messages: z.array(ChatMessage) });
export type Conversation = z.infer<typeof Conversation>;

// ---- requests ----

export const ConversationIdParams = z.object({ id: z.string().min(1).max(64) });
export const ImageParams = z.object({ id: z.string().min(1).max(64), imageId: z.string().min(1).max(64) });

/** GET /api/chat/conversations: own only, pinned first then newest first. projectId `none` = not in a project. */
export const ConversationsQuery = z.object({
  projectId: z.string().min(1).max(64).optional(),
  q: z.string().trim().max(MAX_SEARCH_QUERY_CHARS).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const PatchConversationBody = z
  .object({
    title: z.string().trim().min(1).max(MAX_TITLE_CHARS),
    projectId: z.string().min(1).max(64).nullable(),
    pinned: z.boolean(),
  })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'Say what to change: title, projectId or pinned.');
export type PatchConversationBody = z.infer<typeof PatchConversationBody>;

/**
 * POST /api/chat/chat/stream. A new conversation is made when conversationId is absent.
 * `regenerate: true` (with conversationId, without message) answers the last question again,
 * replacing the last answer.
 */
export const StreamBody = z
  .object({
    conversationId: z.string().min(1).max(64).optional(),
    message: z.string().trim().min(1).max(MAX_MESSAGE_CHARS).optional(),
    model: z.string().min(1).max(200).optional(),
    /** base64 (no data: prefix), for vision models. */
    images: z.array(z.string().min(1)).max(MAX_IMAGES).optional(),
    projectId: z.string().min(1).max(64).optional(),
    regenerate: z.boolean().optional(),
    /**
     * The companion the answer speaks as (its prompt and model apply), kept with the conversation;
     * 403 companion_not_allowed when it is not the member's. Absent: the conversation's own companion.
     */
    companionId: z.string().min(1).max(64).optional(),
    /**
     * The skill this answer uses (issue 38): its instructions join the system prompt and its tool
     * list, when not empty, narrows the tools offered. 404 when the member cannot see it.
     */
    skillId: z.string().min(1).max(64).optional(),
  })
  .strict()
  .refine((b) => (b.regenerate ? b.conversationId !== undefined && b.message === undefined : b.message !== undefined), {
    message: 'Send a message, or regenerate: true with the conversationId.',
  });
export type StreamBody = z.infer<typeof StreamBody>;

// ---- responses ----

export const ConversationsResponse = z.object({ conversations: z.array(ConversationSummary) });
export type ConversationsResponse = z.infer<typeof ConversationsResponse>;
export const ConversationResponse = z.object({ conversation: Conversation });
export type ConversationResponse = z.infer<typeof ConversationResponse>;
export const ConversationSummaryResponse = z.object({ conversation: ConversationSummary });
export type ConversationSummaryResponse = z.infer<typeof ConversationSummaryResponse>;
/** POST /conversations/:id/stop: whether an answer was being written and is now stopped. */
export const StopResponse = z.object({ stopped: z.boolean() });
export type StopResponse = z.infer<typeof StopResponse>;

/**
 * The answer stream's events, in order: conversation (first, always), then any of token, tool,
 * tool_result, then sources (when the answer used the household's knowledge), then done. A
 * failure after the stream opened is the runner's `error {code, message}` event, after the
 * partial answer was saved (status error).
 */
export const StreamEvents = z.object({
  conversation: z.object({ id: z.string(), title: z.string(), userMessageId: z.string(), model: z.string() }),
  token: z.object({ text: z.string() }),
  tool: z.object({ name: z.string(), args: z.record(z.string(), z.unknown()) }),
  tool_result: z.object({ name: z.string(), summary: z.string(), sources: z.array(Source), status: ToolCallRecord.shape.status, action: ToolAction.optional() }),
  sources: z.object({ sources: z.array(Source) }),
  done: z.object({ messageId: z.string(), status: z.enum(['complete', 'stopped']), usage: Usage.nullable(), title: z.string() }),
});
export type StreamEvents = z.infer<typeof StreamEvents>;

// ---- projects (/api/projects, per member) ----

export const Project = z.object({
  id: z.string(),
  name: z.string(),
  conversationCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Project = z.infer<typeof Project>;
export const ProjectIdParams = z.object({ id: z.string().min(1).max(64) });
export const ProjectBody = z.object({ name: z.string().trim().min(1).max(MAX_PROJECT_NAME_CHARS) }).strict();
export type ProjectBody = z.infer<typeof ProjectBody>;
export const ProjectsResponse = z.object({ projects: z.array(Project) });
export type ProjectsResponse = z.infer<typeof ProjectsResponse>;
export const ProjectResponse = z.object({ project: Project });
export type ProjectResponse = z.infer<typeof ProjectResponse>;
