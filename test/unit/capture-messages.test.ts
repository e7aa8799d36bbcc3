// A failed capture is told to the household as a sentence with a next step: the fetch errors
// load.ts maps (Node's undici errors carry the errno on `cause`), the HTTP statuses, and the
// messages older Hearth versions stored, which are shown in today's words.
import { describe, expect, it } from 'vitest';
import { toCaptureError } from '../../server/modules/reader/capture/load.js';
import { BROWSER_FAILED, httpErrorMessage, notWebPageMessage, readableCaptureMessage, timeoutMessage, unreachableMessage } from '../../server/modules/reader/capture/messages.js';
import { BlockedUrlError } from '../../server/platform/ssrf.js';

const RAW = /\bE[A-Z]{4,}\b|EAI_|net::|ERR_|HTTP \d{3}|\(\d{3}\)/;

/** What undici's fetch throws for a failed connection: a TypeError whose cause has the errno. */
function fetchFailure(code: string): Error {
  const cause = Object.assign(new Error(`getaddrinfo ${code} example.invalid`), { code });
  return Object.assign(new TypeError('fetch failed'), { cause });
}

describe('capture failure messages', () => {
  it('maps network errors to sentences that name no code and say what to do', () => {
    const cases: Array<[string, RegExp]> = [
      ['ENOTFOUND', /could not find this site.*Check the address/],
      ['EAI_AGAIN', /could not find this site/],
      ['ECONNREFUSED', /refused the connection/],
      ['ECONNRESET', /could not be reached/],
      ['ETIMEDOUT', /took too long/],
      ['UND_ERR_CONNECT_TIMEOUT', /took too long/],
      ['CERT_HAS_EXPIRED', /certificate/],
    ];
    for (const [code, sentence] of cases) {
      for (const err of [fetchFailure(code), Object.assign(new Error('x'), { code })]) {
        const mapped = toCaptureError(err);
        expect(mapped.message, code).toMatch(sentence);
        expect(mapped.message, code).not.toMatch(RAW);
        expect(mapped.message, code).toMatch(/Try again|Check|Open the original/);
      }
    }
    expect(toCaptureError(new BlockedUrlError('That address is on this computer.', 'http://localhost/')).code).toBe('blocked_url');
  });

  it('maps HTTP statuses to what they mean for the reader, never the number', () => {
    for (const [status, sentence] of [
      [404, /does not exist/],
      [410, /does not exist/],
      [401, /sign-in/],
      [403, /did not let Hearth/],
      [429, /slow down/],
      [500, /problem of its own/],
      [503, /problem of its own/],
      [418, /refused to send/],
    ] as const) {
      expect(httpErrorMessage(status)).toMatch(sentence);
      expect(httpErrorMessage(status)).not.toMatch(RAW);
    }
  });

  it('shows messages stored by older versions in today\'s words', () => {
    expect(readableCaptureMessage('The site could not be reached (ENOTFOUND).')).toBe(unreachableMessage('ENOTFOUND'));
    expect(readableCaptureMessage('The site could not be reached (ECONNREFUSED).')).toBe(unreachableMessage('ECONNREFUSED'));
    expect(readableCaptureMessage('The site could not be reached.')).toBe(unreachableMessage());
    expect(readableCaptureMessage('The site answered with an error (HTTP 404).')).toBe(httpErrorMessage(404));
    expect(readableCaptureMessage('The page could not be loaded: page.goto: net::ERR_NAME_NOT_RESOLVED at https://x.example/')).toBe(unreachableMessage('ENOTFOUND'));
    expect(readableCaptureMessage('The capture browser failed: Target page, context or browser has been closed')).toBe(BROWSER_FAILED);
    expect(readableCaptureMessage('The site took too long to answer.')).toMatch(/took too long.*Try again/);
    // something unknown that still carries a raw code gets the general sentence
    expect(readableCaptureMessage('Something odd happened (EPIPE).')).toMatch(/could not be saved.*Try again/);
  });

  it('leaves today\'s sentences as they are', () => {
    for (const sentence of [
      unreachableMessage('ENOTFOUND'),
      httpErrorMessage(403),
      BROWSER_FAILED,
      'The site showed a bot check instead of the article, so nothing was saved. Open the original in your browser, or try again later.',
      'The page took too long to process (over 30 s), so nothing was saved.',
      'Hearth does not fetch this address: That address is on a private or local network.',
    ]) {
      expect(readableCaptureMessage(sentence)).toBe(sentence);
    }
  });
});

describe('capture messages name no file type and no code', () => {
  const MIME = /\b(application|text|image|video|audio|font|multipart)\/[\w.+-]+/i;
  const ERRNO = /\bE[A-Z]{4,}\b|EAI_|net::|ERR_[A-Z]|HTTP \d{3}|\(\d{3}\)/;

  it('says what a file is in words, with what to do, for every kind of content', () => {
    for (const [mime, words] of [
      ['application/pdf', /a PDF document, not a web page/],
      ['image/png', /a picture/],
      ['video/mp4', /a video/],
      ['application/zip', /a compressed file/],
      ['application/octet-stream', /a file, not a web page/],
      ['', /a file, not a web page/],
    ] as const) {
      const message = notWebPageMessage(mime);
      expect(message, mime).toMatch(words);
      expect(message, mime).toMatch(/live link/);
      expect(message, mime).not.toMatch(MIME);
    }
  });

  it('leaves no content type or errno in any message, old stored ones included', () => {
    const all = [
      ...['ENOTFOUND', 'ECONNREFUSED', 'ETIMEDOUT', 'CERT_HAS_EXPIRED', 'ECONNRESET', ''].map((c) => unreachableMessage(c)),
      ...[400, 401, 403, 404, 410, 418, 429, 500, 503].map((s) => httpErrorMessage(s)),
      ...['application/pdf', 'image/jpeg', 'application/json', 'text/plain', 'application/x-whatever'].map((m) => notWebPageMessage(m)),
      timeoutMessage(),
      BROWSER_FAILED,
      ...[
        'That address is not a web page (application/pdf).',
        'That address is not a web page (unknown type).',
        'The site could not be reached (ENOTFOUND).',
        'The site answered with an error (HTTP 403).',
        'Something odd: image/svg+xml',
      ].map((m) => readableCaptureMessage(m)),
    ];
    for (const message of all) {
      expect(message).not.toMatch(MIME);
      expect(message).not.toMatch(ERRNO);
    }
    expect(readableCaptureMessage('That address is not a web page (application/pdf).')).toBe(notWebPageMessage('application/pdf'));
  });
});
