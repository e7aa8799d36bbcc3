// The answer stream (POST /api/chat/chat/stream, SSE over a POST through api/sse.ts) as a hook. It
// writes into the conversation's query cache as events arrive, so the page renders one source of
// truth: the member's message once the server took it, then the answer growing token by token,
// tool chips, sources, and the final status and title. A refusal before the stream opens (runtime
// down, model not allowed) is returned as `refusal`, with nothing written, so the words stay in the
// composer; a failure after it keeps the partial answer, marked as an error.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError } from '../../api/client';
import { openPostStream, type PostStreamHandle } from '../../api/sse';
import { type ChatMessage, type Conversation, type StreamEvents, useConversationCache } from './queries';

/** The answer being written has no id until `done`. */
export const STREAMING_ID = 'streaming';

type Events = StreamEvents & { error: { code: string; message: string } };

export interface SendArgs {
  conversationId?: string;
  message?: string;
  model?: string;
  /** base64, without the data: prefix. */
  images?: string[];
  /** For showing the pictures before the server has them (data: URLs). */
  imagePreviews?: string[];
  projectId?: string;
  regenerate?: boolean;
  /** The companion the answer speaks as (its prompt and model apply). */
  companionId?: string;
  /** The skill the answer uses (its instructions and tools apply). */
  skillId?: string;
  /** Each piece of the answer as it arrives (voice mode speaks it sentence by sentence). */
  onToken?: (text: string) => void;
}

export interface ChatStream {
  /** The conversation whose answer is arriving ('new' until the server named it), or null. */
  streamingId: string | null;
  /** The server turned the message down before the stream opened. */
  refusal: ApiError | null;
  clearRefusal: () => void;
  /** Sends; `onAccepted(id)` runs once the server took the message (clear the composer, open the chat). */
  send: (args: SendArgs, onAccepted?: (conversationId: string) => void) => Promise<void>;
  stop: () => Promise<void>;
}

const now = () => new Date().toISOString();

function assistantDraft(model: string | null): ChatMessage {
  return { id: STREAMING_ID, role: 'assistant', content: '', images: [], model, toolCalls: [], sources: [], status: 'streaming', error: null, usage: null, createdAt: now() };
}

/** Applies `change` to the answer being written in the conversation `id`. */
function updateDraft(conv: Conversation | undefined, change: (m: ChatMessage) => ChatMessage): Conversation | undefined {
  if (!conv) return conv;
  const i = conv.messages.findIndex((m) => m.id === STREAMING_ID);
  if (i < 0) return conv;
  const messages = conv.messages.slice();
  messages[i] = change(messages[i]!);
  return { ...conv, messages };
}

export function useChatStream(): ChatStream {
  const cache = useConversationCache();
  const [streamingId, setStreamingId] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const handle = useRef<PostStreamHandle | null>(null);
  const current = useRef<string | null>(null);

  // leaving the page ends the answer at the runtime; the server keeps what was written as stopped
  useEffect(() => () => handle.current?.close(), []);

  const send = useCallback(
    async (args: SendArgs, onAccepted?: (conversationId: string) => void) => {
      if (handle.current) return;
      setRefusal(null);
      current.current = args.conversationId ?? 'new';
      setStreamingId(current.current);
      let id: string | null = null;
      const edit = (change: (m: ChatMessage) => ChatMessage) => {
        if (id) cache.update(id, (c) => updateDraft(c, change));
      };
      const body = {
        conversationId: args.conversationId,
        message: args.message,
        model: args.model,
        images: args.images?.length ? args.images : undefined,
        projectId: args.projectId,
        regenerate: args.regenerate || undefined,
        companionId: args.companionId,
        skillId: args.skillId,
      };
      const stream = openPostStream<Events>(
        '/api/chat/chat/stream',
        body,
        {
          conversation: (e) => {
            id = e.id;
            current.current = e.id;
            setStreamingId(e.id);
            cache.update(e.id, (c) => {
              const base: Conversation = c ?? {
                id: e.id,
                title: e.title,
                model: e.model,
                projectId: args.projectId ?? null,
                pinned: false,
                companionId: args.companionId ?? null,
                createdAt: now(),
                updatedAt: now(),
                snippet: null,
                messages: [],
              };
              let messages = base.messages.filter((m) => m.id !== STREAMING_ID);
              if (args.regenerate) {
                // the last answer is replaced by the one now being written
                const last = messages.at(-1);
                if (last?.role === 'assistant') messages = messages.slice(0, -1);
              } else {
                const images = (args.imagePreviews ?? []).map((url, i) => ({ id: `local-${i}`, url }));
                messages = [...messages, { ...assistantDraft(null), id: e.userMessageId, role: 'user', content: args.message ?? '', images, status: 'complete' }];
              }
              return { ...base, title: e.title || base.title, model: e.model, ...(args.companionId ? { companionId: args.companionId } : {}), updatedAt: now(), messages: [...messages, assistantDraft(e.model)] };
            });
            void cache.refreshList();
            onAccepted?.(e.id);
          },
          token: (e) => {
            args.onToken?.(e.text);
            edit((m) => ({ ...m, content: m.content + e.text }));
          },
          tool: (e) => edit((m) => ({ ...m, toolCalls: [...m.toolCalls, { name: e.name, args: e.args, summary: '', sources: [], status: 'ok' }] })),
          tool_result: (e) =>
            edit((m) => {
              const toolCalls = m.toolCalls.slice();
              const i = toolCalls.findIndex((t) => t.name === e.name && t.summary === '');
              const record = { name: e.name, args: i >= 0 ? toolCalls[i]!.args : {}, summary: e.summary, sources: e.sources, status: e.status, ...(e.action ? { action: e.action } : {}) };
              if (i >= 0) toolCalls[i] = record;
              else toolCalls.push(record);
              return { ...m, toolCalls };
            }),
          sources: (e) => edit((m) => ({ ...m, sources: e.sources })),
          done: (e) => {
            if (!id) return;
            edit((m) => ({ ...m, id: e.messageId, status: e.status, usage: e.usage }));
            cache.update(id, (c) => (c && e.title ? { ...c, title: e.title } : c));
          },
          error: (e) => edit((m) => ({ ...m, status: 'error', error: e.message })),
        },
        { closeOn: ['done', 'error'] },
      );
      handle.current = stream;
      try {
        await stream.done;
      } catch (err) {
        const failure = err instanceof ApiError ? err : new ApiError(0, 'stream_lost', 'The answer stopped arriving. Try again.');
        if (id === null) setRefusal(failure);
        else edit((m) => ({ ...m, status: 'error', error: failure.message }));
      } finally {
        handle.current = null;
        current.current = null;
        setStreamingId(null);
        if (id) {
          // what the server kept (ids, the stopped or failed answer) replaces what was drawn
          edit((m) => (m.status === 'streaming' ? { ...m, status: 'stopped' } : m));
          await cache.refreshAll();
        }
      }
    },
    [cache],
  );

  const stop = useCallback(async () => {
    const stream = handle.current;
    const id = current.current;
    if (!stream) return;
    if (id && id !== 'new') {
      cache.update(id, (c) => updateDraft(c, (m) => ({ ...m, status: 'stopped' })));
      // the server stops the runtime and saves the partial answer; leaving the stream does too
      await api.post(`/api/chat/conversations/${encodeURIComponent(id)}/stop`).catch(() => undefined);
    }
    stream.close();
  }, [cache]);

  return { streamingId, refusal, clearRefusal: () => setRefusal(null), send, stop };
}
