// Skills and who may see and change them: a member sees the household's skills and their own;
// another member's private skill is a 404 for everyone else, admins included. The household's
// skills are changed by admins only (403 for a member); a member's own by that member.
import { randomUUID } from 'node:crypto';
import { assertAdmin, isAdmin, ownedOrNotFound, type UserActor } from '../../actor.js';
import { ConflictError, NotFoundError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { MAX_SKILLS_PER_OWNER, type CreateSkillBody, type PatchSkillBody, type Skill, type SkillForChat } from './schema.js';
import type { SkillRow, SkillsStore } from './store.js';

export interface SkillsDeps {
  store: SkillsStore;
  clock: Clock;
  /** The chat tools there are (id and name), for a skill's tool list. */
  chatTools(): Array<{ id: string; name: string }>;
}

const notFound = () => new NotFoundError('That skill does not exist.');

export class SkillsService {
  constructor(private readonly deps: SkillsDeps) {}

  private view(actor: UserActor, r: SkillRow): Skill {
    return {
      id: r.id,
      name: r.name,
      description: r.description,
      instructions: r.instructions,
      tools: r.tools,
      starterPrompts: r.starterPrompts,
      scope: r.ownerId === null ? 'household' : 'mine',
      builtIn: r.id.startsWith('builtin-'),
      editable: r.ownerId === null ? isAdmin(actor) : true,
      updatedAt: r.updatedAt,
    };
  }

  private async visibleRow(actor: UserActor, id: string): Promise<SkillRow> {
    return ownedOrNotFound(actor, await this.deps.store.get(id), notFound, { household: true });
  }

  private checkTools(tools: string[]): void {
    const known = new Set(this.deps.chatTools().map((t) => t.id));
    const unknown = tools.filter((t) => !known.has(t));
    if (unknown.length > 0) throw new UnprocessableError('unknown_tool', `Hearth has no chat tool called ${unknown.map((t) => `"${t}"`).join(', ')}.`);
  }

  tools(): Array<{ id: string; name: string }> {
    return this.deps.chatTools();
  }

  async list(actor: UserActor): Promise<Skill[]> {
    return (await this.deps.store.visible(actor.id)).map((r) => this.view(actor, r));
  }

  async get(actor: UserActor, id: string): Promise<Skill> {
    return this.view(actor, await this.visibleRow(actor, id));
  }

  async create(actor: UserActor, body: CreateSkillBody): Promise<Skill> {
    if (body.scope === 'household') assertAdmin(actor);
    this.checkTools(body.tools);
    const ownerId = body.scope === 'household' ? null : actor.id;
    if ((await this.deps.store.count(ownerId)) >= MAX_SKILLS_PER_OWNER) throw new ConflictError('too_many_skills', `There are already ${MAX_SKILLS_PER_OWNER} skills here. Delete one first.`);
    const now = this.deps.clock.now().toISOString();
    const row: SkillRow = { id: randomUUID(), ownerId, name: body.name, description: body.description, instructions: body.instructions, tools: [...new Set(body.tools)], starterPrompts: body.starterPrompts, createdAt: now, updatedAt: now };
    await this.deps.store.insert(row);
    return this.view(actor, row);
  }

  private async editableRow(actor: UserActor, id: string): Promise<SkillRow> {
    const row = await this.visibleRow(actor, id);
    if (row.ownerId === null) assertAdmin(actor);
    return row;
  }

  async update(actor: UserActor, id: string, body: PatchSkillBody): Promise<Skill> {
    const row = await this.editableRow(actor, id);
    if (body.tools) this.checkTools(body.tools);
    const next: SkillRow = { ...row, ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)), updatedAt: this.deps.clock.now().toISOString() };
    if (body.tools) next.tools = [...new Set(body.tools)];
    await this.deps.store.update(next);
    return this.view(actor, next);
  }

  async remove(actor: UserActor, id: string): Promise<boolean> {
    await this.editableRow(actor, id);
    return this.deps.store.delete(id);
  }

  /** For chat: the skill an answer uses (404 when the caller cannot see it). */
  async forChat(actor: UserActor, id: string): Promise<SkillForChat> {
    const r = await this.visibleRow(actor, id);
    return { id: r.id, name: r.name, instructions: r.instructions, tools: r.tools };
  }
}
