// The models module's contract (/api/models): the runtime's models for people to choose from,
// the household's essential choices, and which chat models each member may use.
// The admin routes' bodies (select, pull, delete, access) are added here by the module.
import { z } from 'zod';
import { Availability } from '../tools/schema.js';

/** What a model can do, in Hearth's words (Ollama's `completion` is `chat`). */
export const ModelCapability = z.enum(['chat', 'vision', 'tools', 'embedding']);
export type ModelCapability = z.infer<typeof ModelCapability>;

/** From the hardware probe: fits (runs well), slow (runs, partly on the CPU), wont_fit (not enough memory). */
export const ModelFit = z.enum(['fits', 'slow', 'wont_fit']);
export type ModelFit = z.infer<typeof ModelFit>;

export const EssentialRoleName = z.enum(['chat', 'embeddings', 'router']);

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
  chosen: z.object({ chat: z.string().nullable(), embeddings: z.string().nullable(), router: z.string().nullable() }),
});
export type ModelsResponse = z.infer<typeof ModelsResponse>;
