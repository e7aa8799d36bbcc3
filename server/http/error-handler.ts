// The only place errors become responses: {error: {code, message, details?}}.
// Known errors keep their status (an AppError of 500 or more is logged as one warn line, it is a
// refusal by design); body-parser and router 4xx errors are mapped; anything else is logged with
// its stack and the request id and answered as a 500 without internals.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { z } from 'zod';
import { AppError, publicError } from '../errors.js';
import { withoutUrls, type Logger } from '../platform/logger.js';
import { zodDetails } from './validate.js';

interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

const BODY_PARSER_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  'entity.parse.failed': { status: 400, code: 'invalid_request', message: 'The request body is not valid JSON.' },
  'entity.too.large': { status: 413, code: 'payload_too_large', message: 'The request body is too large.' },
  'encoding.unsupported': { status: 415, code: 'unsupported_encoding', message: 'The request body encoding is not supported.' },
  'charset.unsupported': { status: 415, code: 'unsupported_charset', message: 'The request body charset is not supported.' },
  'request.aborted': { status: 400, code: 'request_aborted', message: 'The request was aborted.' },
  'request.size.invalid': { status: 400, code: 'invalid_request', message: 'The request body length does not match its header.' },
  'stream.encoding.set': { status: 500, code: 'internal_error', message: 'Something went wrong on the server.' },
};

export function renderError(err: unknown): { status: number; body: { error: { code: string; message: string; details?: unknown } }; headers?: Record<string, string> } {
  if (err instanceof AppError) {
    const error: { code: string; message: string; details?: unknown } = { code: err.code, message: err.message };
    if (err.details !== undefined) error.details = err.details;
    return { status: err.status, body: { error }, headers: err.headers };
  }
  if (err instanceof z.ZodError) {
    return { status: 400, body: { error: { code: 'invalid_request', message: 'The request is not valid.', details: zodDetails(err) } } };
  }
  const e = (err ?? {}) as HttpishError;
  const m = e.type ? BODY_PARSER_ERRORS[e.type] : undefined;
  if (m) {
    return { status: m.status, body: { error: { code: m.code, message: m.message } } };
  }
  const status = e.status ?? e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // e.g. the router's 400 for a malformed %-escape in a path parameter
    const message = status === 400 ? 'The request is not valid.' : e.expose && e.message ? e.message : 'The request could not be handled.';
    return { status, body: { error: { code: status === 404 ? 'not_found' : 'invalid_request', message } } };
  }
  return { status: 500, body: { error: publicError(err) } };
}

/**
 * Logs an error that became a 5xx answer (or a stream's `error` event): a refusal by design
 * (offline mode, a program not running, no room on the disk) as one line without a stack, anything
 * else with its stack. 4xx answers are already in the request log. Returns whether it was a refusal.
 */
export function logFailure(logger: Logger, err: unknown, status: number, context: Record<string, unknown>): boolean {
  if (status < 500) return false;
  if (err instanceof AppError) {
    logger.warn({ code: err.code, message: withoutUrls(err.message), ...context }, 'request refused');
    return true;
  }
  logger.error({ err, ...context }, 'request failed');
  return false;
}

export function createErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const { status, body, headers } = renderError(err);
    if (logFailure(logger, err, status, { requestId: res.getHeader('x-request-id'), method: req.method, path: req.path })) res.locals.refusal = true;
    if (headers) res.set(headers);
    res.status(status).json(body);
  };
}

/** The last /api handler: an unknown path is a JSON 404, never the web app's index.html. */
export const noRoute: RequestHandler = (req, res) => {
  res.status(404).json({ error: { code: 'no_route', message: `There is no API route ${req.method} ${req.originalUrl.split('?')[0]}.` } });
};
