// The morning briefing's summary in words (issue 33): when chat is ready, the household chat model
// writes 3 short sentences meant to be read aloud, from the briefing's facts only (the facts are the
// whole prompt; nothing else is looked up). Kept per member per morning. When the model is down,
// slow or answers something that is not 3 plain sentences, the briefing goes on without a summary
// and says why; the failure is remembered for a few minutes so every request does not wait again.
import type { ModelRuntimeClient } from '../../adapters/model-runtime/ollama.js';
import type { Clock } from '../../platform/clock.js';
import { withoutUrls, type Logger } from '../../platform/logger.js';
import type { AvailabilityCheck } from '../tools/schema.js';
import type { BriefingSummaryStore } from './briefing-summary-store.js';

export const SUMMARY_TIMEOUT_MS = 30_000;
/** After a failed summary, the model is not asked again for this member this long. */
const RETRY_AFTER_FAILURE_MS = 10 * 60_000;
const MAX_SUMMARY_CHARS = 700;

export const SUMMARY_SYSTEM_PROMPT = [
  'You write a household member’s morning briefing, to be read aloud.',
  'Use only the facts you are given. Do not add any fact, number, name or date that is not in them.',
  'Write exactly 3 short sentences of plain spoken text: no lists, no headings, no markdown, no emoji.',
].join(' ');

/** The member's language and units, said to the model so the summary is in their words and measures. */
export interface SummaryVoice {
  language: string;
  units: 'metric' | 'imperial';
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
/** The system prompt for a member: the rules, then their language and units. */
export function summaryPrompt(voice?: SummaryVoice): string {
  if (!voice) return SUMMARY_SYSTEM_PROMPT;
  const name = languageNames.of(voice.language) ?? voice.language;
  const measures = voice.units === 'imperial' ? 'degrees Fahrenheit and miles per hour' : 'degrees Celsius and kilometres per hour';
  return `${SUMMARY_SYSTEM_PROMPT} Write in ${name} (${voice.language}). Temperatures and speeds are in ${measures}.`;
}

export interface SummaryDeps {
  store: BriefingSummaryStore;
  runtime: ModelRuntimeClient;
  chatModel(): Promise<string | null>;
  chatReadiness: AvailabilityCheck;
  clock: Clock;
  logger: Logger;
  timeoutMs?: number;
}

export interface SummaryOutcome {
  summary: string | null;
  /** Why there is no summary (a sentence), null when there is one. */
  note: string | null;
}

/** The model's reply as the summary: plain text, 1–3 sentences kept (the first 3 of more); null when it is not that. */
export function acceptSummary(reply: string): string | null {
  const text = reply.replace(/\s+/g, ' ').trim();
  if (!text || text.length > MAX_SUMMARY_CHARS * 2) return null;
  // markup, JSON, code or a list is not a spoken summary
  if (/[<>{}`]|^\s*[-*#\d]+[.)]?\s/.test(text) || /\*\*/.test(text)) return null;
  const sentences = text.match(/[^.!?]+[.!?]+["”’)]?/g)?.map((s) => s.trim()) ?? [];
  if (sentences.length === 0 || !/[a-z]/i.test(text)) return null;
  const kept = sentences.slice(0, 3).join(' ');
  return kept.length <= MAX_SUMMARY_CHARS ? kept : null;
}

export class BriefingSummaries {
  private readonly failedAt = new Map<string, { at: number; note: string }>();
  private readonly running = new Map<string, Promise<SummaryOutcome>>();

  constructor(private readonly deps: SummaryDeps) {}

  /** The member's summary of this morning: kept, or written now from `facts` (the briefing's facts in plain lines). */
  get(userId: string, day: string, facts: string[], voice?: SummaryVoice): Promise<SummaryOutcome> {
    const key = `${userId}:${day}`;
    const running = this.running.get(key);
    if (running) return running;
    const p = this.write(userId, day, facts, voice).finally(() => this.running.delete(key));
    this.running.set(key, p);
    return p;
  }

  private async write(userId: string, day: string, facts: string[], voice?: SummaryVoice): Promise<SummaryOutcome> {
    const kept = await this.deps.store.get(userId, day);
    if (kept) return { summary: kept.summary, note: null };
    if (facts.length === 0) return { summary: null, note: 'There is nothing to sum up yet.' };
    const ready = await this.deps.chatReadiness();
    if (!ready.available) return { summary: null, note: `No summary in words: ${ready.unavailableReason ?? 'chat is not ready.'}` };
    const model = await this.deps.chatModel();
    if (!model) return { summary: null, note: 'No summary in words: no chat model is chosen.' };
    const key = `${userId}:${day}`;
    const now = this.deps.clock.now().getTime();
    const failed = this.failedAt.get(key);
    if (failed && now - failed.at < RETRY_AFTER_FAILURE_MS) return { summary: null, note: failed.note };
    try {
      const result = await this.deps.runtime.chat({
        model,
        messages: [
          { role: 'system', content: summaryPrompt(voice) },
          { role: 'user', content: `Today’s facts:\n${facts.map((f) => `- ${f}`).join('\n')}\n\nWrite the 3-sentence briefing.` },
        ],
        options: { temperature: 0.3 },
        timeoutMs: this.deps.timeoutMs ?? SUMMARY_TIMEOUT_MS,
      });
      const summary = acceptSummary(result.content);
      if (!summary) return this.fail(key, 'No summary in words: the chat model’s answer was not a short summary.');
      await this.deps.store.put({ userId, day, summary, model, createdAt: new Date(now).toISOString() });
      this.failedAt.delete(key);
      return { summary, note: null };
    } catch (err) {
      this.deps.logger.info({ err: withoutUrls((err as Error).message) }, 'briefing: no summary from the chat model');
      return this.fail(key, 'No summary in words: the chat model could not be reached or did not answer in time.');
    }
  }

  private fail(key: string, note: string): SummaryOutcome {
    this.failedAt.set(key, { at: this.deps.clock.now().getTime(), note });
    return { summary: null, note };
  }
}
