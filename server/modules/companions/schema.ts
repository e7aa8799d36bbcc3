// Companions: personas a member chats with (a prompt, maybe a model, a content level, a greeting),
// granted per member by an admin; household companions at `child` are everyone's.
import { z } from 'zod';
import { Level } from '../content/schema.js';

export const Companion = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  avatar: z.string(),
  systemPrompt: z.string(),
  model: z.string().nullable(),
  level: Level,
  greeting: z.string(),
});
export type Companion = z.infer<typeof Companion>;
export const MemberCompanion = Companion.extend({ favorite: z.boolean() });
export type MemberCompanion = z.infer<typeof MemberCompanion>;
export const CompanionsResponse = z.object({ companions: z.array(MemberCompanion) });
export const FavoriteResponse = z.object({ id: z.string(), favorite: z.boolean() });

/** An admin's view: each companion with who it is granted to (or withheld from) by name. */
export const AdminCompanion = Companion.extend({ builtin: z.boolean(), grants: z.array(z.object({ userId: z.string(), granted: z.boolean() })) });
export type AdminCompanion = z.infer<typeof AdminCompanion>;
export const AdminCompanionsResponse = z.object({ companions: z.array(AdminCompanion) });
export const AdminCompanionResponse = z.object({ companion: AdminCompanion });

const Text = (max: number) => z.string().trim().min(1).max(max);
export const CompanionBody = z
  .object({
    name: Text(60),
    description: Text(300),
    avatar: Text(16),
    systemPrompt: Text(4000),
    model: z.string().trim().min(1).max(200).nullable().default(null),
    level: Level,
    greeting: Text(500),
  })
  .strict();
export type CompanionBody = z.infer<typeof CompanionBody>;
export const CompanionPatchBody = CompanionBody.partial().strict();
export type CompanionPatchBody = z.infer<typeof CompanionPatchBody>;
export const CompanionParams = z.object({ id: z.string().min(1).max(64).regex(/^[a-z0-9-]+$/) });
export const GrantParams = CompanionParams.extend({ userId: z.string().uuid() });
export const GrantBody = z.object({ granted: z.boolean() }).strict();
