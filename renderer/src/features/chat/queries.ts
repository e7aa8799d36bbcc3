// The chat API as hooks (TanStack Query, see api/query.ts): a member's own conversations and
// projects, one conversation with its messages, the models the picker offers, and whether chat can
// answer at all. Every write invalidates CHAT_KEY (or the project keys), so the drawer and the open
// conversation agree; the answer stream (useChatStream.ts) writes into the conversation's cache.
import { useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../api/client';
import type {
  Conversation,
  ConversationResponse,
  ConversationsResponse,
  ConversationSummary,
  ConversationSummaryResponse,
  PatchConversationBody,
  Project,
  ProjectResponse,
  ProjectsResponse,
} from '../../../../server/modules/chat/schema.js';
import type { ModelsResponse, ModelView } from '../../../../server/modules/models/schema.js';
import type { AiStatusResponse } from '../../../../server/modules/reader/schema.js';

export type { ChatMessage, Conversation, ConversationSummary, Project, Source, StreamEvents, ToolCallRecord } from '../../../../server/modules/chat/schema.js';
export type { ModelView };

// The contract's limits (server/modules/chat/schema.ts), restated: the web app imports types only.
export const MAX_MESSAGE_CHARS = 8_000;
export const MAX_IMAGES = 4;
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;

/** Conversations (lists and each one) live under this key; projects under PROJECTS_KEY. */
export const CHAT_KEY = ['chat'] as const;
export const PROJECTS_KEY = ['chat-projects'] as const;
const LIST_KEY = [...CHAT_KEY, 'list'] as const;
export const conversationKey = (id: string) => [...CHAT_KEY, 'conversation', id] as const;

/** Whether chat can answer now, and when not why and the fix (the same answer the Reader's Ask uses). */
export function useChatReadiness() {
  return useQuery({
    queryKey: [...CHAT_KEY, 'readiness'],
    queryFn: ({ signal }) => api.get<AiStatusResponse>('/api/reader/ai-status', { signal }),
    staleTime: 30_000,
  });
}

/** Own conversations, pinned first then newest; `q` searches titles and message text. */
export function useConversations(q: string) {
  const query = q.trim();
  return useQuery({
    queryKey: [...LIST_KEY, query],
    queryFn: ({ signal }) =>
      api.get<ConversationsResponse>(`/api/chat/conversations${query ? `?q=${encodeURIComponent(query)}` : ''}`, { signal }).then((r) => r.conversations),
    placeholderData: (previous) => previous,
  });
}

/**
 * One conversation with its messages. `streaming` (an answer arriving in this tab) pauses reading
 * it again, so a refetch cannot replace the words as they arrive; a message the server still marks
 * as being written (another tab, or the moment after Stop) is read again every second until it ends.
 */
export function useConversation(id: string | undefined, streaming: boolean) {
  return useQuery({
    queryKey: conversationKey(id ?? ''),
    queryFn: ({ signal }) => api.get<ConversationResponse>(`/api/chat/conversations/${encodeURIComponent(id ?? '')}`, { signal }).then((r) => r.conversation),
    enabled: id !== undefined && !streaming,
    refetchInterval: (q) => (q.state.data?.messages.some((m) => m.status === 'streaming') ? 1_000 : false),
  });
}

export function useProjects() {
  return useQuery({
    queryKey: PROJECTS_KEY,
    queryFn: ({ signal }) => api.get<ProjectsResponse>('/api/projects', { signal }).then((r) => r.projects),
  });
}

/**
 * The chat models this member may use, for the picker; null when the server has no models list
 * (the picker then hides itself and the server's chosen model answers).
 */
export function useChatModels() {
  return useQuery({
    queryKey: ['models', 'chat-picker'],
    queryFn: ({ signal }) =>
      api.get<ModelsResponse>('/api/models', { signal }).then(
        (r) => ({ models: r.models.filter((m) => m.capabilities.includes('chat')), chosen: r.chosen.chat }),
        (err: unknown) => {
          if (err instanceof ApiError && (err.status === 404 || err.status === 403)) return null;
          throw err;
        },
      ),
    staleTime: 60_000,
  });
}

function useChatWrite<A, R>(run: (args: A) => Promise<R>, keys: ReadonlyArray<readonly unknown[]> = [CHAT_KEY]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

/** PATCH a conversation (title, projectId, pinned); the cached copy is updated at once. */
export function usePatchConversation() {
  const queryClient = useQueryClient();
  return useChatWrite(
    async ({ id, patch }: { id: string; patch: PatchConversationBody }) => {
      const { conversation } = await api.patch<ConversationSummaryResponse>(`/api/chat/conversations/${encodeURIComponent(id)}`, patch);
      queryClient.setQueryData<Conversation>(conversationKey(id), (c) => (c ? { ...c, ...conversation, messages: c.messages } : c));
      return conversation;
    },
    [CHAT_KEY, PROJECTS_KEY],
  );
}

export function useRenameConversation() {
  const patch = usePatchConversation();
  return { ...patch, rename: (id: string, title: string) => patch.mutateAsync({ id, patch: { title } }) };
}

export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useChatWrite(
    async (id: string) => {
      await api.delete(`/api/chat/conversations/${encodeURIComponent(id)}`);
      queryClient.removeQueries({ queryKey: conversationKey(id) });
    },
    [LIST_KEY, PROJECTS_KEY],
  );
}

export function useCreateProject() {
  return useChatWrite((name: string) => api.post<ProjectResponse>('/api/projects', { name }).then((r) => r.project), [PROJECTS_KEY]);
}

export function useRenameProject() {
  return useChatWrite(({ id, name }: { id: string; name: string }) => api.patch<ProjectResponse>(`/api/projects/${encodeURIComponent(id)}`, { name }).then((r) => r.project), [PROJECTS_KEY]);
}

/** Deleting a project keeps its conversations (they leave the project). */
export function useDeleteProject() {
  return useChatWrite((id: string) => api.delete(`/api/projects/${encodeURIComponent(id)}`), [PROJECTS_KEY, CHAT_KEY]);
}

/** Drawer order: pinned first, then by project, then newest. */
export function groupConversations(list: readonly ConversationSummary[], projects: readonly Project[] | undefined) {
  const pinned = list.filter((c) => c.pinned);
  const rest = list.filter((c) => !c.pinned);
  const known = new Set((projects ?? []).map((p) => p.id));
  const groups = (projects ?? [])
    .map((p) => ({ project: p, conversations: rest.filter((c) => c.projectId === p.id) }));
  const loose = rest.filter((c) => c.projectId === null || !known.has(c.projectId));
  return { pinned, groups, loose };
}

/** What a chat's stream changes in the cache: one conversation as it arrives, the list, everything. */
export function useConversationCache(): {
  update: (id: string, change: (c: Conversation | undefined) => Conversation | undefined) => void;
  refreshList: () => Promise<void>;
  refreshAll: () => Promise<void>;
} {
  const client = useQueryClient();
  return useMemo(
    () => ({
      update: (id, change) => void client.setQueryData<Conversation>(conversationKey(id), change),
      refreshList: () => client.invalidateQueries({ queryKey: [...CHAT_KEY, 'list'] }),
      refreshAll: () => client.invalidateQueries({ queryKey: CHAT_KEY }),
    }),
    [client],
  );
}
