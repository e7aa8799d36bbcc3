// How the answer stream uses the household's chat tools: one tool call the model asked for, checked
// against the tool's schema and run within its time budget (a failure is told to the model, never
// thrown), and the grounding of a question for a model that cannot call tools.
import type { ToolCall } from '../../adapters/model-runtime/ollama.js';
import type { UserActor } from '../../actor.js';
import { withoutUrls, type Logger } from '../../platform/logger.js';
import { untilAborted } from '../../platform/until-aborted.js';
import type { StreamEvents, ToolCallRecord } from './schema.js';
import type { ChatTool, ChatToolResult } from './tool-registry.js';

/** Where a tool call's events go (the answer's stream). */
export interface ToolEventSink {
  send<K extends keyof StreamEvents>(event: K, data: StreamEvents[K]): void;
}

/** Runs one tool call the model asked for, or refuses it; its failure is told to the model, never thrown. */
export async function runToolCall(
  logger: Logger,
  actor: UserActor,
  call: ToolCall,
  offered: ChatTool[],
  names: Map<string, string>,
  stop: AbortSignal,
  sink: ToolEventSink,
): Promise<{ record: ToolCallRecord; reply: string }> {
  const name = call.function.name;
  const args = call.function.arguments;
  sink.send('tool', { name, args });
  const label = names.get(name) ?? name;
  const done = (record: ToolCallRecord, reply: string) => {
    sink.send('tool_result', { name: record.name, summary: record.summary, sources: record.sources, status: record.status, ...(record.action ? { action: record.action } : {}) });
    return { record, reply };
  };
  const tool = offered.find((t) => t.id === name);
  if (!tool) {
    return done(
      { name, args, summary: `Did not use "${name}": it is not a tool chat may use here.`, sources: [], status: 'refused' },
      `There is no tool called ${name} you may use. Answer without it.`,
    );
  }
  const parsed = tool.args.safeParse(args);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
    return done(
      { name, args, summary: `Did not use ${label}: the request for it was not valid.`, sources: [], status: 'refused' },
      `The arguments for ${name} were not valid (${issues}). Call it again with valid arguments, or answer without it.`,
    );
  }
  const budget = AbortSignal.timeout(tool.timeoutMs);
  const signal = AbortSignal.any([stop, budget]);
  let result: ChatToolResult;
  try {
    result = await untilAborted(tool.run(parsed.data, { actor, signal }), signal);
  } catch (err) {
    if (stop.aborted) throw stop.reason as Error;
    const timedOut = budget.aborted;
    if (!timedOut) logger.warn({ err: scrubbed(err), tool: name }, 'chat tool failed');
    return done(
      { name, args, summary: timedOut ? `${label} took too long to answer.` : `${label} did not work this time.`, sources: [], status: 'error' },
      timedOut ? `The tool ${name} ran out of time and gave no result. Answer without it, and say so.` : `The tool ${name} failed and gave no result. Answer without it, and say so.`,
    );
  }
  return done({ name, args, summary: result.summary, sources: result.sources, status: 'ok', ...(result.action ? { action: result.action } : {}) }, result.content);
}

/** For a model that cannot call tools: each offered tool that can looks the question up, in parallel, within its budget. */
export async function groundQuestion(logger: Logger, actor: UserActor, offered: ChatTool[], question: string, stop: AbortSignal): Promise<Array<{ tool: string; result: ChatToolResult }>> {
  const grounding = offered.filter((t) => t.ground !== undefined);
  const results = await Promise.all(
    grounding.map(async (t) => {
      const signal = AbortSignal.any([stop, AbortSignal.timeout(t.timeoutMs)]);
      try {
        const result = await untilAborted(t.ground!(question, { actor, signal }), signal);
        return result.content.trim() ? { tool: t.id, result } : null;
      } catch (err) {
        if (!signal.aborted) logger.warn({ err: scrubbed(err), tool: t.id }, 'chat grounding failed');
        return null;
      }
    }),
  );
  if (stop.aborted) throw stop.reason as Error;
  return results.filter((r): r is { tool: string; result: ChatToolResult } => r !== null);
}

/** A tool's error for the log: its kind and message without the addresses it fetched (a web search's carries the member's question). */
function scrubbed(err: unknown): { type: string; message: string } {
  return err instanceof Error ? { type: err.name, message: withoutUrls(err.message) } : { type: 'unknown', message: withoutUrls(String(err)) };
}
