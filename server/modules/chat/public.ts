// What other modules may use of the chat module: the contract of a chat tool they contribute.
export type { ChatTool, ChatToolContext, ChatToolResult } from './tool-registry.js';
