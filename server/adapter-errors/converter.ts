// The one translation of a converter tool failure (adapters/converter/) into an answer: one status,
// code and sentence per kind (docs/architecture.md, "Adapter failures"). The adapter's message names
// programs and their error output: log only.
import { ConverterToolError, type ConverterFailure } from '../adapters/converter/programs.js';
import { AppError } from '../errors.js';

/** The converter tool's failure kind, for a log line; null for anything else. */
export function converterFailureKind(err: unknown): ConverterFailure | null {
  return err instanceof ConverterToolError ? err.failure : null;
}

const TOOL_NAMES: Record<ConverterToolError['tool'], string> = {
  ffmpeg: 'ffmpeg',
  'heif-convert': 'heif-convert (libheif-examples)',
  soffice: 'LibreOffice',
  gs: 'Ghostscript',
  pandoc: 'pandoc',
  sharp: 'the picture library',
};

/**
 * A converter tool failure as its AppError; anything else comes back unchanged. `what` names the
 * kind of file the preset reads ("a video or audio file", "a PDF").
 */
export function converterAppError(err: unknown, what: string): unknown {
  if (!(err instanceof ConverterToolError)) return err;
  switch (err.failure) {
    case 'missing':
      return new AppError(422, 'tool_not_installed', `This conversion needs ${TOOL_NAMES[err.tool]}, which is not installed on the Hearth computer. An admin can install it.`);
    case 'unreadable':
      return new AppError(422, 'unreadable_file', `Hearth could not read that file as ${what}. Check that it is not damaged, or choose another preset.`);
    case 'timeout':
      return new AppError(504, 'conversion_timeout', 'The conversion took too long and was stopped. Try a shorter or smaller file.');
    case 'aborted':
      return new AppError(409, 'cancelled', 'The conversion was cancelled.');
    case 'failed':
      return new AppError(502, 'conversion_failed', 'The conversion did not finish. Try again; if it keeps happening, try another preset.');
  }
}
