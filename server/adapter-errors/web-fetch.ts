// The one translation of a web fetch failure (adapters/web/download.ts, a file from the internet)
// into an answer: one status, code and sentence per kind (docs/architecture.md, "Adapter
// failures"). The sentence is the download's own plain one (download-sentence.ts), never a host or
// an errno; a refused address gets a fixed sentence, since the guard's words name the address.
import { downloadErrorSentence } from '../adapters/web/download-sentence.js';
import { DownloadError, type DownloadFailure } from '../adapters/web/download.js';
import { AppError } from '../errors.js';

/** The web fetch's failure kind, for a log line; null for anything else. */
export function webFetchFailureKind(err: unknown): DownloadFailure | null {
  return err instanceof DownloadError ? err.failure : null;
}

/** A web fetch failure as its AppError; anything else comes back unchanged. */
export function webFetchAppError(err: unknown): unknown {
  if (!(err instanceof DownloadError)) return err;
  switch (err.failure) {
    case 'blocked':
      return new AppError(503, 'download_address_refused', 'Hearth does not download from that address: it leads to this computer or the home network, or Hearth runs in offline mode.');
    case 'unreachable':
      return new AppError(503, 'download_site_unreachable', sentence(err, 'Hearth could not connect to the download site. Check the internet connection, then retry it from Downloads.'));
    case 'timeout':
      return new AppError(504, 'download_timeout', sentence(err, 'The download site did not answer in time. Check the internet connection, then retry it from Downloads.'));
    case 'http_error':
    case 'bad_response':
    case 'cut_off':
      return new AppError(502, 'download_failed', sentence(err, 'The download failed. Retry it from Downloads.'));
  }
}

/** The download's own plain sentence, or the kind's when the words left are not one (an address, an errno). */
function sentence(err: DownloadError, fallback: string): string {
  const text = downloadErrorSentence(err.message);
  return /https?:|\b\d{1,3}(\.\d{1,3}){3}\b|\bE[A-Z]{4,}\b|undici/.test(text) ? fallback : text;
}
