// The error taxonomy. Services throw these; http/error-handler.ts is the only place that turns
// them into responses. Codes are snake_case strings from the spec and DESIGN.md §3.

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message = 'The request is not valid.', details?: unknown, code = 'invalid_request') {
    super(400, code, message, details);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Sign in to continue.', code = 'unauthenticated') {
    super(401, code, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Only an admin can do that.', code = 'forbidden') {
    super(403, code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found.', code = 'not_found') {
    super(404, code, message);
  }
}

export class ConflictError extends AppError {
  constructor(code: string, message: string, details?: unknown) {
    super(409, code, message, details);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message = 'The request body is too large.') {
    super(413, 'payload_too_large', message);
  }
}

/** A file of a kind Hearth cannot read (a HEIC photo, a damaged picture), said in a sentence. */
export class UnsupportedMediaError extends AppError {
  constructor(message: string) {
    super(415, 'unsupported_media_type', message);
  }
}

export class UnprocessableError extends AppError {
  constructor(code: string, message: string, details?: unknown) {
    super(422, code, message, details);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(code: string, message: string, retryAfterSeconds: number) {
    super(429, code, message, { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(code: string, message: string, details?: unknown) {
    super(503, code, message, details);
  }
}

export class UpstreamError extends AppError {
  constructor(code: string, message: string, details?: unknown) {
    super(502, code, message, details);
  }
}

/**
 * What a client may see of a failure that has no HTTP answer of its own (a watcher's copy of a
 * stream's `error` event): an AppError's code and message; of anything else only that it happened.
 * http/error-handler.ts answers with the same sentence.
 */
export function publicError(err: unknown): { code: string; message: string } {
  if (err instanceof AppError) return { code: err.code, message: err.message };
  return { code: 'internal_error', message: 'Something went wrong on the server. It has been logged.' };
}
