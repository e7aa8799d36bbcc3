// The seams between the media server's parts, so each is built and tested on its own and the
// container wires them:
// - MediaClients: the adapter's three clients (adapters/media-server/plex.ts). The account and
//   discover clients are made once; a server client is made per server URL, guarded for that one
//   origin (createMediaServerGuard: the configured server may be on the home network, nothing else).
// - MediaConnection (connection-service.ts): the shared connection and each member's link. Every other
//   part asks it for the shared server (library reads, rule 2) or the member's own token
//   (watchlist and watched actions), and reports a 401 back so the page can offer "link again".
// - MediaLibrary (library-service.ts): feeds, meta, find, rule 4's resolution with its 30-day cache,
//   watchlist, rule 5's two-way watched sync.
// - The proxies (proxy-service.ts): /img and /stream through the shared server, never a token out.
// - MediaExport (export.ts): storage locations, provisioning, home-video uploads, the sweep.
// - PrivateSections (private-sections.ts): which server sections are a member's private library
//   (the export's), so the library and the proxies hide another member's items (a 404, admins too).
import type { PlexAccountClient, PlexDiscoverClient, PlexServerClient } from '../../adapters/media-server/plex.js';
import type { Resolution } from './guids.js';
import type { ContentType, SectionStatus, ServerHealth, SyncMode } from './schema.js';

// ---- clients ---------------------------------------------------------------------------------
export interface MediaClients {
  account: PlexAccountClient;
  discover: PlexDiscoverClient;
  /** A client for one server origin (the configured one, or a candidate being checked). */
  server(url: string): PlexServerClient;
}

// ---- the connection --------------------------------------------------------------------------
export interface SharedServer {
  client: PlexServerClient;
  /** The server token: for server calls only, never returned, logged or put in a URL. */
  token: string;
  machineIdentifier: string;
  name: string;
}

export interface MediaConnection {
  /** The shared server, or null when none is configured (rule 7: callers answer empty, no error). */
  shared(): Promise<SharedServer | null>;
  /** The member's own account token, or null when not linked or revoked. */
  memberToken(userId: string): Promise<string | null>;
  /**
   * The member's token for the shared server: their account token works on a server they were
   * given access to (owner or friend). Null when not linked, revoked, or without access.
   */
  memberServerToken(userId: string): Promise<string | null>;
  /** A call with the member's token answered 401: the link is marked revoked ("link again"). */
  reportMemberUnauthorized(userId: string): Promise<void>;
  /** A call with the shared token answered 401 or the server did not answer. */
  reportShared(health: ServerHealth): Promise<void>;
}

// ---- rows ------------------------------------------------------------------------------------
export interface ConnectionRow {
  serverUrl: string;
  serverToken: string;
  machineIdentifier: string;
  serverName: string;
  serverVersion: string | null;
  source: 'manual' | 'discover';
  accountName: string | null;
  health: ServerHealth;
  checkedAt: string | null;
  updatedAt: string;
  updatedBy: string | null;
}

export interface LinkRow {
  userId: string;
  token: string;
  accountId: number;
  username: string;
  displayName: string | null;
  thumbUrl: string | null;
  tokenState: 'valid' | 'revoked';
  serverAccess: boolean | null;
  linkedAt: string;
  checkedAt: string | null;
}

export interface PinRow {
  pinId: number;
  userId: string;
  code: string;
  authToken: string | null;
  expiresAt: string;
  createdAt: string;
}

export interface ProgressRow {
  userId: string;
  ratingKey: string;
  positionMs: number;
  durationMs: number | null;
  completed: boolean;
  viewCount: number;
  updatedAt: string;
  syncedAt: string | null;
}

export interface StorageLocationRow {
  id: string;
  name: string;
  localPath: string;
  contentTypes: ContentType[];
  serverPath: string | null;
  mappingState: 'ok' | 'missing' | 'error' | null;
  mappingCheckedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SectionRow {
  id: string;
  userId: string;
  contentType: ContentType;
  locationId: string | null;
  folder: string;
  status: SectionStatus;
  error: string | null;
  sectionKey: string | null;
  syncMode: SyncMode;
  syncRecentCount: number;
  removeWatched: boolean;
  createdAt: string;
  updatedAt: string;
  lastSweptAt: string | null;
}

export interface HomeVideoRow {
  id: string;
  userId: string;
  sectionId: string;
  title: string;
  fileName: string;
  contentType: string;
  bytes: number;
  state: 'stored' | 'ready' | 'removed';
  ratingKey: string | null;
  removedReason: string | null;
  createdAt: string;
  removedAt: string | null;
}

// ---- what the parts offer each other ---------------------------------------------------------
/** Rule 4's cache (media_resolutions), read and written by the library. */
export interface ResolutionCache {
  get(key: string, maxAgeMs: number): Promise<Resolution | null>;
  put(key: string, resolution: Resolution): Promise<void>;
  /** Removes entries older than maxAgeMs; answers how many. */
  prune(maxAgeMs: number): Promise<number>;
}

/**
 * What the export's sweep asks the library (rule 6): has this member watched these server items,
 * by the server's view count (their token) or Hearth's own completed flag.
 */
export interface WatchedLookup {
  watchedKeys(userId: string, ratingKeys: readonly string[]): Promise<Set<string>>;
}

/**
 * Members' private library sections on the shared server (media_library_sections.section_key, one
 * per member and content type). Library reads use the shared token, which sees every section: the
 * library and the proxies ask this before showing or serving an item, so another member's home
 * videos are dropped from lists and answer 404, for admins too.
 */
export interface PrivateSections {
  /** A view for one member: hidden(sectionId) is true for another member's private section. */
  viewFor(userId: string): Promise<SectionVisibility>;
  /** Remembers which section these items (and their parents) are in, and their rating, for the picture proxy. */
  remember(items: ReadonlyArray<{ ratingKey: string; parentRatingKey?: string | null; grandparentRatingKey?: string | null; librarySectionId: string | null; contentRating?: string | null }>): void;
  /** The section (and rating) an item was last seen with, if known (undefined: not seen lately). */
  sectionOf(ratingKey: string): string | null | undefined;
  ratingOf(ratingKey: string): string | null | undefined;
}

/** What decides whether a member sees an item: its section and its rating. */
export interface RatedItem {
  /** Counts the item once in hiddenByContent, however often it is asked about. */
  ratingKey?: string;
  librarySectionId: string | null;
  contentRating?: string | null;
}

export interface SectionVisibility {
  /** Another member's private section (an unknown or null section is not hidden). */
  hidden(sectionId: string | null | undefined): boolean;
  /**
   * Whether the member sees the item: not another member's private one, and rated within their
   * Media level (content dials; a missing rating counts as adult). Their own private items always.
   */
  sees(item: RatedItem): boolean;
  /**
   * How many of the items this view was asked about it kept out for their rating (the content
   * dials), each counted once: what an answer tells the member as "some titles are hidden by your
   * content settings". Another member's private items are never counted (the member is not told
   * they exist). A view is made per request, so the count is that answer's.
   */
  hiddenByContent(): number;
}
