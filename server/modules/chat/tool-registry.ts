// The tools chat may call. Each module that owns some household knowledge adds its tool in one
// file (modules/<x>/chat-tool.ts) and lists it in its manifest; the chat module gathers them here. A tool's id is also an
// Extension in the app store (GET /api/tools, offline: true): chat offers a tool only while that
// Extension is enabled and available, and refuses a call to any other.
import { z } from 'zod';
import type { UserActor } from '../../actor.js';
import type { Source, ToolAction } from './schema.js';

export interface ChatToolContext {
  actor: UserActor;
  /** Aborted when the member stops the answer or the tool's time budget runs out. */
  signal: AbortSignal;
}

export interface ChatToolResult {
  /** What the model reads (the tool message): short, plain text, the best results first. */
  content: string;
  /** What a person reads on the tool's chip, e.g. `Looked up "heat stroke" in the archives: 3 articles`. */
  summary: string;
  sources: Source[];
  /** An action proposed for the member to confirm with a button under the answer (the tool did not run it). */
  action?: ToolAction;
}

export interface ChatTool<A extends z.ZodObject = z.ZodObject> {
  /** The Extension's id in the tool registry, and the function name the model sees. */
  id: string;
  /** For the model: what the tool does and when to use it. */
  description: string;
  /** Its arguments: offered to the model as JSON schema (z.toJSONSchema); each call is checked against it. */
  args: A;
  /** The time budget of one call; past it the model is told the tool ran out of time. */
  timeoutMs: number;
  run(args: z.infer<A>, ctx: ChatToolContext): Promise<ChatToolResult>;
  /**
   * For models that cannot call tools: look the member's question up directly, so its best
   * snippets go into the system prompt and its sources under the answer.
   */
  ground?(question: string, ctx: ChatToolContext): Promise<ChatToolResult>;
}

export class ChatToolRegistry {
  private readonly tools = new Map<string, ChatTool>();

  register(...tools: ChatTool[]): this {
    for (const t of tools) {
      if (this.tools.has(t.id)) throw new Error(`chat tool ${t.id} is registered twice`);
      if (!/^[a-z][a-z0-9_]{0,63}$/.test(t.id)) throw new Error(`chat tool id ${t.id} is not a function name`);
      this.tools.set(t.id, t);
    }
    return this;
  }

  all(): ChatTool[] {
    return [...this.tools.values()];
  }

  get(id: string): ChatTool | undefined {
    return this.tools.get(id);
  }
}

type ToolSpec = { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } };
/** Each tool's entry, made once: turning its zod schema into JSON Schema is work every answer offering it would repeat. */
const specs = new WeakMap<ChatTool, ToolSpec>();

/** One tool as Ollama's `tools` entry. */
export function toolSpec(tool: ChatTool): ToolSpec {
  let spec = specs.get(tool);
  if (!spec) {
    const { $schema: _ignored, ...parameters } = z.toJSONSchema(tool.args) as Record<string, unknown>;
    spec = { type: 'function', function: { name: tool.id, description: tool.description, parameters } };
    specs.set(tool, spec);
  }
  return spec;
}
