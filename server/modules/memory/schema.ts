// Chat memory: short facts a member asked the assistant to remember, private to them, used only
// while the household has switched memory on.
import { z } from 'zod';

/** Characters one memory may have. */
export const MAX_MEMORY_CHARS = 300;
/** Memories one member may keep. */
export const MAX_MEMORIES = 100;
/** The app setting that switches memory on for the household. */
export const KEY_MEMORY_ENABLED = 'chat_memory_enabled';

export const Memory = z.object({ id: z.string(), text: z.string(), createdAt: z.string() });
export type Memory = z.infer<typeof Memory>;
/** GET /api/chat/memory: the caller's own memories, and whether the household has memory on. */
export const MemoriesResponse = z.object({ enabled: z.boolean(), memories: z.array(Memory) });
export type MemoriesResponse = z.infer<typeof MemoriesResponse>;
export const MemoryResponse = z.object({ memory: Memory });
export const AddMemoryBody = z.object({ text: z.string().trim().min(1, 'Write what to remember.').max(MAX_MEMORY_CHARS, `A memory can have up to ${MAX_MEMORY_CHARS} characters.`) }).strict();
export const MemoryParams = z.object({ id: z.string().uuid() });
export const MemorySetting = z.object({ enabled: z.boolean() });
export type MemorySetting = z.infer<typeof MemorySetting>;
export const MemorySettingBody = MemorySetting.strict();
