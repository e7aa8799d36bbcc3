// Shapes of the reference-archive API (server/modules/archives): installed archives, the archive
// server's status, the admin catalog and the download / runtime-install event streams.

export interface InstalledArchive {
  id: number;
  sourceId: string;
  variantKey: string;
  bookName: string | null;
  label: string;
  description: string;
  category: string;
  bookCategory: string | null;
  faviconUrl: string | null;
  zimIconUrl: string;
  fileSizeBytes: number;
  zimDate: string | null;
  downloadedAt: string;
  verifiedAt: string | null;
  /** The archive server is serving it right now. */
  ready: boolean;
}

export interface ArchivesStatus {
  kiwixInstalled: boolean;
  kiwixState: string;
  kiwixError: string | null;
  installedCount: number;
}

export interface CatalogVariant {
  key: string;
  label: string;
  sizeBytes: number;
  date: string;
  language: string;
}

export interface CatalogEntry {
  id: string;
  label: string;
  description: string;
  category: string;
  bookCategory?: string;
  variants: CatalogVariant[];
  installed: {
    variantKey: string;
    fileSizeBytes: number;
    zimDate: string | null;
    verifiedAt: string | null;
    quarantinedAt: string | null;
    quarantineReason: string | null;
  } | null;
  downloading: boolean;
}

export interface VerifyResult {
  sourceId: string;
  ok: boolean;
  reason: string | null;
}

export interface ProgressEvent {
  bytesDone: number;
  bytesTotal: number | null;
  speedBps: number;
  etaSeconds: number | null;
}

export interface DownloadEvents {
  status: { state: string; bytesTotal?: number };
  progress: ProgressEvent;
  done: { sourceId: string; served?: boolean };
  cancelled: { sourceId: string };
  error: { message: string };
}

export interface RuntimeInstallEvents {
  status: { state: string };
  progress: ProgressEvent;
  done: { installed: boolean; kiwixState: string; kiwixError: string | null };
  error: { message: string };
}

/** Books shelf: the 'Books' category or anything with a bookCategory; the rest is reference. */
export const isBook = (a: { category: string; bookCategory?: string | null }) => Boolean(a.bookCategory) || a.category.toLowerCase() === 'books';

export const viewBase = (sourceId: string) => `/api/archives/view/${encodeURIComponent(sourceId)}/`;

export const STATE_TEXT: Record<string, string> = {
  idle: 'Not running (no archives to serve)',
  starting: 'Starting',
  ready: 'Running',
  failed: 'Stopped after a problem',
};
