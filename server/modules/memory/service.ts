// The rules of chat memory: off until an admin switches it on for the household; then each member
// keeps short facts (added by hand, or by saying "remember that ..." in chat), which go into their
// own chat's system prompt. A member's memories are theirs alone: nobody else, an admin included,
// can list, read or delete them (404, as for conversations).
import { randomUUID } from 'node:crypto';
import { assertAdmin, type Actor, type UserActor } from '../../actor.js';
import type { AppSettingsStore } from '../../db/kv.js';
import { ConflictError, NotFoundError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { KEY_MEMORY_ENABLED, MAX_MEMORIES, MAX_MEMORY_CHARS, type MemoriesResponse, type Memory, type MemorySetting } from './schema.js';
import type { MemoryStore } from './store.js';

export interface MemoryDeps {
  store: MemoryStore;
  settings: AppSettingsStore;
  clock: Clock;
}

/** "remember that Sam is allergic to peanuts", "please remember: ...": the fact, or null. */
const REMEMBER = /^\s*(?:please\s+)?remember(?:\s+that|\s*:)?\s+(.+?)[\s.!]*$/is;
export function factToRemember(message: string): string | null {
  const m = REMEMBER.exec(message);
  const fact = m?.[1]?.trim().replace(/\s+/g, ' ');
  return fact && fact.length <= MAX_MEMORY_CHARS ? fact : null;
}

export class MemoryService {
  constructor(private readonly deps: MemoryDeps) {}

  async enabled(): Promise<boolean> {
    return (await this.deps.settings.get(KEY_MEMORY_ENABLED)) === true;
  }

  async setting(actor: Actor): Promise<MemorySetting> {
    assertAdmin(actor);
    return { enabled: await this.enabled() };
  }

  async setEnabled(actor: Actor, enabled: boolean): Promise<MemorySetting> {
    assertAdmin(actor);
    await this.deps.settings.set(KEY_MEMORY_ENABLED, enabled);
    return { enabled };
  }

  async list(actor: UserActor): Promise<MemoriesResponse> {
    const [enabled, memories] = await Promise.all([this.enabled(), this.deps.store.list(actor.id)]);
    return { enabled, memories };
  }

  async add(actor: UserActor, text: string): Promise<Memory> {
    if (!(await this.enabled())) throw new ConflictError('memory_off', 'Chat memory is off in this household. An admin can switch it on in the admin settings.');
    if ((await this.deps.store.count(actor.id)) >= MAX_MEMORIES) throw new UnprocessableError('memory_full', `You can keep up to ${MAX_MEMORIES} memories. Remove one you no longer need first.`);
    const memory = { id: randomUUID(), text, createdAt: this.deps.clock.now().toISOString() };
    await this.deps.store.insert(actor.id, memory);
    return memory;
  }

  async remove(actor: UserActor, id: string): Promise<void> {
    if (!(await this.deps.store.delete(actor.id, id))) throw new NotFoundError('That memory is not there. It may have been removed already.');
  }

  /** What chat puts in the member's system prompt: nothing while memory is off. */
  async forPrompt(actor: UserActor): Promise<string[]> {
    if (!(await this.enabled())) return [];
    return (await this.deps.store.list(actor.id)).map((m) => m.text);
  }

  /**
   * Chat's plain-text rule: a question that asks to remember something ("remember that ...") keeps
   * it, while memory is on and room is left. True when the question was such a request (kept now or
   * before): the answer then does not offer the `remember` tool, so the fact is not kept twice in
   * other words.
   */
  async rememberFrom(actor: UserActor, message: string): Promise<boolean> {
    const fact = factToRemember(message);
    if (!fact || !(await this.enabled())) return false;
    await this.keep(actor, fact);
    return true;
  }

  /** The `remember` chat tool's call: the fact kept, or why not (told to the model, which tells the member). */
  async remember(actor: UserActor, fact: string): Promise<RememberOutcome> {
    if (!(await this.enabled())) return 'off';
    return this.keep(actor, fact.trim().replace(/\s+/g, ' '));
  }

  private async keep(actor: UserActor, fact: string): Promise<Exclude<RememberOutcome, 'off'>> {
    const kept = await this.deps.store.list(actor.id);
    // asked again (a regenerated answer, the same words with a full stop): kept once
    const same = (text: string) => text.toLowerCase().replace(/[\s.!]+$/, '') === fact.toLowerCase().replace(/[\s.!]+$/, '');
    if (kept.some((m) => same(m.text))) return 'known';
    if (kept.length >= MAX_MEMORIES) return 'full';
    await this.deps.store.insert(actor.id, { id: randomUUID(), text: fact, createdAt: this.deps.clock.now().toISOString() });
    return 'kept';
  }
}

/** What became of a fact chat was asked to remember: kept now, kept before, no room left, memory off. */
export type RememberOutcome = 'kept' | 'known' | 'full' | 'off';
