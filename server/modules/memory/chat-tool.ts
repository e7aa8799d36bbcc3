// remember, the chat tool that keeps a short fact the member asked the assistant to remember
// ("remember that Sam is allergic to peanuts", "keep in mind we are vegetarian"), as one of their
// memories (MemoryService.remember: the same limits and privacy as one added by hand). Offered only
// while the household has memory on (its Extension's check, extensions.ts); models without tools
// have the plain-text rule instead (MemoryService.rememberFrom). Listed in this module's manifest.
import { z } from 'zod';
import type { ChatTool, ChatToolResult } from '../chat/public.js';
import { REMEMBER_TOOL_ID } from './public.js';
import { MAX_MEMORIES, MAX_MEMORY_CHARS } from './schema.js';
import type { MemoryService, RememberOutcome } from './service.js';

export const REMEMBER_TOOL_TIMEOUT_MS = 2_000;

export const RememberArgs = z.object({
  fact: z.string().trim().min(1).max(MAX_MEMORY_CHARS).describe('The fact to keep, as one short sentence that makes sense on its own, e.g. "Sam is allergic to peanuts".'),
});

const WHERE = 'They can see and remove their memories under Profile › Your memories.';

function result(outcome: RememberOutcome, fact: string): ChatToolResult {
  switch (outcome) {
    case 'kept':
      return { content: `Remembered: "${fact}". Tell the person it is remembered. ${WHERE}`, summary: `Remembered “${fact}”`, sources: [] };
    case 'known':
      return { content: `This was already remembered: "${fact}". Tell the person it is remembered.`, summary: `Already remembered “${fact}”`, sources: [] };
    case 'full':
      return {
        content: `Nothing was kept: the person already has ${MAX_MEMORIES} memories, the most one member may keep. Tell them to remove one they no longer need first. ${WHERE}`,
        summary: `Could not remember “${fact}”: ${MAX_MEMORIES} memories are kept already`,
        sources: [],
      };
    case 'off':
      return { content: 'Nothing was kept: chat memory is off in this household. Tell the person an admin can switch it on.', summary: `Could not remember “${fact}”: memory is off`, sources: [] };
  }
}

export function createRememberTool(deps: { memory: Pick<MemoryService, 'remember'> }): ChatTool<typeof RememberArgs> {
  return {
    id: REMEMBER_TOOL_ID,
    description:
      'Keeps a short fact the person asked you to remember or keep in mind (about themselves, their household, their likes and needs), so you know it in their later chats. Use it only when they ask you to remember something, never on your own.',
    args: RememberArgs,
    timeoutMs: REMEMBER_TOOL_TIMEOUT_MS,
    run: async ({ fact }, { actor }) => result(await deps.memory.remember(actor, fact), fact),
  };
}
