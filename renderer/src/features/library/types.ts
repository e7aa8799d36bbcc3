// The reference-archive API as the web app uses it: every shape is the server's own
// (server/modules/archives/schema.ts, types only). What is the web app's own: the streams' event
// maps with the stream runner's `error` event, the shelf rule, the view address and the wording for
// the archive server's state.
import type { ArchiveDownloadEvents, ArchiveServerState, ArchiveStreamError, RuntimeInstallEvents } from '../../../../server/modules/archives/schema.js';

export type {
  ArchiveCatalogResponse,
  ArchivesStatus,
  CatalogEntry,
  DownloadProgress,
  InstalledArchive,
  InstalledArchivesResponse,
  VerifyArchivesResponse,
  VerifyResult,
} from '../../../../server/modules/archives/schema.js';

/** An archive download's stream (started or watched) as openPostStream takes it. */
export type DownloadStream = ArchiveDownloadEvents & { error: ArchiveStreamError };
/** The archive server's install stream as openPostStream takes it. */
export type RuntimeInstallStream = RuntimeInstallEvents & { error: ArchiveStreamError };

/** Books shelf: the 'Books' category or anything with a bookCategory; the rest is reference. */
export const isBook = (a: { category: string; bookCategory?: string | null }) => Boolean(a.bookCategory) || a.category.toLowerCase() === 'books';

export const viewBase = (sourceId: string) => `/api/archives/view/${encodeURIComponent(sourceId)}/`;

export const STATE_TEXT: Record<ArchiveServerState, string> = {
  idle: 'Not running (no archives to serve)',
  starting: 'Starting',
  ready: 'Running',
  failed: 'Stopped after a problem',
};
