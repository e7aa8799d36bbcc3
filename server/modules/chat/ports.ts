// What chat asks of the rest of Hearth, as small interfaces the container fills in (ChatPorts).
import type { UserActor } from '../../actor.js';
import type { ContentService } from '../content/service.js';
import type { CompanionsService } from '../companions/service.js';
import type { MemoryService } from '../memory/service.js';
import type { SkillsService } from '../skills/service.js';
import type { ModelDetailsCache } from '../models/public.js';
import type { Tool as Extension } from '../tools/schema.js';
import type { ChatTool } from './tool-registry.js';

/**
 * Which model answers a member: the one they asked for when they may use it, else the household's.
 * Throws a 4xx AppError with a sentence when there is none (or, with per-member access, 403
 * model_not_allowed). The models module provides the household's real one.
 */
export interface ChatModelPicker {
  pick(actor: UserActor, requested: string | undefined): Promise<string>;
}

/** The model runtime's model names as one quick look found them (null: it did not answer). */
export interface RuntimeLooker {
  runtimeModels(): Promise<string[] | null>;
  chosenModel(role: 'chat' | 'router'): Promise<string | null>;
}

/**
 * The vision module: a photo described for a chat model that cannot see (a few lines of what the
 * household's vision model saw), or null when no vision model is installed.
 */
export interface PhotoDescriber {
  describeForChat(actor: UserActor, image: Buffer): Promise<string | null>;
}

/** What the chat module asks of other modules (container.ts hands these in). */
export interface ChatPorts {
  /** The models module's per-model details (context length, tools) and who may use which model. */
  details: Pick<ModelDetailsCache, 'get'>;
  picker: ChatModelPicker;
  /** The features module's quick look at the runtime's models and the chosen ones. */
  looker: RuntimeLooker;
  /** The tools module's Extensions: a chat tool is offered only while its Extension is on. */
  extensions: { list(): Promise<Extension[]> };
  /** Tests' stand-in chat tools; each takes the place of a real tool with the same id. */
  standIns?: ChatTool[];
  /** The content module: the member's chat level picks the system prompt's instruction. */
  content: Pick<ContentService, 'effective'>;
  /** The memory module: a question asking to remember something is kept; the member's memories go into their system prompt. */
  memory: Pick<MemoryService, 'forPrompt' | 'rememberFrom'>;
  /** The companions module: the companion an answer speaks as (refused when it is not the member's). */
  companions: Pick<CompanionsService, 'forChat'>;
  /** The skills module: the skill an answer uses (404 when the member cannot see it). */
  skills: Pick<SkillsService, 'forChat'>;
  /** The vision module (built after chat, so asked for when a photo comes): photos for a chat model that cannot see. */
  vision?: () => PhotoDescriber;
}
