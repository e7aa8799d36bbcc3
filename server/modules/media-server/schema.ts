// The media server's contract (/api/mediaserver, /api/admin/storage-locations): the household's
// shared Plex connection (admin), each member's own linked account, library feeds read through the
// shared server, watchlist and watched actions through the member's own token, the image and
// stream proxies, and each member's private library sections with their home videos. The web app
// imports these types.
//
// No schema here has a field for a token: tokens never leave the server (Authentication rule 6).
// Every image URL an answer carries is Hearth's own /api/mediaserver/img?path=… (never the
// server's address, never a token).
import { z } from 'zod';

// ---- limits ----------------------------------------------------------------------------------
/** Rule 4's cache. */
export const RESOLUTION_TTL_DAYS = 30;
/** Rule 6's sweep. */
export const WATCHED_SWEEP_MS = 15 * 60_000;
/** Items per feed answer. */
export const FEED_LIMIT = 24;
export const FEED_LIMIT_MAX = 100;
/** /img: the sizes the proxy resizes to (bounds; the web app asks for its slot's size). */
export const IMG_SIDE_MIN = 32;
export const IMG_SIDE_MAX = 1280;
/** One uploaded home video. */
export const MAX_HOME_VIDEO_BYTES = 8 * 1024 * 1024 * 1024;
/** Upload chunk the web app sends (resumable upload). */
export const UPLOAD_CHUNK_BYTES = 8 * 1024 * 1024;
/** Video types a member may upload (checked by name, declared type and the file's first bytes). */
export const HOME_VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-matroska', 'video/x-msvideo', 'video/3gpp'] as const;
/** syncMode recent keeps this many by default, within these bounds. */
export const SYNC_RECENT_DEFAULT = 20;
export const SYNC_RECENT_MIN = 1;
export const SYNC_RECENT_MAX = 500;
/** How long Hearth waits on the media server before calling it down. */
export const SERVER_TIMEOUT_MS = 8_000;

// ---- enums -----------------------------------------------------------------------------------
/**
 * Content types for private libraries. The spec names four external-source types besides `mine`;
 * Hearth's sources for them (saved shows, films, podcasts, clips) arrive with their own features,
 * each adding its name here. Issue 19 delivers `mine`: a member's own uploaded videos.
 */
export const ContentType = z.enum(['mine']);
export type ContentType = z.infer<typeof ContentType>;
/** queued -> creating -> scanning -> ready | failed (a retry queues again). */
export const SectionStatus = z.enum(['queued', 'creating', 'scanning', 'ready', 'failed']);
export type SectionStatus = z.infer<typeof SectionStatus>;
export const SyncMode = z.enum(['all', 'recent']);
export type SyncMode = z.infer<typeof SyncMode>;
/** The shared connection's health as last seen. */
export const ServerHealth = z.enum(['ok', 'unauthorized', 'unreachable']);
export type ServerHealth = z.infer<typeof ServerHealth>;
export const PinStatus = z.enum(['waiting', 'approved', 'expired']);
export const MediaKind = z.enum(['movie', 'show', 'season', 'episode', 'clip', 'other']);
export type MediaKind = z.infer<typeof MediaKind>;

// ---- status and link -------------------------------------------------------------------------
/**
 * GET /status: what the caller's Media page shows. `access`: the caller's linked account reaches
 * the shared server (owner or friend), does not (told plainly), or is unknown (not linked or not
 * checked yet). A managed user without a plex.tv login can still browse and play through the
 * shared server; only the watchlist and their own watched state need a linked account.
 */
export const MediaStatus = z.object({
  configured: z.boolean(),
  /** The server answered the last check (false: down, or its token revoked: `serverProblem`). */
  reachable: z.boolean(),
  /** A sentence when the shared connection has a problem (an admin must reconnect), or null. */
  serverProblem: z.string().nullable(),
  serverName: z.string().nullable(),
  linked: z.boolean(),
  /** The member's link was refused by plex.tv (password changed, signed out everywhere): "link again". */
  linkRevoked: z.boolean(),
  access: z.enum(['yes', 'no', 'unknown']),
  /** Sentences for what works and what needs a link, in the member's situation. */
  notes: z.array(z.string()),
  isAdmin: z.boolean(),
});
export type MediaStatus = z.infer<typeof MediaStatus>;

/** POST /auth/pin and GET /auth/pin/:id: the code to type at the link page (never the token). */
export const PinView = z.object({
  id: z.number().int(),
  code: z.string(),
  /** The sign-in page with the code in its address (opened on this device). */
  linkUrl: z.string(),
  /** The short page where the code is typed on another device (https://plex.tv/link). */
  codePageUrl: z.string(),
  /** The same page as a person types it: no scheme, no trailing slash ("plex.tv/link"). */
  codePage: z.string(),
  status: PinStatus,
  expiresAt: z.string(),
});
export type PinView = z.infer<typeof PinView>;
export const PinParams = z.object({ id: z.coerce.number().int().positive() });

/** GET /me, POST /me/link. */
export const MeView = z.object({
  linked: z.boolean(),
  username: z.string().nullable(),
  displayName: z.string().nullable(),
  /** Proxied through /api/mediaserver/img when set (plex.tv avatars are public; still no token). */
  thumbUrl: z.string().nullable(),
  tokenState: z.enum(['valid', 'revoked']).nullable(),
  serverAccess: z.boolean().nullable(),
  linkedAt: z.string().nullable(),
});
export type MeView = z.infer<typeof MeView>;
export const LinkBody = z.object({ pinId: z.number().int().positive() });

// ---- connection (admin) ----------------------------------------------------------------------
/** GET /config: whether a token is set, never the token. */
export const ConfigView = z.object({
  configured: z.boolean(),
  serverUrl: z.string().nullable(),
  serverName: z.string().nullable(),
  machineIdentifier: z.string().nullable(),
  version: z.string().nullable(),
  source: z.enum(['manual', 'discover']).nullable(),
  accountName: z.string().nullable(),
  tokenSet: z.boolean(),
  health: ServerHealth.nullable(),
  checkedAt: z.string().nullable(),
  /** The server allows deleting media (only informative: Hearth deletes its own files). */
  allowMediaDeletion: z.boolean().nullable(),
});
export type ConfigView = z.infer<typeof ConfigView>;

/**
 * POST /config: a typed-in URL and token (checked against the server before it is saved), a
 * server picked from POST /auth/discover (its token comes from the account, server-side), or
 * `disconnect`.
 */
export const ConfigBody = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('manual'), serverUrl: z.string().trim().min(1).max(2048), token: z.string().trim().min(8).max(256) }),
  z.object({ mode: z.literal('discover'), pinId: z.number().int().positive().optional(), machineIdentifier: z.string().min(1).max(128), uri: z.string().trim().min(1).max(2048) }),
  z.object({ mode: z.literal('disconnect') }),
]);
export type ConfigBody = z.infer<typeof ConfigBody>;

/** POST /auth/discover body: the approved admin PIN to use, or none (the admin's own linked account). */
export const DiscoverBody = z.object({ pinId: z.number().int().positive().optional() });
export const DiscoveredServer = z.object({
  name: z.string(),
  machineIdentifier: z.string(),
  owned: z.boolean(),
  httpsRequired: z.boolean(),
  /** Best first: local before remote before relay, secure where the server requires it; reachable = answered /identity now. */
  connections: z.array(z.object({ uri: z.string(), local: z.boolean(), relay: z.boolean(), secure: z.boolean(), reachable: z.boolean() })),
});
export type DiscoveredServer = z.infer<typeof DiscoveredServer>;
export const DiscoverResponse = z.object({ account: z.string(), servers: z.array(DiscoveredServer) });
export type DiscoverResponse = z.infer<typeof DiscoverResponse>;

// ---- library items ---------------------------------------------------------------------------
/** Rule 4's answer, for the web app: where this title lives in Hearth. */
export const MediaRoute = z.object({
  kind: z.enum(['movie', 'show', 'personal']),
  /** movie:<title>|<year>, show:tvdb:<id>, show:title:<title>|<year>; null for personal media. */
  key: z.string().nullable(),
  showId: z.object({ source: z.enum(['tvdb', 'tmdb', 'imdb']), id: z.string() }).nullable(),
  season: z.number().int().nullable(),
  episode: z.number().int().nullable(),
  /** Can be added to a watchlist (has a discover key). */
  watchlistable: z.boolean(),
});
export type MediaRoute = z.infer<typeof MediaRoute>;

export const MediaItem = z.object({
  ratingKey: z.string(),
  kind: MediaKind,
  title: z.string(),
  /** Episode: the show; season: the show. */
  showTitle: z.string().nullable(),
  season: z.number().int().nullable(),
  episode: z.number().int().nullable(),
  year: z.number().int().nullable(),
  summary: z.string().nullable(),
  /** /api/mediaserver/img?path=…&w=…&h=… or null. */
  thumbUrl: z.string().nullable(),
  artUrl: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  /** The caller's own state when linked (their token), else none. */
  viewOffsetMs: z.number().int().nullable(),
  watched: z.boolean(),
  addedAt: z.string().nullable(),
  /** Direct play in the browser is offered (movies and home videos with a part). */
  playable: z.boolean(),
  /** Only set where resolution ran (meta, find, recent). */
  route: MediaRoute.nullable(),
});
export type MediaItem = z.infer<typeof MediaItem>;

export const FeedQuery = z.object({ limit: z.coerce.number().int().min(1).max(FEED_LIMIT_MAX).default(FEED_LIMIT) });
/** Rule 7: unconfigured or unlinked answers an empty list, never an error. */
/**
 * How many titles the answer left out because they are rated above the caller's Media level (the
 * content dials), among those the server listed for it: the web app says "Some titles are hidden by
 * your content settings" when it is above 0. Another member's private videos are never counted.
 */
const HiddenByContent = z.number().int().min(0);
export const FeedResponse = z.object({ items: z.array(MediaItem), hiddenByContent: HiddenByContent });
export type FeedResponse = z.infer<typeof FeedResponse>;
export const HubsResponse = z.object({ hubs: z.array(z.object({ id: z.string(), title: z.string(), items: z.array(MediaItem) })), hiddenByContent: HiddenByContent });
export type HubsResponse = z.infer<typeof HubsResponse>;
/** GET /sessions: who in the house is watching what now (names as the server knows them). */
export const SessionsResponse = z.object({
  sessions: z.array(z.object({ item: MediaItem, user: z.string().nullable(), player: z.string().nullable(), state: z.enum(['playing', 'paused', 'buffering', 'stopped']), progress: z.number().min(0).max(1) })),
  hiddenByContent: HiddenByContent,
});
export type SessionsResponse = z.infer<typeof SessionsResponse>;

export const RatingKeyParams = z.object({ ratingKey: z.string().regex(/^\d{1,12}$/, 'ratingKey is a number') });
/** GET /meta/:ratingKey: the item, its children (seasons, episodes) and whether it is on the caller's watchlist. */
export const MetaResponse = z.object({
  item: MediaItem,
  children: z.array(MediaItem),
  onWatchlist: z.boolean().nullable(),
});
export type MetaResponse = z.infer<typeof MetaResponse>;

/** GET /find: shows by show-database id, movies by title plus year. */
export const FindQuery = z.union([
  z.object({ type: z.literal('show'), source: z.enum(['tvdb', 'tmdb', 'imdb']), id: z.string().min(1).max(64) }),
  z.object({ type: z.enum(['movie', 'show']), title: z.string().trim().min(1).max(300), year: z.coerce.number().int().min(1870).max(2200).optional() }),
]);
/** found false with hiddenByContent above 0: the title is there, but rated above the caller's Media level. */
export const FindResponse = z.object({ found: z.boolean(), item: MediaItem.nullable(), hiddenByContent: HiddenByContent });
export type FindResponse = z.infer<typeof FindResponse>;

/** POST /watchlist: a server item (ratingKey) or a discover key; remove=true takes it off. */
export const WatchlistBody = z.union([
  z.object({ ratingKey: z.string().regex(/^\d{1,12}$/), remove: z.boolean().optional() }),
  z.object({ discoverKey: z.string().regex(/^[0-9a-f]{24}$/), remove: z.boolean().optional() }),
]);
export const WatchlistResponse = z.object({ onWatchlist: z.boolean() });

/** POST /meta/:ratingKey/watched and /progress (rule 5, app to server with the caller's token). */
export const WatchedBody = z.object({ watched: z.boolean() });
export const ProgressBody = z.object({
  positionMs: z.number().int().min(0),
  durationMs: z.number().int().min(1).optional(),
  state: z.enum(['playing', 'paused', 'stopped']).default('stopped'),
});
export const WatchStateResponse = z.object({ watched: z.boolean(), viewOffsetMs: z.number().int().nullable(), synced: z.boolean() });

/** GET /img: a path on the configured server only (/library/metadata/…/thumb/…), resized. */
export const ImgQuery = z.object({
  path: z.string().min(1).max(512).regex(/^\/(library|photo)\/[A-Za-z0-9/_.:%-]+$/, 'path is a library image path'),
  w: z.coerce.number().int().min(IMG_SIDE_MIN).max(IMG_SIDE_MAX).default(300),
  h: z.coerce.number().int().min(IMG_SIDE_MIN).max(IMG_SIDE_MAX).default(450),
});

// ---- storage locations (admin) ---------------------------------------------------------------
export const StorageLocation = z.object({
  id: z.string(),
  name: z.string(),
  localPath: z.string(),
  contentTypes: z.array(ContentType),
  serverPath: z.string().nullable(),
  mappingState: z.enum(['ok', 'missing', 'error']).nullable(),
  mappingCheckedAt: z.string().nullable(),
  /** localPath exists and Hearth can write there. */
  writable: z.boolean(),
  freeBytes: z.number().nullable(),
  /** Provision may start for these content types (rule 3). */
  ready: z.boolean(),
});
export type StorageLocation = z.infer<typeof StorageLocation>;
export const StorageLocationBody = z.object({
  name: z.string().trim().min(1).max(80),
  localPath: z.string().trim().min(1).max(1024),
  contentTypes: z.array(ContentType).max(5).default([]),
  serverPath: z.string().trim().min(1).max(1024).nullable().optional(),
});
// (contentTypes without its default: a patch that leaves it out keeps the location's types)
export const StorageLocationPatch = StorageLocationBody.extend({ contentTypes: z.array(ContentType).max(5) }).partial();
export const StorageLocationParams = z.object({ id: z.string().min(1).max(64) });
export const StorageLocationsResponse = z.object({ locations: z.array(StorageLocation) });
export type StorageLocationsResponse = z.infer<typeof StorageLocationsResponse>;
/** POST, PATCH /api/admin/storage-locations(/:id): the location as saved. */
export const StorageLocationResponse = z.object({ location: StorageLocation });
export type StorageLocationResponse = z.infer<typeof StorageLocationResponse>;
/** POST /api/admin/storage-locations/:id/check: the server browses serverPath and sees Hearth's marker file. */
export const MappingCheckResponse = z.object({ location: StorageLocation, ok: z.boolean(), message: z.string() });
export type MappingCheckResponse = z.infer<typeof MappingCheckResponse>;

// ---- library sections ------------------------------------------------------------------------
export const ProvisionBody = z.object({ userId: z.string().min(1).max(64), contentType: ContentType });
export const LibrarySection = z.object({
  id: z.string(),
  userId: z.string(),
  contentType: ContentType,
  status: SectionStatus,
  error: z.string().nullable(),
  sectionKey: z.string().nullable(),
  locationId: z.string().nullable(),
  syncMode: SyncMode,
  syncRecentCount: z.number().int(),
  removeWatched: z.boolean(),
  updatedAt: z.string(),
  lastSweptAt: z.string().nullable(),
});
export type LibrarySection = z.infer<typeof LibrarySection>;
/** POST /admin/provision: the member's section as queued (or as it is, when it is already set up). */
export const ProvisionResponse = z.object({ section: LibrarySection });
/** GET /admin/library-sections: one row per member and content type, provisioned or not. */
export const AdminSectionsResponse = z.object({
  rows: z.array(z.object({
    userId: z.string(),
    name: z.string(),
    contentType: ContentType,
    section: LibrarySection.nullable(),
    /** Why Provision is disabled (no location for this type, mapping not set or not checked, server not connected), or null. */
    blockedReason: z.string().nullable(),
  })),
});
export type AdminSectionsResponse = z.infer<typeof AdminSectionsResponse>;
/** GET /me/library-sections: the caller's sections, storageReady per source (content type). */
export const MySectionsResponse = z.object({
  sections: z.array(z.object({ contentType: ContentType, storageReady: z.boolean(), section: LibrarySection.nullable() })),
});
export type MySectionsResponse = z.infer<typeof MySectionsResponse>;
export const MySectionsPatch = z.object({
  contentType: ContentType,
  syncMode: SyncMode.optional(),
  syncRecentCount: z.number().int().min(SYNC_RECENT_MIN).max(SYNC_RECENT_MAX).optional(),
  removeWatched: z.boolean().optional(),
});

// ---- home videos (content type mine) ---------------------------------------------------------
export const HomeVideo = z.object({
  id: z.string(),
  title: z.string(),
  bytes: z.number().int(),
  contentType: z.string(),
  state: z.enum(['stored', 'ready', 'removed']),
  ratingKey: z.string().nullable(),
  removedReason: z.string().nullable(),
  createdAt: z.string(),
  /** The media server's item for it, once scanned (thumb, duration, watched). */
  item: MediaItem.nullable(),
});
export type HomeVideo = z.infer<typeof HomeVideo>;
export const HomeVideosResponse = z.object({ videos: z.array(HomeVideo), usedBytes: z.number().int(), maxBytes: z.number().int() });
export type HomeVideosResponse = z.infer<typeof HomeVideosResponse>;
export const HomeVideoParams = z.object({ id: z.string().min(1).max(64) });

// ---- home-video upload limits (a household setting, admin) --------------------------------------

/** By default a member may have this many uploads open (started, not finished, not expired) at once. */
export const DEFAULT_MAX_OPEN_UPLOADS = 10;
/** By default the uploads a member has open may declare this many bytes together. */
export const DEFAULT_MAX_OPEN_UPLOAD_BYTES = 50 * 1024 ** 3;

/** GET/PUT /api/mediaserver/admin/upload-limits: what each member's unfinished uploads may hold. */
export const UploadLimits = z.object({
  /** Uploads a member may have started and not finished at once. */
  maxOpenUploads: z.number().int().min(1).max(1000),
  /** Bytes those uploads may declare together (1 MB to 10 TB). */
  maxOpenBytes: z
    .number()
    .int()
    .min(1024 ** 2)
    .max(10 * 1024 ** 4),
});
export type UploadLimits = z.infer<typeof UploadLimits>;
export const UploadLimitsBody = UploadLimits.strict();
