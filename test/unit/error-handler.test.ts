import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, BadRequestError, ConflictError, ForbiddenError, NotFoundError, PayloadTooLargeError, ServiceUnavailableError, TooManyRequestsError, UnauthorizedError, UnprocessableError, UpstreamError } from '../../server/errors.js';
import { renderError } from '../../server/http/error-handler.js';

describe('renderError', () => {
  it.each([
    [new BadRequestError(), 400, 'invalid_request'],
    [new UnauthorizedError(), 401, 'unauthenticated'],
    [new ForbiddenError(), 403, 'forbidden'],
    [new ForbiddenError('Locked.', 'layout_locked'), 403, 'layout_locked'],
    [new NotFoundError(), 404, 'not_found'],
    [new ConflictError('last_admin', 'Keep one admin.'), 409, 'last_admin'],
    [new PayloadTooLargeError(), 413, 'payload_too_large'],
    [new UnprocessableError('face_id_not_installed', 'Install it first.'), 422, 'face_id_not_installed'],
    [new ServiceUnavailableError('not_ready', 'Still starting.'), 503, 'not_ready'],
    [new UpstreamError('model_runtime_failed', 'It broke.'), 502, 'model_runtime_failed'],
  ])('keeps the status and code of %s', (err, status, code) => {
    const r = renderError(err);
    expect(r.status).toBe(status);
    expect(r.body.error.code).toBe(code);
    expect(r.body.error.message).toBe(err.message);
    expect(r.body.error).not.toHaveProperty('details');
  });

  it('passes details and headers through', () => {
    const r = renderError(new TooManyRequestsError('locked_out', 'Wait.', 120));
    expect(r).toEqual({ status: 429, body: { error: { code: 'locked_out', message: 'Wait.', details: { retryAfterSeconds: 120 } } }, headers: { 'Retry-After': '120' } });
    const custom = renderError(new AppError(418, 'teapot', 'Short and stout.', [{ path: 'x', message: 'y' }]));
    expect(custom.body.error.details).toEqual([{ path: 'x', message: 'y' }]);
  });

  it('maps a ZodError to 400 invalid_request with [{path, message}] details', () => {
    const result = z.object({ name: z.string(), tags: z.array(z.number()) }).safeParse({ name: 3, tags: [1, 'two'] });
    expect(result.success).toBe(false);
    const r = renderError(result.error);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_request');
    expect(r.body.error.details).toEqual([
      { path: 'name', message: expect.any(String) },
      { path: 'tags.1', message: expect.any(String) },
    ]);
  });

  it.each([
    ['entity.parse.failed', 400, 'invalid_request'],
    ['entity.too.large', 413, 'payload_too_large'],
    ['encoding.unsupported', 415, 'unsupported_encoding'],
    ['charset.unsupported', 415, 'unsupported_charset'],
    ['request.aborted', 400, 'request_aborted'],
    ['request.size.invalid', 400, 'invalid_request'],
  ])('maps the body-parser error %s to %i %s', (type, status, code) => {
    const err = Object.assign(new Error('raw parser message with internals: at JSON.parse (<anonymous>)'), { type, status: 400, expose: true });
    const r = renderError(err);
    expect(r.status).toBe(status);
    expect(r.body.error.code).toBe(code);
    expect(r.body.error.message).not.toContain('JSON.parse');
  });

  it('maps other 4xx http errors (a malformed %-escape in a path) without their raw message', () => {
    const r = renderError(Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), { status: 400 }));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_request');
    expect(r.body.error.message).not.toContain('decode');
  });

  it.each([
    ['an Error', new Error('SQLITE_CORRUPT: database disk image is malformed at /home/pat/.config/Hearth/hearth.db')],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'pin_hash')")],
    ['a string', 'boom at /srv/secret'],
    ['undefined', undefined],
    ['null', null],
    ['a 5xx http error', Object.assign(new Error('upstream secret'), { status: 503, expose: false })],
  ])('answers %s as 500 internal_error without internals', (_label, err) => {
    const r = renderError(err);
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe('internal_error');
    expect(r.body.error).not.toHaveProperty('details');
    const text = JSON.stringify(r.body);
    for (const leak of ['SQLITE', 'hearth.db', 'pin_hash', '/srv/secret', 'upstream secret', 'TypeError', 'stack']) expect(text).not.toContain(leak);
  });
});
