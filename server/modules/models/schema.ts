// The models module's contract (/api/models): the runtime's models for people to choose from,
// the household's essential choices, and which chat models each member may use.
// The admin routes' bodies (select, pull, delete, access) are added here by the module.
import { z } from 'zod';
import { DownloadJob } from '../downloads/schema.js';
import { Availability } from '../tools/schema.js';

/** What a model can do, in Hearth's words (Ollama's `completion` is `chat`). */
export const ModelCapability = z.enum(['chat', 'vision', 'tools', 'embedding']);
export type ModelCapability = z.infer<typeof ModelCapability>;

/** From the hardware probe: fits (runs well), slow (runs, partly on the CPU), wont_fit (not enough memory). */
export const ModelFit = z.enum(['fits', 'slow', 'wont_fit']);
export type ModelFit = z.infer<typeof ModelFit>;

export const EssentialRoleName = z.enum(['chat', 'embeddings', 'router', 'vision']);
export type EssentialRoleName = z.infer<typeof EssentialRoleName>;

export const ModelView = z.object({
  name: z.string(),
  sizeBytes: z.number().nullable(),
  family: z.string().nullable(),
  parameterSize: z.string().nullable(),
  capabilities: z.array(ModelCapability),
  /** null when the hardware could not be probed. */
  fit: ModelFit.nullable(),
  /** A sentence about the fit for people, e.g. "Runs on this computer's graphics card."; null with fit null. */
  fitNote: z.string().nullable(),
  /** The household roles this model fills. */
  roles: z.array(EssentialRoleName),
});
export type ModelView = z.infer<typeof ModelView>;

/**
 * GET /api/models. An admin sees every installed model; a member sees only the chat models
 * they may use (the chat picker's list). `runtime` says whether the model runtime answers.
 */
export const ModelsResponse = z.object({
  runtime: Availability,
  models: z.array(ModelView),
  chosen: z.object({ chat: z.string().nullable(), embeddings: z.string().nullable(), router: z.string().nullable(), vision: z.string().nullable() }),
  /**
   * The roles whose model Hearth adopted because the runtime already had it and nobody had chosen
   * one (the web app says so; choosing a model for the role makes it the household's choice).
   */
  adopted: z.array(EssentialRoleName),
});
export type ModelsResponse = z.infer<typeof ModelsResponse>;

/**
 * An Ollama model name: `name`, `name:tag`, `namespace/name:tag` or `host/namespace/name:tag`
 * (lowercase name parts; a tag of letters, digits, `.`, `_` and `-`).
 */
export const MODEL_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]*(?:\/[a-z0-9][a-z0-9._-]*){0,2}(?::[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127})?$/;
export const MAX_MODEL_NAME = 200;
/** How many models one member's allow-list may name. */
export const MAX_ALLOWED_MODELS = 100;

export const ModelName = z
  .string()
  .trim()
  .min(1, 'Type a model name, such as llama3.2:3b.')
  .max(MAX_MODEL_NAME)
  .regex(MODEL_NAME_PATTERN, 'That is not a model name. Model names look like llama3.2:3b or qwen3:0.6b.');

/** POST /api/models/select: the model for one household role. */
export const SelectModelBody = z.strictObject({ role: EssentialRoleName, model: ModelName });
export type SelectModelBody = z.infer<typeof SelectModelBody>;

/** POST /api/models/pull. */
export const PullModelBody = z.strictObject({ model: ModelName });
/** The queue's job for the pull; `alreadyQueued` when the model was already waiting or downloading (200, not 202). */
export const PullModelResponse = z.object({ job: DownloadJob, alreadyQueued: z.boolean() });
export type PullModelResponse = z.infer<typeof PullModelResponse>;

/** DELETE /api/models/:name (URL-encoded: names hold `:` and may hold `/`). */
export const ModelNameParams = z.object({ name: ModelName });

/** One member's chat models: `allowed` null means every chat model (the default). Admins are not listed: they may use every model. */
export const MemberModelAccess = z.object({ userId: z.string(), name: z.string(), allowed: z.array(z.string()).nullable() });
export type MemberModelAccess = z.infer<typeof MemberModelAccess>;
export const ModelAccessResponse = z.object({ members: z.array(MemberModelAccess) });
export type ModelAccessResponse = z.infer<typeof ModelAccessResponse>;
export const MemberModelAccessResponse = z.object({ member: MemberModelAccess });
export type MemberModelAccessResponse = z.infer<typeof MemberModelAccessResponse>;

export const AccessUserParams = z.object({ userId: z.string().min(1).max(64) });
export const SetModelAccessBody = z.strictObject({ allowed: z.array(ModelName).max(MAX_ALLOWED_MODELS).nullable() });
export type SetModelAccessBody = z.infer<typeof SetModelAccessBody>;
