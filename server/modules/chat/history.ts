// Pure helpers of the answer stream: what part of a conversation fits the model's context window,
// the fallback title, the model's title parsed strictly, and sources deduplicated.
import type { ChatMessage as RuntimeMessage } from '../../adapters/model-runtime/ollama.js';
import { MAX_TITLE_CHARS, type Source } from './schema.js';

/** The context window assumed when the runtime does not say (Ollama's own default is smaller). */
export const DEFAULT_CONTEXT_TOKENS = 8192;
/** Per-message overhead of the chat template, in tokens. */
const MESSAGE_OVERHEAD_TOKENS = 4;
/** A picture costs about this many tokens in a vision model's context. */
const IMAGE_TOKENS = 768;

/** A rough token count: about four characters a token. */
export const estimateTokens = (m: Pick<RuntimeMessage, 'content' | 'images'>): number =>
  Math.ceil(m.content.length / 4) + MESSAGE_OVERHEAD_TOKENS + (m.images?.length ?? 0) * IMAGE_TOKENS;

/** Tokens kept free for the answer: a quarter of the window, at most 2048. */
export const answerRoom = (contextTokens: number): number => Math.min(2048, Math.floor(contextTokens / 4));

/**
 * The messages to send: the system prompt always, then as many of the newest messages as fit in
 * the window less the answer's room, whole (never cut inside a message), in their order. The
 * newest message (the question) is always sent, even when it alone is too long.
 */
export function fitHistory(system: RuntimeMessage, history: RuntimeMessage[], contextTokens: number | null): { messages: RuntimeMessage[]; left: number } {
  const window = contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  let budget = window - answerRoom(window) - estimateTokens(system);
  const kept: RuntimeMessage[] = [];
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    const cost = estimateTokens(m);
    if (cost > budget && kept.length > 0) break;
    kept.unshift(m);
    budget -= cost;
  }
  return { messages: [system, ...kept], left: history.length - kept.length };
}

/** The first words of the question, as a title when the model cannot make one. */
export function fallbackTitle(question: string): string {
  const words = question.replace(/\s+/g, ' ').trim().split(' ').slice(0, 6).join(' ');
  const title = words.length > MAX_TITLE_CHARS ? `${words.slice(0, MAX_TITLE_CHARS - 1).trimEnd()}…` : words;
  return title || 'New chat';
}

/**
 * The model's title, parsed strictly: JSON {"title": "..."} with a few words, no quotes, no line
 * breaks, at most MAX_TITLE_CHARS; null for anything else.
 */
export function parseTitle(reply: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.trim());
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { title?: unknown }).title !== 'string') return null;
  const title = (parsed as { title: string }).title
    .replace(/["“”„«»`]/g, '')
    .replace(/^'+|'+$/g, '')
    .replace(/\s+/g, ' ')
    .replace(/[.\s]+$/, '')
    .trim();
  if (!title || title.length > MAX_TITLE_CHARS || title.split(' ').length > 12) return null;
  return title;
}

/** Sources in first-seen order, one per URL. */
export function dedupeSources(sources: Source[]): Source[] {
  const seen = new Set<string>();
  return sources.filter((s) => (seen.has(s.url) ? false : (seen.add(s.url), true)));
}
