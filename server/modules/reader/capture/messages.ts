// What a failed capture tells the household: a sentence with a next step, never an errno, a
// Chromium net:: code or a bare HTTP status. load.ts builds its CaptureErrors from these, and
// `readableCaptureMessage` gives a message stored before this mapping (archive_error of an older
// item) the same wording when an item is shown. The raw cause stays in the log.

const TRY_LATER = 'Try again later, or open the original.';

/** A network failure, from a Node error code (ENOTFOUND…) or a Chromium one (net::ERR_NAME_NOT_RESOLVED…). */
export function unreachableMessage(code = ''): string {
  if (/ENOTFOUND|EAI_AGAIN|EAI_NONAME|NAME_NOT_RESOLVED/i.test(code))
    return `Hearth could not find this site. Check the address for typos, and that Hearth is connected to the internet. ${TRY_LATER}`;
  if (/ECONNREFUSED|CONNECTION_REFUSED/i.test(code)) return `The site refused the connection; it may be down for now. ${TRY_LATER}`;
  if (/TIMEOUT|TIMEDOUT|TIMED_OUT/i.test(code)) return timeoutMessage();
  if (/CERT|SSL|TLS/i.test(code)) return `The site's security certificate is not valid, so Hearth did not save it. Open the original only if you trust the site.`;
  return `The site could not be reached. Check that Hearth is connected to the internet. ${TRY_LATER}`;
}

export function timeoutMessage(): string {
  return `The site took too long to answer. ${TRY_LATER}`;
}

/** The site answered, with an HTTP error status. */
export function httpErrorMessage(status: number): string {
  if (status === 404 || status === 410) return 'The site says this page does not exist (any more). Check the address, or look for the page on the site.';
  if (status === 401 || status === 403) return 'The site did not let Hearth read this page (it may need a sign-in). Open the original to read it there.';
  if (status === 429) return 'The site asked Hearth to slow down. Try again in an hour or so.';
  if (status >= 500) return `The site had a problem of its own while answering. ${TRY_LATER}`;
  return `The site refused to send this page. ${TRY_LATER}`;
}

/** What kind of file a content type is, in words ("a PDF document"), or null when it has no plain name. */
function fileKind(mime: string): string | null {
  const m = mime.toLowerCase();
  if (m === 'application/pdf') return 'a PDF document';
  if (m.startsWith('image/')) return 'a picture';
  if (m.startsWith('video/')) return 'a video';
  if (m.startsWith('audio/')) return 'a sound file';
  if (m.startsWith('text/plain')) return 'a plain text file';
  if (/zip|compressed|tar|gzip|x-7z|rar/.test(m)) return 'a compressed file';
  if (/msword|wordprocessing|opendocument\.text|rtf/.test(m)) return 'a document';
  if (/excel|spreadsheet|csv/.test(m)) return 'a spreadsheet';
  if (/json|xml/.test(m)) return 'data for programs';
  return null;
}

/** The address leads to a file, not a page: says which kind in words, never its content type. */
export function notWebPageMessage(mime = ''): string {
  const kind = fileKind(mime);
  const what = kind ? `That link is ${kind}, not a web page` : 'That link is a file, not a web page';
  return `${what}, so Hearth cannot keep a reading copy of it. Keep it as a live link instead: it opens the file in a new tab.`;
}

/** Hearth's own page saver (headless Chromium) did not start or stopped. */
export const BROWSER_FAILED = 'Hearth’s page saver stopped before the page was saved. Try again; if it keeps happening, restart Hearth.';

/** Raw codes that must never reach a person: errno names, Chromium net errors, HTTP statuses. */
const RAW_CODE = /\b(E[A-Z]{4,}|EAI_[A-Z]+)\b|net::ERR_|\bHTTP \d{3}\b|\b(application|text|image|video|audio)\/[\w.+-]+/;

/**
 * A stored capture message as the household sees it: the messages older Hearth versions wrote
 * ("The site could not be reached (ENOTFOUND).", "… (HTTP 403).", "The page could not be loaded:
 * net::ERR_FAILED …") become today's sentences; anything else with a raw code left in it becomes the
 * general one. Today's sentences pass unchanged.
 */
export function readableCaptureMessage(stored: string): string {
  const unreachable = /^The site could not be reached(?: \(([^)]*)\))?\.?$/.exec(stored);
  if (unreachable) return unreachableMessage(unreachable[1] ?? '');
  const http = /^The site answered with an error \(HTTP (\d{3})\)\.?$/.exec(stored);
  if (http) return httpErrorMessage(Number(http[1]));
  const loadFailed = /^The page could not be loaded(?::\s*(.*))?$/s.exec(stored);
  if (loadFailed) return unreachableMessage(/net::(ERR_\w+)/.exec(loadFailed[1] ?? '')?.[1] ?? '');
  if (/^The capture browser (could not start|failed)/.test(stored)) return BROWSER_FAILED;
  if (/^The (site took too long to answer|page took too long to load)\.$/.test(stored)) return timeoutMessage();
  const notPage = /^That address is not a web page \(([^)]*)\)\.?$/.exec(stored);
  if (notPage) return notWebPageMessage(notPage[1]);
  if (RAW_CODE.test(stored)) return `The page could not be saved. ${TRY_LATER}`;
  return stored;
}
