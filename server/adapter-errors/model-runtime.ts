// The one translation of a model runtime failure (adapters/model-runtime/ollama.ts) into an answer:
// one status, code and sentence per kind, the same in every module (docs/architecture.md, "Adapter
// failures"). The adapter's own message (which names the runtime's address) never reaches a person.
import { ModelRuntimeError } from '../adapters/model-runtime/ollama.js';
import { AppError } from '../errors.js';

export interface ModelRuntimeContext {
  /** The model the call asked for, named in the not-installed sentence. */
  model?: string;
  /** A caller's own way out, added after the sentence ("Or make the picture without help."). */
  otherwise?: string;
}

/** True for a model runtime failure (the runtime down, slow, refusing, cut off or sending garbage). */
export function isModelRuntimeFailure(err: unknown): err is ModelRuntimeError {
  return err instanceof ModelRuntimeError;
}

/** The model runtime's failure kind, for a log line; null for anything else. */
export function modelRuntimeFailureKind(err: unknown): ModelRuntimeError['failure'] | null {
  return err instanceof ModelRuntimeError ? err.failure : null;
}

/** A pull refused because the runtime's library has no model of that name (no retry can fix it). */
export function isUnknownModelPull(err: unknown): boolean {
  return err instanceof ModelRuntimeError && err.failure === 'pull_failed' && /file does not exist|not found/i.test(err.message);
}

/** A model runtime failure as its AppError; anything else comes back unchanged. */
export function modelRuntimeAppError(err: unknown, ctx: ModelRuntimeContext = {}): unknown {
  if (!(err instanceof ModelRuntimeError)) return err;
  const [status, code, sentence] = answer(err, ctx.model);
  return new AppError(status, code, ctx.otherwise ? `${sentence} ${ctx.otherwise}` : sentence);
}

/** The answer for a runtime that does not answer at all (a look-up found it down before asking). */
export function modelRuntimeDown(): AppError {
  return modelRuntimeAppError(new ModelRuntimeError('unreachable', 'The model runtime is not running.')) as AppError;
}

function answer(err: ModelRuntimeError, model: string | undefined): [number, string, string] {
  switch (err.failure) {
    case 'unreachable':
      return [503, 'model_runtime_unavailable', "The AI model isn't running on the Hearth computer. Start Ollama there, then try again."];
    case 'timeout':
      return [504, 'model_timeout', 'The AI model took too long to answer. Try again in a moment.'];
    case 'http_error':
      if (err.status === 404) {
        const which = model ? `The AI model ${model} isn't` : "The AI model isn't";
        return [503, 'model_not_found', `${which} installed. An admin can install it from Setup, or choose another model.`];
      }
      return [502, 'model_runtime_error', 'The AI model could not answer this time. Try again.'];
    case 'bad_response':
      return [502, 'model_runtime_error', 'The AI model sent something Hearth could not read, so it stopped. Try again.'];
    case 'pull_failed':
      return [502, 'model_pull_failed', 'The AI model could not be downloaded. Check the model name and the internet connection, then try again.'];
    case 'cut_off':
      return [502, 'model_cut_off', 'The AI model stopped in the middle of its answer. Try again.'];
  }
}
