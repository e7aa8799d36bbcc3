// Skills (issue 38): reusable chat instruction packs. A skill is the household's (managed by
// admins; three are built in) or a member's own (private: nobody else sees it, admins included).
// Picked for a chat answer (`skillId`), its instructions join the system prompt and its tool list,
// when not empty, narrows the tools offered. Not a chore or learning tracker (docs/skills.md).
import { z } from 'zod';

export const MAX_INSTRUCTIONS = 8000;
export const MAX_SKILLS_PER_OWNER = 100;

export const SkillScope = z.enum(['household', 'mine']);
export type SkillScope = z.infer<typeof SkillScope>;

export const Skill = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  instructions: z.string(),
  tools: z.array(z.string()),
  starterPrompts: z.array(z.string()),
  scope: SkillScope,
  builtIn: z.boolean(),
  /** Whether the caller may change or delete it (their own; the household's for an admin). */
  editable: z.boolean(),
  updatedAt: z.string(),
});
export type Skill = z.infer<typeof Skill>;

const Name = z.string().trim().min(1, 'Give the skill a name.').max(80);
const Description = z.string().trim().max(300);
const Instructions = z.string().trim().min(1, 'Write what the assistant should do with this skill.').max(MAX_INSTRUCTIONS);
const Tools = z.array(z.string().trim().min(1).max(64)).max(20);
const StarterPrompts = z.array(z.string().trim().min(1).max(300)).max(6);

export const CreateSkillBody = z
  .object({ name: Name, description: Description.default(''), instructions: Instructions, tools: Tools.default([]), starterPrompts: StarterPrompts.default([]), scope: SkillScope.default('mine') })
  .strict();
export type CreateSkillBody = z.infer<typeof CreateSkillBody>;
export const PatchSkillBody = z
  .object({ name: Name.optional(), description: Description.optional(), instructions: Instructions.optional(), tools: Tools.optional(), starterPrompts: StarterPrompts.optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'Say what to change.');
export type PatchSkillBody = z.infer<typeof PatchSkillBody>;

export const SkillIdParams = z.object({ id: z.string().min(1).max(64) });
export const SkillResponse = z.object({ skill: Skill });
export const SkillsResponse = z.object({ skills: z.array(Skill), tools: z.array(z.object({ id: z.string(), name: z.string() })) });
export type SkillsResponse = z.infer<typeof SkillsResponse>;
export const DeletedResponse = z.object({ deleted: z.boolean() });

/** What chat takes from a skill for one answer. */
export interface SkillForChat {
  id: string;
  name: string;
  instructions: string;
  tools: string[];
}
