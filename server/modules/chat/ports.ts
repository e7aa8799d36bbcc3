// What chat asks of the rest of Hearth, as small interfaces the container fills in.
import type { UserActor } from '../../actor.js';
import { ConflictError } from '../../errors.js';

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

export class NoChatModelError extends ConflictError {
  constructor() {
    super('no_chat_model', 'No chat model is chosen yet. An admin can choose one in Admin › Models.');
  }
}
