// A stand-in for the household's Plex (reference/plex.md §11): the three services on one
// 127.0.0.1:0 port, routed by path. plex.tv answers under /plextv/api/v2/... (and bare /api/...),
// the discover provider under /discover/... (and its bare paths: /actions/*, the watchlist, 24-hex
// metadata, matches, /library/search?searchProviders=), the retired metadata host under
// /metadata/... (its watchlist answers 404, as since Aug 2025), and everything else is the Plex
// Media Server. So a test sets MEDIA_ACCOUNT_URL=<url>/plextv, MEDIA_DISCOVER_URL=<url>/discover
// and the server URL <url>.
//
// Accounts with fixed tokens (`tokens`): admin owns the server (server token = account token);
// alice and bob are friends with their own shared-server tokens (the server also takes their
// account tokens); mallory has a plex.tv account without access (401 on the server, no server in
// resources, discover works). The seed library, per-user watch state, two live sessions and the
// watchlists are those of §11. Requests without `Accept: application/json` get an XML stub, as Plex
// answers XML then. Every request is logged with where its token came from (`log`).
//
// Test hooks are methods: revoke a token, approve or expire a PIN, put files "on disk" for the
// scanner, switch a mode per service (down, slow, garbage), change the settings
// (auto-approve of PINs, scan delay, media deletion, strict Accept, 401 vs 403 for non-owners).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';

export type FakeRole = 'account' | 'discover' | 'retired' | 'server';
export type FakeMediaMode = 'ok' | 'down' | 'slow' | 'garbage';
export type FakeUserName = 'admin' | 'alice' | 'bob' | 'mallory';

export const TOKENS = {
  admin: 'AdmnTokFAKEplex00001',
  alice: 'AlicTokFAKEplex00002',
  aliceServer: 'AlicSrvFAKEplex00002',
  bob: 'BobbTokFAKEplex00003',
  bobServer: 'BobbSrvFAKEplex00003',
  mallory: 'MallTokFAKEplex00004',
} as const;

export const PART_SIZE = 393_216;
export const MACHINE_ID = '6f1e2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b';
const SERVER_NAME = 'Living Room Plex';
const PLEX_DIRECT_HASH = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const LIBRARY_ID = 'com.plexapp.plugins.library';
/** A real 40×60 JPEG, the poster, thumb and art of every item. */
export const POSTER_JPEG = Buffer.from(
  '/9j/2wBDABQODxIPDRQSEBIXFRQYHjIhHhwcHj0sLiQySUBMS0dARkVQWnNiUFVtVkVGZIhlbXd7gYKBTmCNl4x9lnN+gXz/2wBDARUXFx4aHjshITt8U0ZTfHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHz/wAARCAA8ACgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAH/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAAAAT/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCgIFoAAAAAAAAAAAAAAAAAAAAAD//Z',
  'base64',
);

/** The bytes every part serves: an MP4 `ftyp` box, then a deterministic pattern. */
export const PART_BYTES: Buffer = (() => {
  const b = Buffer.alloc(PART_SIZE);
  for (let i = 0; i < PART_SIZE; i++) b[i] = (i * 31 + 7) & 0xff;
  b.writeUInt32BE(24, 0);
  b.write('ftypisom', 4, 'latin1');
  b.writeUInt32BE(0x200, 12);
  b.write('isommp41', 16, 'latin1');
  return b;
})();

interface Account {
  id: number;
  uuid: string;
  name: FakeUserName;
  email: string;
  accountToken: string;
  /** The token resources hand out for the server; null without access. */
  serverToken: string | null;
  owner: boolean;
}

const ACCOUNTS: Account[] = [
  { id: 1, uuid: 'a4f43c1ebfde0001', name: 'admin', email: 'admin@home.example', accountToken: TOKENS.admin, serverToken: TOKENS.admin, owner: true },
  { id: 2, uuid: 'a4f43c1ebfde0002', name: 'alice', email: 'alice@home.example', accountToken: TOKENS.alice, serverToken: TOKENS.aliceServer, owner: false },
  { id: 3, uuid: 'a4f43c1ebfde0003', name: 'bob', email: 'bob@home.example', accountToken: TOKENS.bob, serverToken: TOKENS.bobServer, owner: false },
  { id: 4, uuid: 'a4f43c1ebfde0004', name: 'mallory', email: 'mallory@elsewhere.example', accountToken: TOKENS.mallory, serverToken: null, owner: false },
];

type ItemType = 'movie' | 'show' | 'season' | 'episode';
const TYPE_NUMBER: Record<ItemType, number> = { movie: 1, show: 2, season: 3, episode: 4 };

interface Item {
  ratingKey: string;
  type: ItemType;
  sectionId: string;
  title: string;
  year?: number;
  guid: string;
  /** External ids (`Guid[]`); absent for legacy, local and personal-media items. */
  guids?: string[];
  parentRatingKey?: string;
  grandparentRatingKey?: string;
  index?: number;
  duration?: number;
  summary: string;
  addedAt: number;
  updatedAt: number;
  /** Movies and episodes: the file on "disk" and its part. */
  file?: string;
  partId?: number;
  /** The title's rating (G, PG-13, TV-14…): every seeded item has one (an episode and a season its show's); scanned home videos have none, as on Plex. */
  contentRating?: string;
}

interface Section {
  key: string;
  type: 'movie' | 'show';
  title: string;
  agent: string;
  scanner: string;
  language: string;
  locations: string[];
  uuid: string;
  createdAt: number;
  scannedAt: number;
  refreshing: boolean;
}

interface View {
  viewCount: number;
  viewOffset?: number;
  lastViewedAt?: number;
}

interface DiscoverEntry {
  key: string;
  type: 'movie' | 'show';
  title: string;
  year: number;
  guids: string[];
}

interface Pin {
  id: number;
  code: string;
  clientId: string;
  product: string;
  createdAt: number;
  expiresAt: number;
  authToken: string | null;
}

interface LiveSession {
  sessionKey: string;
  userId: number;
  ratingKey: string;
  state: 'playing' | 'paused' | 'buffering';
  viewOffset: number;
  clientId: string;
  player: { title: string; product: string; platform: string; device: string; address: string; local: boolean };
}

export interface LoggedRequest {
  seq: number;
  time: number;
  role: FakeRole | 'page';
  method: string;
  path: string;
  query: string;
  tokenVia: 'header' | 'query' | null;
  token: string | null;
  user: FakeUserName | null;
  clientId: string | null;
  range: string | null;
  accept: string | null;
  plexHeaders: Record<string, string>;
  status: number;
  /** The connection closed before the answer was sent whole (a client stopped reading). */
  aborted: boolean;
}

export interface FakeMediaSettings {
  /** A new PIN approves itself this long after it was made (0: only approvePin does). */
  pinAutoApproveMs: number;
  pinAutoApproveUser: FakeUserName;
  /** How long a section scan takes. */
  refreshMs: number;
  allowMediaDeletion: boolean;
  /** Requests without `Accept: application/json` get the XML stub (Plex's own default). */
  strictAccept: boolean;
  /** What an owner-only call answers a friend: 403 (PMS 1.47 and later) or 401 (up to 1.46). */
  nonOwnerStatus: 401 | 403;
  /**
   * Real folders the server "sees": server path -> a local folder. Browse and the scanner read the
   * real files under each (as the server would on its own disk), beside the registry's files.
   */
  mounts: Record<string, string>;
  /**
   * false: a list whose container names its section (a title's metadata, its children, a
   * section's list) leaves librarySectionID off its items, as the reference's examples show the
   * server may (§6.4); feeds and hubs, which mix sections, keep it on each item.
   */
  itemSectionIds: boolean;
  /**
   * Part bodies are sent at most this many bytes a second (0: as fast as the client reads). A small
   * clip read slowly is still being fetched when a browser seeks, so the seek needs a Range of its own.
   */
  partBytesPerSecond: number;
}

/** Options of the fake itself (not settings a test changes later). */
export interface FakeMediaOptions {
  /**
   * Every part whose file has the default size serves these bytes instead of PART_BYTES (a real
   * playable video for browser tests), with this content type; its size is then the video's.
   */
  partVideo?: { bytes: Buffer; contentType: string };
}

export interface FakeMediaServer {
  /** The origin: the Plex Media Server's URL. */
  readonly url: string;
  /** plex.tv (MEDIA_ACCOUNT_URL). */
  readonly accountUrl: string;
  /** The discover provider (MEDIA_DISCOVER_URL). */
  readonly discoverUrl: string;
  /** The metadata host the watchlist left in Aug 2025. */
  readonly retiredDiscoverUrl: string;
  readonly tokens: typeof TOKENS;
  readonly machineIdentifier: string;
  readonly settings: FakeMediaSettings;
  /** Every request but the stand-in sign-in page's own assets, oldest first. */
  readonly log: LoggedRequest[];
  /** Every token the fake ever handed out or accepts (for "no token leaked" checks). */
  allTokens(): string[];
  revoke(token: string): void;
  /** Approves a PIN as a user (admin by default), as signing in on the link page does. */
  approvePin(pinId: number, user?: FakeUserName): void;
  expirePin(pinId: number): void;
  /** Rates a title (and, for a show, its seasons and episodes) as given; null takes the rating away. */
  setContentRating(ratingKey: string, rating: string | null): void;
  /**
   * Puts a file "on disk" for the scanner (a path ending in / is a bare folder). A size other than
   * the default part's serves generated bytes (0x5a), streamed without being held in memory, so a
   * seeded film can be given a 1 GB file for the stream bench.
   */
  addFile(filePath: string, size?: number): void;
  removeFile(filePath: string): void;
  /** Lets the server see a real local folder at serverPath (browse and the scanner read its files). */
  mount(serverPath: string, localDir: string): void;
  /**
   * Switches a failure mode for one service or all: down (connections dropped; for all, the port
   * stops listening), slow (every answer held back slowMs), garbage (HTML with 200 instead of JSON).
   */
  setMode(mode: FakeMediaMode, opts?: { role?: FakeRole; slowMs?: number }): Promise<void>;
  /** A copy of the state: views per user, watchlists, sessions, sections, pins, files. */
  state(): {
    views: Record<string, Record<string, View>>;
    watchlists: Record<string, string[]>;
    sessions: Array<{ user: string; ratingKey: string; state: string; viewOffset: number }>;
    sections: Array<{ key: string; title: string; type: string; agent: string; locations: string[]; refreshing: boolean }>;
    pins: Array<{ id: number; code: string; approved: boolean }>;
    files: string[];
    items: Array<{ ratingKey: string; type: string; title: string; sectionId: string; guid: string; file?: string }>;
  };
  reset(): void;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// The seed (§11). Seeded timestamps are fixed in 2025.

const T0 = 1_735_689_600; // 2025-01-01
const hex24 = (n: string) => `5d776c2296b655001fe2${n.padStart(4, '0')}`.slice(-24);

function seedItems(): Item[] {
  const items: Item[] = [];
  const movie = (rk: number, title: string, year: number, contentRating: string, opts: { guid?: string; guids?: string[] | null } = {}) =>
    items.push({
      ratingKey: String(rk),
      type: 'movie',
      sectionId: '1',
      title,
      year,
      guid: opts.guid ?? `plex://movie/${hex24(String(rk))}`,
      ...(opts.guids === null ? {} : { guids: opts.guids ?? [`imdb://tt7200${rk}`, `tmdb://510${rk}`] }),
      duration: 6_000_000 + rk * 1000,
      summary: `${title} (${year}), a film from the household's shelf.`,
      addedAt: T0 + rk * 3600,
      updatedAt: T0 + rk * 3600 + 60,
      file: `/data/media/movies/${title} (${year})/${title} (${year}).mp4`,
      partId: 2000 + rk,
      contentRating,
    });
  // every seeded title is within `teen` (a new member's level); tests rate one higher with setContentRating
  movie(101, 'The Night Harbor', 2019, 'PG-13');
  movie(102, 'Paper Lanterns', 2021, 'G');
  movie(103, 'Glass Orchard', 2015, 'PG');
  movie(104, 'Northbound', 2008, 'PG');
  movie(105, 'Northbound', 1987, 'PG-13');
  movie(106, "Grandma's Tapes", 2003, 'G', { guid: 'com.plexapp.agents.imdb://tt0310106?lang=en', guids: null });

  const show = (rk: number, title: string, year: number, contentRating: string, guid: string, guids: string[] | undefined, seasons: Array<[number, number[]]>, legacyEp?: (s: number, e: number) => string) => {
    items.push({ ratingKey: String(rk), type: 'show', sectionId: '2', title, year, guid, ...(guids ? { guids } : {}), summary: `${title}, a series.`, addedAt: T0 + rk * 3600, updatedAt: T0 + rk * 3600 + 60, contentRating });
    for (const [seasonRk, eps] of seasons) {
      const sIndex = seasonRk % 10;
      items.push({
        ratingKey: String(seasonRk),
        type: 'season',
        sectionId: '2',
        title: `Season ${sIndex}`,
        guid: legacyEp ? `${guid.replace(/\?.*$/, '')}/${sIndex}?lang=en` : `plex://season/${hex24(String(seasonRk))}`,
        parentRatingKey: String(rk),
        index: sIndex,
        summary: '',
        addedAt: T0 + seasonRk * 60,
        updatedAt: T0 + seasonRk * 60,
        contentRating,
      });
      for (const epRk of eps) {
        const eIndex = epRk % 10;
        items.push({
          ratingKey: String(epRk),
          type: 'episode',
          sectionId: '2',
          title: `${title} ${sIndex}.${eIndex}`,
          year,
          guid: legacyEp ? legacyEp(sIndex, eIndex) : `plex://episode/${hex24(String(epRk))}`,
          ...(legacyEp ? {} : { guids: [`imdb://tt9${epRk}`, `tvdb://9${epRk}`] }),
          parentRatingKey: String(seasonRk),
          grandparentRatingKey: String(rk),
          index: eIndex,
          duration: 2_400_000,
          summary: `Episode ${eIndex} of season ${sIndex}.`,
          addedAt: T0 + epRk * 10,
          updatedAt: T0 + epRk * 10,
          file: `/data/media/tv/${title}/Season ${String(sIndex).padStart(2, '0')}/${title} - s${String(sIndex).padStart(2, '0')}e${String(eIndex).padStart(2, '0')}.mp4`,
          partId: 200_000 + epRk,
          contentRating,
        });
      }
    }
  };
  show(201, 'Harbor Lights', 2018, 'TV-14', `plex://show/${hex24('201')}`, ['imdb://tt7200201', 'tmdb://510201', 'tvdb://300201'], [
    [2011, [20111, 20112, 20113]],
    [2012, [20121, 20122]],
  ]);
  show(202, 'Quiet Planet', 2022, 'TV-G', 'com.plexapp.agents.thetvdb://400202?lang=en', undefined, [[2021, [20211, 20212]]], (s, e) => `com.plexapp.agents.thetvdb://400202/${s}/${e}?lang=en`);
  return items;
}

function seedSections(): Section[] {
  return [
    { key: '1', type: 'movie', title: 'Movies', agent: 'tv.plex.agents.movie', scanner: 'Plex Movie', language: 'en-US', locations: ['/data/media/movies'], uuid: 'e69655a2-ef48-4aba-bb19-d3cc3401e7d1', createdAt: T0 - 86400, scannedAt: T0 + 400_000, refreshing: false },
    { key: '2', type: 'show', title: 'TV Shows', agent: 'tv.plex.agents.series', scanner: 'Plex TV Series', language: 'en-US', locations: ['/data/media/tv'], uuid: 'e69655a2-ef48-4aba-bb19-d3cc3401e7d2', createdAt: T0 - 86400, scannedAt: T0 + 400_000, refreshing: false },
  ];
}

function seedDiscover(): DiscoverEntry[] {
  return [
    ...[
      [101, 'The Night Harbor', 2019],
      [102, 'Paper Lanterns', 2021],
      [103, 'Glass Orchard', 2015],
      [104, 'Northbound', 2008],
      [105, 'Northbound', 1987],
    ].map(([rk, title, year]) => ({ key: hex24(String(rk)), type: 'movie' as const, title: String(title), year: Number(year), guids: [`imdb://tt7200${rk}`, `tmdb://510${rk}`] })),
    { key: hex24('201'), type: 'show', title: 'Harbor Lights', year: 2018, guids: ['imdb://tt7200201', 'tmdb://510201', 'tvdb://300201'] },
    { key: '5f1a2b3c4d5e6f7081920301', type: 'movie', title: 'Starfall Protocol', year: 2024, guids: ['imdb://tt7200301', 'tmdb://510301'] },
    { key: '5f1a2b3c4d5e6f7081920302', type: 'show', title: 'Copper Valley', year: 2023, guids: ['imdb://tt7200302', 'tmdb://510302', 'tvdb://300302'] },
    { key: '5f1a2b3c4d5e6f7081920202', type: 'show', title: 'Quiet Planet', year: 2022, guids: ['tvdb://400202', 'tmdb://510202'] },
  ];
}

const seedViews = (): Map<number, Map<string, View>> =>
  new Map([
    [1, new Map<string, View>([['102', { viewCount: 0, viewOffset: 1_800_000, lastViewedAt: T0 + 500_000 }], ['20113', { viewCount: 0, viewOffset: 600_000, lastViewedAt: T0 + 510_000 }], ['103', { viewCount: 1, lastViewedAt: T0 + 400_000 }], ['20111', { viewCount: 1, lastViewedAt: T0 + 420_000 }], ['20112', { viewCount: 1, lastViewedAt: T0 + 430_000 }]])],
    [2, new Map<string, View>([['101', { viewCount: 0, viewOffset: 2_400_000, lastViewedAt: T0 + 505_000 }], ['20111', { viewCount: 2, lastViewedAt: T0 + 450_000 }]])],
    [3, new Map()],
    [4, new Map()],
  ]);

const seedSessions = (): LiveSession[] => [
  { sessionKey: '1', userId: 1, ratingKey: '20113', state: 'playing', viewOffset: 600_000, clientId: 'tv-living-room', player: { title: 'Living Room TV', product: 'Plex for Android (TV)', platform: 'Android', device: 'SHIELD Android TV', address: '192.168.1.40', local: true } },
  { sessionKey: '2', userId: 2, ratingKey: '101', state: 'paused', viewOffset: 2_400_000, clientId: 'alice-phone', player: { title: "Alice's phone", product: 'Plex for iOS', platform: 'iOS', device: 'iPhone', address: '192.168.1.41', local: true } },
];

const seedWatchlists = (): Map<number, Array<{ key: string; at: number }>> =>
  new Map([
    [1, [{ key: hex24('104'), at: T0 + 100 }, { key: '5f1a2b3c4d5e6f7081920301', at: T0 + 200 }]],
    [2, [{ key: hex24('201'), at: T0 + 300 }]],
    [3, []],
    [4, []],
  ]);

// ---------------------------------------------------------------------------------------------

class HttpAnswer extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly type = 'text/html',
  ) {
    super(`HTTP ${status}`);
  }
}

const html = (status: number, title: string) => new HttpAnswer(status, `<html><head><title>${title}</title></head><body><h1>${status} ${title}</h1></body></html>`);
const UNAUTHORIZED = () => html(401, 'Unauthorized');
const NOT_FOUND = () => html(404, 'Not Found');
const BAD_REQUEST = () => html(400, 'Bad Request');
const plexTvError = (status: number, code: number, message: string) => new HttpAnswer(status, JSON.stringify({ errors: [{ code, message, status }] }), 'application/json');

const VIDEO_EXT = new Set(['.mp4', '.mkv', '.avi', '.mov', '.m4v', '.webm']);

export async function startFakeMediaServer(options: Partial<FakeMediaSettings> & FakeMediaOptions = {}): Promise<FakeMediaServer> {
  const { partVideo, ...opts } = options;
  /** What a part of the default size serves. */
  const defaultPart = partVideo?.bytes ?? PART_BYTES;
  const defaultSize = defaultPart.length;
  const defaults: FakeMediaSettings = { pinAutoApproveMs: 0, pinAutoApproveUser: 'admin', refreshMs: 200, allowMediaDeletion: true, strictAccept: true, nonOwnerStatus: 403, mounts: {}, itemSectionIds: true, partBytesPerSecond: 0 };
  const settings: FakeMediaSettings = { ...defaults, ...opts };
  let items = new Map<string, Item>();
  let sections: Section[] = [];
  let views = seedViews();
  let sessions = seedSessions();
  let watchlists = seedWatchlists();
  let discover = seedDiscover();
  let files = new Map<string, number>();
  let pins = new Map<number, Pin>();
  let revoked = new Set<string>();
  let nextRatingKey = 1000;
  let nextPartId = 900_000;
  let nextPinId = 564_964_751;
  let nextSessionKey = 10;
  let nextSectionKey = 3;
  const log: LoggedRequest[] = [];
  let seq = 0;
  const modes = new Map<FakeRole, FakeMediaMode>();
  let slowMs = 2_000;
  let listening = false;
  const scans = new Set<NodeJS.Timeout>();
  /** The next writes of throttled part bodies. */
  const throttled = new Set<NodeJS.Timeout>();

  const reset = () => {
    items = new Map(seedItems().map((i) => [i.ratingKey, i]));
    sections = seedSections();
    views = seedViews();
    sessions = seedSessions();
    watchlists = seedWatchlists();
    discover = seedDiscover();
    files = new Map([...items.values()].filter((i) => i.file).map((i) => [i.file!, defaultSize]));
    pins = new Map();
    revoked = new Set();
    nextRatingKey = 1000;
    nextPartId = 900_000;
    nextSessionKey = 10;
    nextSectionKey = 3;
    for (const t of scans) clearTimeout(t);
    scans.clear();
    Object.assign(settings, defaults, opts);
    modes.clear();
  };
  reset();

  const now = () => Math.floor(Date.now() / 1000);
  const accountByToken = (token: string | null): Account | null => (token && !revoked.has(token) ? (ACCOUNTS.find((a) => a.accountToken === token) ?? null) : null);
  /** The server's view of a token: its user, or null (no access, unknown, revoked). */
  const serverUser = (token: string | null): Account | null => {
    if (!token || revoked.has(token)) return null;
    return ACCOUNTS.find((a) => a.serverToken !== null && (a.serverToken === token || a.accountToken === token)) ?? null;
  };
  const viewOf = (userId: number, rk: string): View => views.get(userId)?.get(rk) ?? { viewCount: 0 };
  const setView = (userId: number, rk: string, v: View) => {
    if (!views.has(userId)) views.set(userId, new Map());
    views.get(userId)!.set(rk, v);
  };
  const childrenOf = (rk: string) => [...items.values()].filter((i) => i.parentRatingKey === rk).sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  const leavesOf = (it: Item): Item[] => (it.type === 'movie' || it.type === 'episode' ? [it] : childrenOf(it.ratingKey).flatMap(leavesOf));
  const sectionOf = (key: string) => sections.find((s) => s.key === key);
  const watched = (userId: number, it: Item) => viewOf(userId, it.ratingKey).viewCount > 0;

  // ---- rendering ------------------------------------------------------------------------------

  const mediaOf = (it: Item) => {
    const ext = path.extname(it.file ?? '.mp4').slice(1) || 'mp4';
    const size = files.get(it.file ?? '') ?? defaultSize;
    return [
      {
        id: (it.partId ?? 0) + 3000,
        duration: it.duration,
        bitrate: 4500,
        width: 1920,
        height: 1080,
        videoResolution: '1080',
        videoCodec: 'h264',
        audioCodec: 'aac',
        audioChannels: 2,
        container: ext,
        Part: [{ id: it.partId, key: `/library/parts/${it.partId}/${it.updatedAt}/file.${ext}`, file: it.file, size, container: ext, duration: it.duration }],
      },
    ];
  };

  const render = (it: Item, userId: number, o: { guids?: boolean; inSectionContainer?: boolean } = {}): Record<string, unknown> => {
    const section = sectionOf(it.sectionId);
    const out: Record<string, unknown> = {
      ratingKey: it.ratingKey,
      key: it.type === 'show' || it.type === 'season' ? `/library/metadata/${it.ratingKey}/children` : `/library/metadata/${it.ratingKey}`,
      guid: it.guid,
      type: it.type,
      title: it.title,
      titleSort: it.title.replace(/^The /, ''),
      librarySectionID: Number(it.sectionId),
      librarySectionTitle: section?.title,
      summary: it.summary,
      addedAt: it.addedAt,
      updatedAt: it.updatedAt,
      thumb: `/library/metadata/${it.ratingKey}/thumb/${it.updatedAt}`,
      art: `/library/metadata/${it.ratingKey}/art/${it.updatedAt}`,
    };
    if (o.inSectionContainer && !settings.itemSectionIds) {
      delete out.librarySectionID;
      delete out.librarySectionTitle;
    }
    if (it.year) out.year = it.year;
    if (it.index !== undefined) out.index = it.index;
    if (it.duration) out.duration = it.duration;
    if (it.contentRating) out.contentRating = it.contentRating;
    if (o.guids && it.guids) out.Guid = it.guids.map((id) => ({ id }));
    if (it.type === 'movie' || it.type === 'episode') {
      const v = viewOf(userId, it.ratingKey);
      if (v.viewCount) out.viewCount = v.viewCount;
      if (v.viewOffset) out.viewOffset = v.viewOffset;
      if (v.lastViewedAt) out.lastViewedAt = v.lastViewedAt;
      out.Media = mediaOf(it);
    } else {
      const leaves = leavesOf(it);
      out.leafCount = leaves.length;
      out.viewedLeafCount = leaves.filter((l) => watched(userId, l)).length;
      out.childCount = childrenOf(it.ratingKey).length;
    }
    const parent = it.parentRatingKey ? items.get(it.parentRatingKey) : undefined;
    const grand = it.grandparentRatingKey ? items.get(it.grandparentRatingKey) : undefined;
    if (parent) Object.assign(out, { parentRatingKey: parent.ratingKey, parentTitle: parent.title, parentGuid: parent.guid, parentIndex: parent.index, parentThumb: `/library/metadata/${parent.ratingKey}/thumb/${parent.updatedAt}` });
    if (grand) Object.assign(out, { grandparentRatingKey: grand.ratingKey, grandparentTitle: grand.title, grandparentGuid: grand.guid, grandparentThumb: `/library/metadata/${grand.ratingKey}/thumb/${grand.updatedAt}` });
    if (it.type === 'season' && parent) out.parentYear = parent.year;
    return out;
  };

  const renderSection = (s: Section) => ({
    key: s.key,
    type: s.type,
    title: s.title,
    agent: s.agent,
    scanner: s.scanner,
    language: s.language,
    uuid: s.uuid,
    refreshing: s.refreshing,
    allowSync: true,
    filters: true,
    art: `/:/resources/${s.type}-fanart.jpg`,
    thumb: `/:/resources/${s.type}.png`,
    createdAt: s.createdAt,
    updatedAt: s.scannedAt,
    scannedAt: s.scannedAt,
    contentChangedAt: s.scannedAt,
    hidden: 0,
    Location: s.locations.map((p, i) => ({ id: Number(s.key) * 100 + i, path: p })),
  });

  /** Where the catalogue's public posters are (metadata-static.plex.tv on Plex; the fake's own /discover/static/ here, needing no token). */
  let staticOrigin = 'https://metadata-static.plex.tv/fake';
  const renderDiscover = (d: DiscoverEntry, full: boolean) => ({
    ratingKey: d.key,
    key: `/library/metadata/${d.key}`,
    guid: `plex://${d.type}/${d.key}`,
    type: d.type,
    title: d.title,
    year: d.year,
    thumb: `${staticOrigin}/${d.key}.jpg`,
    ...(full ? { Guid: d.guids.map((id) => ({ id })), summary: `${d.title} (${d.year}).` } : {}),
  });

  /** Paging: X-Plex-Container-Start/Size as headers or query; answers carry offset, size, totalSize. */
  const page = <T>(req: IncomingMessage, q: URLSearchParams, list: T[], res: ServerResponse) => {
    const start = Number(req.headers['x-plex-container-start'] ?? q.get('X-Plex-Container-Start') ?? 0) || 0;
    const sizeRaw = req.headers['x-plex-container-size'] ?? q.get('X-Plex-Container-Size');
    const size = sizeRaw === undefined || sizeRaw === null ? list.length : Number(sizeRaw);
    const slice = list.slice(start, start + size);
    res.setHeader('X-Plex-Container-Start', String(start));
    res.setHeader('X-Plex-Container-Total-Size', String(list.length));
    return { slice, offset: start, totalSize: list.length };
  };

  const container = (extra: Record<string, unknown>) => ({ MediaContainer: extra });
  const metadataContainer = (list: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) => container({ size: list.length, ...extra, ...(list.length ? { Metadata: list } : {}) });

  // ---- scanner --------------------------------------------------------------------------------

  const under = (file: string, dir: string) => file === dir || file.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

  /** The mounted real folders as the server sees them: their files and folders enter the registry, vanished ones leave it. */
  const mountedFiles = new Set<string>();
  const syncMounts = () => {
    const seen = new Set<string>();
    const walk = (dir: string, serverDir: string) => {
      if (!existsSync(dir)) return;
      seen.add(`${serverDir}/`);
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const local = path.join(dir, e.name);
        const remote = `${serverDir}/${e.name}`;
        if (e.isDirectory()) walk(local, remote);
        else if (e.isFile()) {
          seen.add(remote);
          files.set(remote, statSync(local).size);
        }
      }
    };
    for (const [serverPath, localDir] of Object.entries(settings.mounts)) walk(localDir, serverPath.replace(/\/+$/, ''));
    for (const f of seen) if (f.endsWith('/')) files.set(f, 0);
    for (const f of mountedFiles) if (!seen.has(f)) files.delete(f);
    mountedFiles.clear();
    for (const f of seen) mountedFiles.add(f);
  };

  const scan = (s: Section, limit: string | null) => {
    syncMounts();
    const inScope = (f: string) => s.locations.some((loc) => under(f, loc)) && (!limit || under(f, limit));
    // vanished files drop their items (and empty seasons and shows after them)
    for (const it of [...items.values()]) {
      if (it.sectionId !== s.key || !it.file || !inScope(it.file)) continue;
      if (!files.has(it.file)) items.delete(it.ratingKey);
    }
    for (const it of [...items.values()]) if (it.sectionId === s.key && it.type === 'season' && childrenOf(it.ratingKey).length === 0) items.delete(it.ratingKey);
    for (const it of [...items.values()]) if (it.sectionId === s.key && it.type === 'show' && childrenOf(it.ratingKey).length === 0) items.delete(it.ratingKey);
    const known = new Set([...items.values()].map((i) => i.file).filter(Boolean));
    const none = s.agent === 'com.plexapp.agents.none';
    const guidFor = (rk: string) => (none ? `com.plexapp.agents.none://${rk}?lang=xn` : `local://${rk}`);
    const stamp = now();
    for (const [file] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
      if (file.endsWith('/') || known.has(file) || !inScope(file) || !VIDEO_EXT.has(path.extname(file).toLowerCase())) continue;
      const base = path.basename(file, path.extname(file));
      if (s.type === 'movie') {
        const m = /^(.*?)\s*\((\d{4})\)$/.exec(base);
        const rk = String(nextRatingKey++);
        items.set(rk, { ratingKey: rk, type: 'movie', sectionId: s.key, title: m ? m[1]! : base, ...(m ? { year: Number(m[2]) } : {}), guid: guidFor(rk), duration: 60_000, summary: '', addedAt: stamp, updatedAt: stamp, file, partId: nextPartId++ });
        continue;
      }
      const loc = s.locations.find((l) => under(file, l))!;
      const rel = file.slice(loc.replace(/\/$/, '').length + 1).split('/');
      const showTitle = rel.length > 1 ? rel[0]! : base;
      const se = /s(\d{1,2})e(\d{1,3})/i.exec(base);
      const seasonNo = se ? Number(se[1]) : Number(/Season (\d+)/i.exec(rel[1] ?? '')?.[1] ?? 1);
      const epNo = se ? Number(se[2]) : [...items.values()].length;
      let show = [...items.values()].find((i) => i.sectionId === s.key && i.type === 'show' && i.title === showTitle);
      if (!show) {
        const rk = String(nextRatingKey++);
        show = { ratingKey: rk, type: 'show', sectionId: s.key, title: showTitle, guid: guidFor(rk), summary: '', addedAt: stamp, updatedAt: stamp };
        items.set(rk, show);
      }
      // a new season or episode of a known show is rated as the show (Plex's agent); a new home video show has no rating
      const rated = show.contentRating ? { contentRating: show.contentRating } : {};
      let season = childrenOf(show.ratingKey).find((i) => i.index === seasonNo);
      if (!season) {
        const rk = String(nextRatingKey++);
        season = { ratingKey: rk, type: 'season', sectionId: s.key, title: `Season ${seasonNo}`, guid: guidFor(rk), parentRatingKey: show.ratingKey, index: seasonNo, summary: '', addedAt: stamp, updatedAt: stamp, ...rated };
        items.set(rk, season);
      }
      const rk = String(nextRatingKey++);
      items.set(rk, { ratingKey: rk, type: 'episode', sectionId: s.key, title: base, guid: guidFor(rk), parentRatingKey: season.ratingKey, grandparentRatingKey: show.ratingKey, index: epNo, duration: 60_000, summary: '', addedAt: stamp, updatedAt: stamp, file, partId: nextPartId++, ...rated });
    }
    s.scannedAt = stamp;
  };

  const startScan = (s: Section, limit: string | null) => {
    s.refreshing = true;
    const t = setTimeout(() => {
      scans.delete(t);
      scan(s, limit);
      s.refreshing = false;
    }, settings.refreshMs);
    scans.add(t);
  };

  // ---- the request context ----------------------------------------------------------------------

  interface Ctx {
    req: IncomingMessage;
    res: ServerResponse;
    method: string;
    path: string;
    q: URLSearchParams;
    token: string | null;
    entry: LoggedRequest;
    wantsJson: boolean;
  }

  const json = (ctx: Ctx, body: unknown, status = 200) => {
    if (settings.strictAccept && !ctx.wantsJson) {
      // Plex answers XML unless asked for JSON; the fake's XML is only a stub
      const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<MediaContainer size="0" note="XML stub: ask with Accept: application/json"/>\n';
      ctx.res.writeHead(status, { 'content-type': 'text/xml;charset=utf-8', 'content-length': Buffer.byteLength(xml) });
      return ctx.res.end(xml);
    }
    const text = JSON.stringify(body);
    ctx.res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    ctx.res.end(text);
  };
  const empty = (ctx: Ctx, status = 200) => {
    ctx.res.writeHead(status, { 'content-length': 0 });
    ctx.res.end();
  };
  const jpeg = (ctx: Ctx, extra: Record<string, string> = {}) => {
    ctx.res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': POSTER_JPEG.length, 'cache-control': 'max-age=3600', ...extra });
    ctx.res.end(ctx.method === 'HEAD' ? undefined : POSTER_JPEG);
  };

  // ---- plex.tv ------------------------------------------------------------------------------------

  const clientIdOf = (ctx: Ctx, form?: URLSearchParams) => (ctx.req.headers['x-plex-client-identifier'] as string | undefined) ?? ctx.q.get('X-Plex-Client-Identifier') ?? form?.get('X-Plex-Client-Identifier') ?? null;
  const renderPin = (p: Pin) => ({
    id: p.id,
    code: p.code,
    product: p.product,
    trusted: false,
    qr: `https://plex.tv/api/v2/pins/qr/${p.code}`,
    clientIdentifier: p.clientId,
    location: { code: 'NL', country: 'The Netherlands', city: 'Utrecht', time_zone: 'Europe/Amsterdam', subdivisions: 'Utrecht', coordinates: '52.09, 5.12' },
    expiresIn: Math.max(0, Math.round(p.expiresAt - Date.now() / 1000)),
    createdAt: new Date(p.createdAt * 1000).toISOString().replace('.000', ''),
    expiresAt: new Date(p.expiresAt * 1000).toISOString().replace('.000', ''),
    authToken: p.authToken,
    newRegistration: null,
  });
  const approve = (p: Pin, user: FakeUserName) => {
    p.authToken = ACCOUNTS.find((a) => a.name === user)!.accountToken;
  };

  const resourcesFor = (a: Account, includeHttps: boolean, includeRelay: boolean) => {
    const list: unknown[] = [
      { name: 'Living Room TV', product: 'Plex for Android (TV)', productVersion: '10.1', platform: 'Android', clientIdentifier: 'tv-living-room', createdAt: '2024-03-01T10:00:00Z', lastSeenAt: '2025-11-01T20:00:00Z', provides: 'player,pubsub-player', ownerId: null, sourceTitle: null, publicAddress: '203.0.113.7', accessToken: a.accountToken, owned: true, home: false, synced: false, relay: false, presence: true, httpsRequired: false, publicAddressMatches: true, dnsRebindingProtection: false, natLoopbackSupported: false, connections: [] },
    ];
    if (!a.serverToken) return list;
    const port = (server.address() as AddressInfo).port;
    const connections = [
      { protocol: 'https', address: '203.0.113.7', port: 32400, uri: `https://203-0-113-7.${PLEX_DIRECT_HASH}.plex.direct:32400`, local: false, relay: false, IPv6: false },
      { protocol: 'https', address: '198.51.100.9', port: 8443, uri: `https://198-51-100-9.${PLEX_DIRECT_HASH}.plex.direct:8443`, local: false, relay: true, IPv6: false },
      { protocol: 'https', address: '127.0.0.1', port, uri: `https://127-0-0-1.${PLEX_DIRECT_HASH}.plex.direct:${port}`, local: true, relay: false, IPv6: false },
      { protocol: 'http', address: '127.0.0.1', port, uri: `http://127.0.0.1:${port}`, local: true, relay: false, IPv6: false },
    ].filter((c) => (includeHttps || c.protocol === 'http' || c.local) && (includeRelay || !c.relay));
    list.unshift({
      name: SERVER_NAME,
      product: 'Plex Media Server',
      productVersion: '1.41.3.9314-a0bfb8370',
      platform: 'Linux',
      platformVersion: '6.1',
      device: 'PC',
      clientIdentifier: MACHINE_ID,
      createdAt: '2024-01-01T10:00:00Z',
      lastSeenAt: '2025-11-01T20:00:00Z',
      provides: 'server',
      ownerId: a.owner ? null : 1,
      sourceTitle: a.owner ? null : 'admin',
      publicAddress: '203.0.113.7',
      accessToken: a.serverToken,
      owned: a.owner,
      home: false,
      synced: false,
      relay: true,
      presence: true,
      httpsRequired: false,
      publicAddressMatches: true,
      dnsRebindingProtection: false,
      natLoopbackSupported: false,
      connections,
    });
    return list;
  };

  const accountApi = async (ctx: Ctx) => {
    const form = ctx.method === 'POST' ? new URLSearchParams(await readBody(ctx.req)) : undefined;
    const clientId = clientIdOf(ctx, form);
    ctx.entry.clientId = clientId;
    if (!clientId) throw plexTvError(400, 1000, 'X-Plex-Client-Identifier is missing');
    const p = ctx.path;
    if (ctx.method === 'POST' && p === '/api/v2/pins') {
      const strong = ctx.q.get('strong') === 'true' || ctx.q.get('strong') === '1';
      const created = Date.now() / 1000;
      const pin: Pin = {
        id: nextPinId++,
        code: strong ? randomCode(25, 'abcdefghijklmnopqrstuvwxyz0123456789') : randomCode(4, 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'),
        clientId,
        product: (ctx.req.headers['x-plex-product'] as string | undefined) ?? form?.get('X-Plex-Product') ?? ctx.q.get('X-Plex-Product') ?? 'unknown',
        createdAt: created,
        expiresAt: created + (strong ? 1800 : 900),
        authToken: null,
      };
      pins.set(pin.id, pin);
      return json(ctx, renderPin(pin), 201);
    }
    const pinMatch = /^\/api\/v2\/pins\/(\d+)$/.exec(p);
    if (ctx.method === 'GET' && pinMatch) {
      const pin = pins.get(Number(pinMatch[1]));
      if (!pin || pin.clientId !== clientId || pin.expiresAt * 1000 <= Date.now()) throw plexTvError(404, 1020, 'Code not found or expired');
      if (!pin.authToken && settings.pinAutoApproveMs > 0 && Date.now() - pin.createdAt * 1000 >= settings.pinAutoApproveMs) approve(pin, settings.pinAutoApproveUser);
      return json(ctx, renderPin(pin));
    }
    const account = accountByToken(ctx.token);
    if (ctx.token) ctx.entry.user = account?.name ?? null;
    if (!account) throw plexTvError(401, 1001, 'User could not be authenticated');
    if (ctx.method === 'GET' && p === '/api/v2/user') {
      return json(ctx, {
        id: account.id,
        uuid: account.uuid,
        username: account.name,
        title: account.name,
        friendlyName: account.name,
        email: account.email,
        thumb: `https://plex.tv/users/${account.uuid}/avatar?c=1`,
        authToken: account.accountToken,
        home: false,
        homeAdmin: false,
        restricted: false,
        subscription: { active: account.owner, status: account.owner ? 'Active' : 'Inactive', plan: account.owner ? 'lifetime' : null, features: [] },
        roles: [],
        entitlements: [],
        joinedAt: 1_467_223_542 + account.id,
        locale: null,
      });
    }
    if (ctx.method === 'GET' && p === '/api/v2/resources') return json(ctx, resourcesFor(account, ctx.q.get('includeHttps') === '1', ctx.q.get('includeRelay') === '1'));
    if (ctx.method === 'GET' && p === '/api/v2/ping') return json(ctx, { pong: true });
    throw plexTvError(404, 1002, 'Not found');
  };

  // ---- discover -----------------------------------------------------------------------------------

  const discoverApi = (ctx: Ctx, retired: boolean) => {
    const p = ctx.path;
    // the catalogue's posters are public (metadata-static.plex.tv): no token
    if (!retired && ctx.method === 'GET' && /^\/static\/[0-9a-f]{24}\.jpg$/.test(p)) return jpeg(ctx);
    const account = accountByToken(ctx.token);
    ctx.entry.user = account?.name ?? null;
    if (!account) throw UNAUTHORIZED();
    const wl = /^\/library\/sections\/watchlist\/(all|available|released)$/.exec(p);
    if (wl) {
      if (retired) throw new HttpAnswer(404, "Section 'watchlist' not found!", 'text/plain');
      let list = (watchlists.get(account.id) ?? []).map((w) => ({ w, d: discover.find((d) => d.key === w.key)! })).filter((x) => x.d);
      const type = ctx.q.get('type');
      if (type) list = list.filter((x) => TYPE_NUMBER[x.d.type] === Number(type));
      if (wl[1] === 'available') list = list.filter((x) => inLibrary(x.d));
      if (wl[1] === 'released') list = list.filter((x) => x.d.year <= new Date().getUTCFullYear());
      const sort = ctx.q.get('sort') ?? 'watchlistedAt:desc';
      if (sort.startsWith('titleSort')) list.sort((a, b) => a.d.title.localeCompare(b.d.title));
      else list.sort((a, b) => b.w.at - a.w.at);
      const etag = `"${createHash('sha1').update(JSON.stringify(list.map((x) => x.w))).digest('hex').slice(0, 16)}"`;
      ctx.res.setHeader('ETag', etag);
      if (ctx.req.headers['if-none-match'] === etag) return empty(ctx, 304);
      const { slice, offset, totalSize } = page(ctx.req, ctx.q, list, ctx.res);
      return json(ctx, metadataContainer(slice.map((x) => ({ ...renderDiscover(x.d, false), watchlistedAt: x.w.at })), { librarySectionID: 'watchlist', librarySectionTitle: 'Watchlist', offset, totalSize }));
    }
    const action = /^\/actions\/(addToWatchlist|removeFromWatchlist)$/.exec(p);
    if (action) {
      if (ctx.method !== 'PUT') throw html(405, 'Method Not Allowed');
      const key = ctx.q.get('ratingKey') ?? '';
      if (!discover.some((d) => d.key === key)) throw NOT_FOUND();
      const list = watchlists.get(account.id) ?? [];
      const rest = list.filter((w) => w.key !== key);
      watchlists.set(account.id, action[1] === 'addToWatchlist' ? [...rest, { key, at: now() }] : rest);
      return empty(ctx);
    }
    if (p === '/library/metadata/matches') {
      const guid = ctx.q.get('guid');
      const title = ctx.q.get('title');
      const year = ctx.q.get('year');
      const type = ctx.q.get('type');
      const found = discover.filter((d) => (!type || TYPE_NUMBER[d.type] === Number(type)) && (guid ? d.guids.includes(guid) || `plex://${d.type}/${d.key}` === guid : !!title && d.title.toLowerCase() === title.toLowerCase() && (!year || d.year === Number(year))));
      return json(ctx, metadataContainer(found.map((d) => renderDiscover(d, true))));
    }
    const meta = /^\/library\/metadata\/([0-9a-f]{24})(\/userState)?$/.exec(p);
    if (meta) {
      const d = discover.find((x) => x.key === meta[1]);
      if (!d) throw NOT_FOUND();
      if (!meta[2]) return json(ctx, metadataContainer([renderDiscover(d, true)]));
      const w = (watchlists.get(account.id) ?? []).find((x) => x.key === d.key);
      return json(ctx, container({ size: 1, UserState: { ratingKey: d.key, type: d.type, ...(w ? { watchlistedAt: w.at } : {}), viewCount: 0 } }));
    }
    if (p === '/library/search') {
      const query = (ctx.q.get('query') ?? '').toLowerCase();
      const types = (ctx.q.get('searchTypes') ?? 'movies,tv').split(/[,|]/);
      const hits = discover.filter((d) => d.title.toLowerCase().includes(query) && ((d.type === 'movie' && types.includes('movies')) || (d.type === 'show' && types.includes('tv'))));
      return json(ctx, container({ size: 1, SearchResults: [{ id: 'external', title: 'More Ways To Watch', size: hits.length, SearchResult: hits.map((d, i) => ({ score: 1 - i / 100, Metadata: renderDiscover(d, false) })) }] }));
    }
    throw NOT_FOUND();
  };

  const inLibrary = (d: DiscoverEntry) => [...items.values()].some((i) => i.guid === `plex://${d.type}/${d.key}` || (i.guids ?? []).some((g) => d.guids.includes(g)));

  // ---- the media server --------------------------------------------------------------------------

  const ownerOnly = (user: Account) => {
    if (!user.owner) throw html(settings.nonOwnerStatus, settings.nonOwnerStatus === 403 ? 'Forbidden' : 'Unauthorized');
  };

  const playable = (it: Item) => it.type === 'movie' || it.type === 'episode';

  /** Media-query filters (reference §6.3): title=, title==, title!=, title<=, title>=; year=, year>>=, year<<=; guid=; unwatched=1. */
  const filterItems = (list: Item[], q: URLSearchParams, userId: number) => {
    let out = list;
    for (const [rawKey, rawValue] of q) {
      // URLSearchParams reads "title==x" as key "title", value "=x" and "year>>=2000" as "year>>", "2000"
      const m = /^(title|year|guid|unwatched|show\.guid|addedAt)(==|!|<<|>>|<|>)?$/.exec(rawKey);
      if (!m) continue;
      const field = m[1]!;
      let op = m[2] ?? '=';
      let value = rawValue;
      if (op === '=' && value.startsWith('=')) {
        op = '==';
        value = value.slice(1);
      }
      const lower = value.toLowerCase();
      out = out.filter((it) => {
        if (field === 'title') {
          const t = it.title.toLowerCase();
          if (op === '==') return t === lower;
          if (op === '!') return !t.includes(lower);
          if (op === '<') return t.startsWith(lower);
          if (op === '>') return t.endsWith(lower);
          return t.includes(lower);
        }
        if (field === 'year') {
          const y = it.year ?? 0;
          const n = Number(value);
          if (op === '>>') return y > n;
          if (op === '<<') return y < n;
          return y === n;
        }
        if (field === 'addedAt') {
          const n = /^-(\d+)([dhm])$/.exec(value) ? now() - Number(/^-(\d+)/.exec(value)![1]) * { d: 86400, h: 3600, m: 60 }[value.slice(-1) as 'd' | 'h' | 'm'] : Number(value);
          if (op === '>>') return it.addedAt > n;
          if (op === '<<') return it.addedAt < n;
          return it.addedAt === n;
        }
        if (field === 'guid' || field === 'show.guid') return it.guid === value;
        if (field === 'unwatched') return value === '1' ? (playable(it) ? !watched(userId, it) : leavesOf(it).some((l) => !watched(userId, l))) : true;
        return true;
      });
    }
    const sort = q.get('sort');
    if (sort) {
      const [field, dir] = sort.split(':');
      const val = (it: Item): string | number => (field === 'titleSort' || field === 'title' ? it.title.toLowerCase() : field === 'year' ? (it.year ?? 0) : field === 'addedAt' ? it.addedAt : field === 'lastViewedAt' ? (viewOf(userId, it.ratingKey).lastViewedAt ?? 0) : it.ratingKey);
      out = [...out].sort((a, b) => (val(a) < val(b) ? -1 : val(a) > val(b) ? 1 : 0) * (dir === 'desc' ? -1 : 1));
    }
    const limit = q.get('limit');
    if (limit) out = out.slice(0, Number(limit));
    return out;
  };

  const onDeck = (userId: number, sectionId?: string) => {
    const inProgress = [...items.values()].filter((i) => playable(i) && (!sectionId || i.sectionId === sectionId) && !watched(userId, i) && (viewOf(userId, i.ratingKey).viewOffset ?? 0) > 0);
    const next: Item[] = [];
    for (const show of [...items.values()].filter((i) => i.type === 'show' && (!sectionId || i.sectionId === sectionId))) {
      const leaves = leavesOf(show).sort((a, b) => (items.get(a.parentRatingKey!)?.index ?? 0) - (items.get(b.parentRatingKey!)?.index ?? 0) || (a.index ?? 0) - (b.index ?? 0));
      const lastWatched = leaves.map((l) => watched(userId, l)).lastIndexOf(true);
      if (lastWatched < 0) continue;
      const candidate = leaves.slice(lastWatched + 1).find((l) => !watched(userId, l));
      if (candidate && !inProgress.includes(candidate)) next.push(candidate);
    }
    return [...inProgress, ...next].sort((a, b) => (viewOf(userId, b.ratingKey).lastViewedAt ?? 0) - (viewOf(userId, a.ratingKey).lastViewedAt ?? 0));
  };

  const recentlyAdded = (type: number | null, sectionId?: string): Item[] => {
    const pool = [...items.values()].filter((i) => !sectionId || i.sectionId === sectionId);
    let list: Item[];
    if (type === 1) list = pool.filter((i) => i.type === 'movie');
    else if (type === 2) list = pool.filter((i) => i.type === 'season');
    else if (type === 4) list = pool.filter((i) => i.type === 'episode');
    else list = pool.filter((i) => i.type === 'movie' || i.type === 'season');
    const added = (i: Item) => (i.type === 'season' ? Math.max(i.addedAt, ...leavesOf(i).map((l) => l.addedAt)) : i.addedAt);
    return list.sort((a, b) => added(b) - added(a));
  };

  const sendPart = (ctx: Ctx, it: Item) => {
    const size = files.get(it.file ?? '') ?? defaultSize;
    const bytes = size === defaultSize ? defaultPart : null;
    const ext = path.extname(it.file ?? '.mp4').slice(1) || 'mp4';
    const type = bytes && partVideo ? partVideo.contentType : ext === 'mkv' ? 'video/x-matroska' : 'video/mp4';
    const headers: Record<string, string | number> = { 'accept-ranges': 'bytes', 'content-type': type };
    if (ctx.q.get('download') === '1') headers['content-disposition'] = `attachment; filename="${path.basename(it.file ?? 'file.mp4')}"`;
    const range = ctx.req.headers.range;
    let start = 0;
    let end = size - 1;
    let status = 200;
    // one range only; several ranges are answered whole, as a server may
    if (range && !range.includes(',')) {
      const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
      if (m && (m[1] || m[2])) {
        if (m[1]) {
          start = Number(m[1]);
          end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
        } else {
          start = Math.max(0, size - Number(m[2]));
        }
        if (start >= size || start > end) {
          ctx.res.writeHead(416, { 'content-range': `bytes */${size}`, 'content-length': 0 });
          return ctx.res.end();
        }
        status = 206;
        headers['content-range'] = `bytes ${start}-${end}/${size}`;
      }
    }
    headers['content-length'] = end - start + 1;
    ctx.res.writeHead(status, headers);
    if (ctx.method === 'HEAD') return ctx.res.end();
    if (settings.partBytesPerSecond > 0) return streamThrottled(ctx.res, bytes ? bytes.subarray(start, end + 1) : null, end - start + 1, settings.partBytesPerSecond);
    if (bytes) return ctx.res.end(bytes.subarray(start, end + 1));
    streamGenerated(ctx.res, end - start + 1);
  };

  /** `length` bytes (these, or generated ones) in a tenth of the rate every 100 ms; stops when the client leaves. */
  const streamThrottled = (res: ServerResponse, bytes: Buffer | null, length: number, perSecond: number) => {
    const step = Math.max(1, Math.floor(perSecond / 10));
    let sent = 0;
    const tick = () => {
      if (res.destroyed) return;
      const n = Math.min(step, length - sent);
      res.write(bytes ? bytes.subarray(sent, sent + n) : Buffer.alloc(n, 0x5a));
      sent += n;
      if (sent >= length) return void res.end();
      const t = setTimeout(() => {
        throttled.delete(t);
        tick();
      }, 100);
      throttled.add(t);
    };
    tick();
  };

  /** `length` generated bytes, written as the client reads them (never the whole file in memory). */
  const streamGenerated = (res: ServerResponse, length: number) => {
    const chunk = Buffer.alloc(256 * 1024, 0x5a);
    let left = length;
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };

  const browse = (ctx: Ctx, encoded: string | null) => {
    syncMounts();
    const dirs = new Set<string>();
    const allFiles: string[] = [];
    const addDir = (d: string) => {
      for (let cur = d.replace(/\/+$/, ''); cur && cur !== '/'; cur = path.posix.dirname(cur)) dirs.add(cur);
    };
    for (const [f] of files) {
      if (f.endsWith('/')) addDir(f);
      else {
        addDir(path.posix.dirname(f));
        allFiles.push(f);
      }
    }
    for (const s of sections) for (const l of s.locations) addDir(l);
    let dir = '/';
    if (encoded) {
      try {
        dir = Buffer.from(decodeURIComponent(encoded), 'base64').toString('utf8').replace(/\/+$/, '') || '/';
      } catch {
        throw BAD_REQUEST();
      }
      if (dir !== '/' && !dirs.has(dir)) throw NOT_FOUND();
    }
    const key = (p: string) => `/services/browse/${Buffer.from(p).toString('base64')}`;
    const entries = [...dirs].filter((d) => path.posix.dirname(d) === dir).sort();
    const Path = entries.map((d) => ({ key: key(d), path: d, title: path.posix.basename(d) }));
    const File = ctx.q.get('includeFiles') === '0' ? [] : allFiles.filter((f) => path.posix.dirname(f) === dir).sort().map((f) => ({ key: key(f), path: f, title: path.posix.basename(f) }));
    return json(ctx, container({ size: Path.length + File.length, ...(Path.length ? { Path } : {}), ...(File.length ? { File } : {}) }));
  };

  const timelineStates = new Set(['playing', 'paused', 'buffering', 'stopped']);

  const mediaServer = (ctx: Ctx) => {
    const { method, q } = ctx;
    const p = ctx.path;
    if (p === '/identity') return json(ctx, container({ size: 0, claimed: true, machineIdentifier: MACHINE_ID, version: '1.41.3.9314-a0bfb8370' }));
    const user = serverUser(ctx.token);
    ctx.entry.user = user?.name ?? (ctx.token ? (accountByToken(ctx.token)?.name ?? null) : null);
    if (!user) throw UNAUTHORIZED();
    const uid = user.id;

    if (p === '/' && method === 'GET') {
      return json(ctx, container({ size: 0, friendlyName: SERVER_NAME, machineIdentifier: MACHINE_ID, version: '1.41.3.9314-a0bfb8370', platform: 'Linux', myPlexUsername: 'admin', myPlex: true, allowMediaDeletion: settings.allowMediaDeletion, transcoderVideo: true }));
    }
    if (p === '/library/sections' || p === '/library/sections/all') {
      if (method === 'GET') return json(ctx, container({ size: sections.length, allowSync: false, title1: 'Plex Library', ...(sections.length ? { Directory: sections.map(renderSection) } : {}) }));
      if (method === 'POST') {
        ownerOnly(user);
        const name = q.get('name');
        const type = q.get('type');
        const agent = q.get('agent');
        const locations = [...q.getAll('location'), ...q.getAll('locations')].filter(Boolean);
        const typeName = type === '1' || type === 'movie' ? 'movie' : type === '2' || type === 'show' ? 'show' : null;
        if (!name || !typeName || !agent || !locations.length) throw BAD_REQUEST();
        const s: Section = { key: String(nextSectionKey++), type: typeName, title: name, agent, scanner: q.get('scanner') ?? (typeName === 'movie' ? 'Plex Movie' : 'Plex TV Series'), language: q.get('language') ?? 'en-US', locations, uuid: `fake-${Date.now()}-${nextSectionKey}`, createdAt: now(), scannedAt: 0, refreshing: false };
        sections.push(s);
        startScan(s, null);
        return json(ctx, container({ size: 1, Directory: [renderSection(s)] }));
      }
      throw html(405, 'Method Not Allowed');
    }
    const sec = /^\/library\/sections\/(\d+)(?:\/(all|onDeck|recentlyAdded|refresh))?$/.exec(p);
    if (sec) {
      const s = sectionOf(sec[1]!);
      if (!s) throw NOT_FOUND();
      const sub = sec[2];
      if (!sub) {
        if (method === 'DELETE') {
          ownerOnly(user);
          sections = sections.filter((x) => x !== s);
          for (const it of [...items.values()]) if (it.sectionId === s.key) items.delete(it.ratingKey);
          return empty(ctx);
        }
        return json(ctx, container({ size: 1, librarySectionID: Number(s.key), title1: s.title, Directory: [renderSection(s)] }));
      }
      if (sub === 'refresh') {
        ownerOnly(user);
        if (method === 'DELETE') {
          s.refreshing = false;
          return empty(ctx);
        }
        startScan(s, q.get('path'));
        return empty(ctx);
      }
      if (sub === 'onDeck') return json(ctx, metadataContainer(onDeck(uid, s.key).map((i) => render(i, uid))));
      if (sub === 'recentlyAdded') return json(ctx, metadataContainer(recentlyAdded(q.get('type') ? Number(q.get('type')) : null, s.key).map((i) => render(i, uid))));
      const typeNo = Number(q.get('type') ?? (s.type === 'movie' ? 1 : 2));
      const level = (Object.keys(TYPE_NUMBER) as ItemType[]).find((k) => TYPE_NUMBER[k] === typeNo) ?? 'movie';
      const pool = [...items.values()].filter((i) => i.sectionId === s.key && i.type === level).sort((a, b) => a.title.localeCompare(b.title));
      const filtered = filterItems(pool, q, uid);
      const { slice, offset, totalSize } = page(ctx.req, q, filtered, ctx.res);
      return json(ctx, metadataContainer(slice.map((i) => render(i, uid, { guids: q.get('includeGuids') === '1', inSectionContainer: true })), { librarySectionID: Number(s.key), librarySectionTitle: s.title, offset, totalSize }));
    }
    if (p === '/library/recentlyAdded' || p === '/hubs/home/recentlyAdded') {
      const type = q.get('type') ? Number(q.get('type')) : null;
      const list = recentlyAdded(type);
      const { slice, offset, totalSize } = page(ctx.req, q, list, ctx.res);
      return json(ctx, metadataContainer(slice.map((i) => render(i, uid)), { offset, totalSize }));
    }
    if (p === '/library/onDeck' || p === '/hubs/continueWatching/items') return json(ctx, metadataContainer(onDeck(uid).map((i) => render(i, uid))));
    if (p === '/hubs') {
      const count = Number(q.get('count') ?? 10);
      const hub = (hubIdentifier: string, title: string, key: string, type: string, list: Item[]) => ({ key, hubKey: key, title, type, hubIdentifier, context: `hub.${hubIdentifier}`, size: Math.min(count, list.length), more: list.length > count, style: 'shelf', promoted: true, ...(list.length ? { Metadata: list.slice(0, count).map((i) => render(i, uid)) } : {}) });
      return json(ctx, container({ size: 3, Hub: [hub('home.continue', 'Continue Watching', '/hubs/continueWatching/items', 'mixed', onDeck(uid)), hub('home.movies.recent', 'Recently Added Movies', '/hubs/home/recentlyAdded?type=1', 'movie', recentlyAdded(1)), hub('home.television.recent', 'Recently Added TV', '/hubs/home/recentlyAdded?type=2', 'mixed', recentlyAdded(2))] }));
    }
    if (p === '/hubs/search' || p === '/library/search') {
      const query = (q.get('query') ?? '').toLowerCase();
      const limit = Number(q.get('limit') ?? 3);
      const hits = [...items.values()].filter((i) => (!q.get('sectionId') || i.sectionId === q.get('sectionId')) && i.title.toLowerCase().includes(query));
      if (p === '/library/search') return json(ctx, container({ size: hits.length, SearchResult: hits.slice(0, limit).map((i, n) => ({ score: 1 - n / 100, Metadata: render(i, uid) })) }));
      const hubs = (['movie', 'show', 'episode'] as const).map((t) => {
        const list = hits.filter((i) => i.type === t).slice(0, limit);
        return { title: t === 'movie' ? 'Movies' : t === 'show' ? 'Shows' : 'Episodes', type: t, hubIdentifier: t, size: list.length, ...(list.length ? { Metadata: list.map((i) => render(i, uid)) } : {}) };
      });
      return json(ctx, container({ size: hubs.length, Hub: hubs }));
    }
    const meta = /^\/library\/metadata\/([\d,]+)(?:\/(children|allLeaves|grandchildren|thumb|art)(?:\/\d+)?)?$/.exec(p);
    if (meta) {
      const keys = meta[1]!.split(',').filter(Boolean);
      const found = keys.map((k) => items.get(k)).filter((i): i is Item => !!i);
      if (!found.length) throw NOT_FOUND();
      const sub = meta[2];
      if (sub === 'thumb' || sub === 'art') return jpeg(ctx);
      if (method === 'DELETE') {
        ownerOnly(user);
        if (!settings.allowMediaDeletion) throw new HttpAnswer(400, 'Media items could not be deleted', 'text/plain');
        for (const it of found) {
          const gone = [it, ...[...items.values()].filter((c) => c.parentRatingKey === it.ratingKey || c.grandparentRatingKey === it.ratingKey)];
          for (const g of gone) {
            items.delete(g.ratingKey);
            if (g.file) files.delete(g.file);
          }
        }
        return empty(ctx);
      }
      const inSection = { librarySectionID: Number(found[0]!.sectionId), librarySectionTitle: sectionOf(found[0]!.sectionId)?.title };
      const one = { inSectionContainer: true };
      if (sub === 'children') return json(ctx, metadataContainer(childrenOf(found[0]!.ratingKey).map((i) => render(i, uid, one)), inSection));
      if (sub === 'allLeaves') return json(ctx, metadataContainer(leavesOf(found[0]!).map((i) => render(i, uid, one)), inSection));
      if (sub === 'grandchildren') return json(ctx, metadataContainer(childrenOf(found[0]!.ratingKey).flatMap((c) => childrenOf(c.ratingKey)).map((i) => render(i, uid, one)), inSection));
      const rendered = found.map((it) => {
        // several keys may span sections: then each item keeps its own
        const r = render(it, uid, { guids: true, inSectionContainer: found.every((f) => f.sectionId === found[0]!.sectionId) });
        if (q.get('includeChildren') === '1' && !playable(it)) r.Children = metadataContainer(childrenOf(it.ratingKey).map((c) => render(c, uid))).MediaContainer;
        return r;
      });
      const first = found[0]!;
      return json(ctx, metadataContainer(rendered, { librarySectionID: Number(first.sectionId), librarySectionTitle: sectionOf(first.sectionId)?.title }));
    }
    if (p.startsWith('/:/resources/')) return jpeg(ctx);
    if (p === '/photo/:/transcode') {
      const url = q.get('url');
      if (!url) throw BAD_REQUEST();
      return jpeg(ctx, { 'x-fake-requested-size': `${q.get('width') ?? ''}x${q.get('height') ?? ''}` });
    }
    const part = /^\/library\/parts\/(\d+)\/\d+\/file\.\w+$/.exec(p);
    if (part) {
      if (method !== 'GET' && method !== 'HEAD') throw html(405, 'Method Not Allowed');
      const it = [...items.values()].find((i) => i.partId === Number(part[1]));
      if (!it || (it.file && !files.has(it.file))) throw NOT_FOUND();
      return sendPart(ctx, it);
    }
    if (p === '/:/scrobble' || p === '/:/unscrobble' || p === '/:/progress') {
      const key = q.get('key') ?? q.get('ratingKey');
      if (!key || !q.get('identifier')) throw BAD_REQUEST();
      if (q.get('identifier') !== LIBRARY_ID) throw NOT_FOUND();
      const it = items.get(key);
      if (!it) throw NOT_FOUND();
      if (p === '/:/scrobble') for (const l of leavesOf(it)) setView(uid, l.ratingKey, { viewCount: viewOf(uid, l.ratingKey).viewCount + 1, lastViewedAt: now() });
      else if (p === '/:/unscrobble') for (const l of leavesOf(it)) setView(uid, l.ratingKey, { viewCount: 0 });
      else {
        const time = Number(q.get('time'));
        if (!Number.isFinite(time) || !playable(it)) throw BAD_REQUEST();
        progress(uid, it, time);
      }
      return empty(ctx);
    }
    if (p === '/:/timeline') {
      const clientId = (ctx.req.headers['x-plex-client-identifier'] as string | undefined) ?? q.get('X-Plex-Client-Identifier');
      const rk = q.get('ratingKey') ?? q.get('key')?.replace('/library/metadata/', '');
      const state = q.get('state') ?? '';
      const time = Number(q.get('time'));
      if (!clientId || !rk || !timelineStates.has(state) || !Number.isFinite(time)) throw BAD_REQUEST();
      const it = items.get(rk);
      if (!it || !playable(it)) throw NOT_FOUND();
      const existing = sessions.find((s) => s.clientId === clientId && s.userId === uid);
      if (state === 'stopped') sessions = sessions.filter((s) => s !== existing);
      else if (existing) Object.assign(existing, { ratingKey: rk, state, viewOffset: time });
      else sessions.push({ sessionKey: String(nextSessionKey++), userId: uid, ratingKey: rk, state: state as LiveSession['state'], viewOffset: time, clientId, player: { title: (ctx.req.headers['x-plex-device-name'] as string | undefined) ?? 'Web browser', product: (ctx.req.headers['x-plex-product'] as string | undefined) ?? 'unknown', platform: (ctx.req.headers['x-plex-platform'] as string | undefined) ?? 'unknown', device: (ctx.req.headers['x-plex-device'] as string | undefined) ?? 'unknown', address: '127.0.0.1', local: true } });
      progress(uid, it, time);
      return empty(ctx);
    }
    if (p === '/status/sessions') {
      ownerOnly(user);
      const list = sessions.filter((s) => items.has(s.ratingKey)).map((s) => {
        const a = ACCOUNTS.find((x) => x.id === s.userId)!;
        return { ...render(items.get(s.ratingKey)!, s.userId), sessionKey: s.sessionKey, viewOffset: s.viewOffset, User: { id: String(a.id), title: a.name, thumb: `https://plex.tv/users/${a.uuid}/avatar` }, Player: { ...s.player, machineIdentifier: s.clientId, state: s.state, secure: false, relayed: false, userID: a.id }, Session: { id: `session-${s.sessionKey}`, bandwidth: 4500, location: 'lan' } };
      });
      return json(ctx, metadataContainer(list));
    }
    const br = /^\/services\/browse(?:\/([^/]+))?$/.exec(p);
    if (br) {
      ownerOnly(user);
      return browse(ctx, br[1] ?? null);
    }
    throw NOT_FOUND();
  };

  /** A resume point; at 90 % of the duration the item counts as played. */
  const progress = (uid: number, it: Item, time: number) => {
    if (it.duration && time >= it.duration * 0.9) setView(uid, it.ratingKey, { viewCount: viewOf(uid, it.ratingKey).viewCount + 1, lastViewedAt: now() });
    else setView(uid, it.ratingKey, { ...viewOf(uid, it.ratingKey), viewOffset: time, lastViewedAt: now() });
  };

  // ---- the stand-in sign-in page --------------------------------------------------------------------

  const authPage = (ctx: Ctx) => {
    const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plex sign-in (fake)</title></head><body>
<h1>Sign in to Plex</h1><p id="code"></p>
${ACCOUNTS.map((a) => `<button type="button" data-user="${a.name}">Sign in as ${a.name}</button>`).join('\n')}
<p id="done" hidden>Signed in. You can close this page.</p>
<script>
const params = new URLSearchParams(location.hash.replace(/^#!?\\??/, ''));
const code = params.get('code');
document.getElementById('code').textContent = code ? 'Code ' + code : 'No code in this link.';
for (const b of document.querySelectorAll('button')) b.onclick = async () => {
  await fetch('/__test/approve-code/' + encodeURIComponent(code) + '?user=' + b.dataset.user, { method: 'POST' });
  document.getElementById('done').hidden = false;
};
</script></body></html>`;
    ctx.res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    ctx.res.end(body);
  };

  // ---- dispatch -----------------------------------------------------------------------------------

  const roleOf = (p: string, q: URLSearchParams): { role: FakeRole; path: string } => {
    if (p.startsWith('/plextv/')) return { role: 'account', path: p.slice('/plextv'.length) };
    if (p.startsWith('/api/')) return { role: 'account', path: p };
    if (p.startsWith('/discover/')) return { role: 'discover', path: p.slice('/discover'.length) };
    if (p.startsWith('/metadata/')) return { role: 'retired', path: p.slice('/metadata'.length) };
    if (p.startsWith('/actions/') || p.startsWith('/library/sections/watchlist/') || p === '/library/metadata/matches' || /^\/library\/metadata\/[0-9a-f]{24}(\/userState)?$/.test(p)) return { role: 'discover', path: p };
    if (p === '/library/search' && q.has('searchProviders')) return { role: 'discover', path: p };
    return { role: 'server', path: p };
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = req.method ?? 'GET';
      if (url.pathname.startsWith('/__test/approve-code/') && method === 'POST') {
        const code = decodeURIComponent(url.pathname.slice('/__test/approve-code/'.length));
        const pin = [...pins.values()].find((x) => x.code === code);
        if (pin) approve(pin, (url.searchParams.get('user') as FakeUserName | null) ?? 'admin');
        res.writeHead(pin ? 204 : 404).end();
        return;
      }
      const headerToken = req.headers['x-plex-token'];
      const queryToken = url.searchParams.get('X-Plex-Token');
      const token = (typeof headerToken === 'string' && headerToken) || queryToken || null;
      const { role, path: p } = roleOf(url.pathname, url.searchParams);
      const plexHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (k.startsWith('x-plex-') && k !== 'x-plex-token' && typeof v === 'string') plexHeaders[k] = v;
      const entry: LoggedRequest = {
        seq: ++seq,
        time: Date.now(),
        role: url.pathname === '/auth' ? 'page' : role,
        method,
        path: url.pathname,
        query: url.search,
        tokenVia: typeof headerToken === 'string' && headerToken ? 'header' : queryToken ? 'query' : null,
        token,
        user: null,
        clientId: (req.headers['x-plex-client-identifier'] as string | undefined) ?? url.searchParams.get('X-Plex-Client-Identifier'),
        range: req.headers.range ?? null,
        accept: req.headers.accept ?? null,
        plexHeaders,
        status: 0,
        aborted: false,
      };
      log.push(entry);
      res.on('finish', () => {
        entry.status = res.statusCode;
      });
      res.on('close', () => {
        if (!res.writableFinished) {
          entry.status = res.statusCode;
          entry.aborted = true;
        }
      });
      const mode = modes.get(role) ?? 'ok';
      if (mode === 'down') {
        req.socket.destroy();
        return;
      }
      if (mode === 'slow') await new Promise((r) => setTimeout(r, slowMs));
      if (res.destroyed) return;
      if (mode === 'garbage') {
        const body = '<!doctype html><html><body>502 Bad Gateway (nginx)</body></html>';
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        return;
      }
      const accept = req.headers.accept ?? '';
      const ctx: Ctx = { req, res, method, path: p, q: url.searchParams, token, entry, wantsJson: accept.includes('application/json') };
      try {
        if (url.pathname === '/auth') authPage(ctx);
        else if (role === 'account') await accountApi(ctx);
        else if (role === 'discover' || role === 'retired') discoverApi(ctx, role === 'retired');
        else mediaServer(ctx);
      } catch (err) {
        if (!(err instanceof HttpAnswer)) {
          res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
          return;
        }
        res.writeHead(err.status, { 'content-type': err.type, 'content-length': Buffer.byteLength(err.body) });
        res.end(err.body);
      }
    })();
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  let port = 0;
  const listen = () =>
    new Promise<void>((r) =>
      server.listen(port, '127.0.0.1', () => {
        listening = true;
        r();
      }),
    );
  const stop = () =>
    new Promise<void>((r) => {
      listening = false;
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  await listen();
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  staticOrigin = `${origin}/discover/static`;

  return {
    url: origin,
    accountUrl: `${origin}/plextv`,
    discoverUrl: `${origin}/discover`,
    retiredDiscoverUrl: `${origin}/metadata`,
    tokens: TOKENS,
    machineIdentifier: MACHINE_ID,
    settings,
    log,
    allTokens: () => Object.values(TOKENS),
    revoke: (token) => void revoked.add(token),
    approvePin(pinId, user = 'admin') {
      const pin = pins.get(pinId);
      if (!pin) throw new Error(`no PIN ${pinId}`);
      approve(pin, user);
    },
    expirePin(pinId) {
      const pin = pins.get(pinId);
      if (pin) pin.expiresAt = Date.now() / 1000 - 1;
    },
    setContentRating(ratingKey, rating) {
      for (const i of items.values()) {
        if (i.ratingKey !== ratingKey && i.parentRatingKey !== ratingKey && i.grandparentRatingKey !== ratingKey) continue;
        if (rating === null) delete i.contentRating;
        else i.contentRating = rating;
      }
    },
    addFile: (filePath, size = defaultSize) => void files.set(filePath, size),
    removeFile: (filePath) => void files.delete(filePath),
    mount(serverPath, localDir) {
      settings.mounts = { ...settings.mounts, [serverPath]: localDir };
    },
    async setMode(mode, o = {}) {
      if (o.slowMs !== undefined) slowMs = o.slowMs;
      const roles: FakeRole[] = o.role ? [o.role] : ['account', 'discover', 'retired', 'server'];
      for (const r of roles) modes.set(r, mode);
      if (!o.role && mode === 'down' && listening) await stop();
      if (mode !== 'down' && !listening) await listen();
    },
    state: () => ({
      views: Object.fromEntries([...views].map(([id, m]) => [ACCOUNTS.find((a) => a.id === id)!.name, Object.fromEntries([...m].map(([k, v]) => [k, { ...v }]))])),
      watchlists: Object.fromEntries([...watchlists].map(([id, l]) => [ACCOUNTS.find((a) => a.id === id)!.name, l.map((w) => discover.find((d) => d.key === w.key)?.title ?? w.key)])),
      sessions: sessions.map((s) => ({ user: ACCOUNTS.find((a) => a.id === s.userId)!.name, ratingKey: s.ratingKey, state: s.state, viewOffset: s.viewOffset })),
      sections: sections.map((s) => ({ key: s.key, title: s.title, type: s.type, agent: s.agent, locations: [...s.locations], refreshing: s.refreshing })),
      pins: [...pins.values()].map((x) => ({ id: x.id, code: x.code, approved: x.authToken !== null })),
      files: [...files.keys()].sort(),
      items: [...items.values()].map((i) => ({ ratingKey: i.ratingKey, type: i.type, title: i.title, sectionId: i.sectionId, guid: i.guid, ...(i.file ? { file: i.file } : {}) })),
    }),
    reset() {
      reset();
      log.length = 0;
    },
    async close() {
      for (const t of [...scans, ...throttled]) clearTimeout(t);
      if (listening) await stop();
    },
  };
}

function randomCode(length: number, alphabet: string): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

