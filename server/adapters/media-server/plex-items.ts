// The shapes of the media server's answers (reference/plex.md §2): Plex leaves out what is zero or
// empty, so everything optional has a default.
import { z } from 'zod';
import { GuidList, keyStr, optNum, optStr, str, zero } from './plex-call.js';

const PartSchema = z.object({ id: z.coerce.number(), key: str, size: optNum, container: optStr, duration: optNum, file: optStr });
const MediaSchema = z.object({ id: z.coerce.number().catch(0), duration: optNum, container: optStr, videoResolution: optStr, Part: z.array(PartSchema).nullish().transform((v) => v ?? []) });
const ItemSchema = z.object({
  ratingKey: keyStr,
  key: optStr,
  guid: optStr,
  type: str,
  title: z.string().catch(''),
  year: optNum,
  summary: optStr,
  index: optNum,
  parentIndex: optNum,
  parentRatingKey: keyStr.nullish(),
  grandparentRatingKey: keyStr.nullish(),
  parentTitle: optStr,
  grandparentTitle: optStr,
  parentGuid: optStr,
  grandparentGuid: optStr,
  librarySectionID: keyStr.nullish(),
  contentRating: optStr,
  thumb: optStr,
  art: optStr,
  parentThumb: optStr,
  grandparentThumb: optStr,
  duration: optNum,
  addedAt: optNum,
  viewCount: zero,
  viewOffset: zero,
  lastViewedAt: optNum,
  leafCount: optNum,
  viewedLeafCount: optNum,
  Guid: GuidList,
  Media: z.array(MediaSchema).nullish().transform((v) => v ?? []),
});

/** An item of the server (movie, show, season, episode…), per-user fields as the token's user sees them. */
export interface PlexItem {
  ratingKey: string;
  type: string;
  title: string;
  year: number | null;
  guid: string | null;
  /** External ids (imdb://, tmdb://, tvdb://) when the server sent its Guid array. */
  guids: string[];
  summary: string | null;
  index: number | null;
  parentIndex: number | null;
  parentRatingKey: string | null;
  grandparentRatingKey: string | null;
  parentTitle: string | null;
  grandparentTitle: string | null;
  parentGuid: string | null;
  grandparentGuid: string | null;
  librarySectionId: string | null;
  /** The title's rating as the server has it (G, PG-13, TV-14…); null when it has none. */
  contentRating: string | null;
  /** Server paths (/library/metadata/…/thumb/…): fetch them through image(), never hand them to a browser. */
  thumb: string | null;
  art: string | null;
  parentThumb: string | null;
  grandparentThumb: string | null;
  durationMs: number | null;
  addedAt: number | null;
  viewCount: number;
  viewOffsetMs: number;
  lastViewedAt: number | null;
  leafCount: number | null;
  viewedLeafCount: number | null;
  parts: Array<{ id: number; key: string; size: number | null; container: string | null }>;
}

export function toItem(m: z.infer<typeof ItemSchema>): PlexItem {
  return {
    ratingKey: m.ratingKey,
    type: m.type,
    title: m.title,
    year: m.year,
    guid: m.guid,
    guids: m.Guid,
    summary: m.summary,
    index: m.index,
    parentIndex: m.parentIndex,
    parentRatingKey: m.parentRatingKey ?? null,
    grandparentRatingKey: m.grandparentRatingKey ?? null,
    parentTitle: m.parentTitle,
    grandparentTitle: m.grandparentTitle,
    parentGuid: m.parentGuid,
    grandparentGuid: m.grandparentGuid,
    librarySectionId: m.librarySectionID ?? null,
    contentRating: m.contentRating ?? null,
    thumb: m.thumb,
    art: m.art,
    parentThumb: m.parentThumb,
    grandparentThumb: m.grandparentThumb,
    durationMs: m.duration,
    addedAt: m.addedAt,
    viewCount: m.viewCount,
    viewOffsetMs: m.viewOffset,
    lastViewedAt: m.lastViewedAt,
    leafCount: m.leafCount,
    viewedLeafCount: m.viewedLeafCount,
    parts: m.Media.flatMap((media) => media.Part.map((p) => ({ id: p.id, key: p.key, size: p.size, container: p.container }))),
  };
}

/** `{MediaContainer: {...fields, Metadata?: []}}`; a missing list is an empty one (§2). */
const itemsContainer = <E extends z.ZodRawShape>(extra: E) =>
  z.object({ MediaContainer: z.object({ ...extra, totalSize: optNum, offset: optNum, Metadata: z.array(ItemSchema).nullish().transform((v) => v ?? []) }) });
/**
 * A list of items. The server may name the section once on the container and not on each item
 * (a title's metadata, its children, a section's list), so an item without its own takes the
 * container's, as python-plexapi does: whether an item is in a member's private section is read
 * from it, and a missing one would count as nobody's.
 */
export const ItemsContainer = itemsContainer({ librarySectionID: keyStr.nullish().catch(null) });
export const itemsOf = (mc: z.infer<typeof ItemsContainer>['MediaContainer']): PlexItem[] =>
  mc.Metadata.map((m) => toItem(m.librarySectionID === null || m.librarySectionID === undefined ? { ...m, librarySectionID: mc.librarySectionID } : m));

export interface PlexPage<T> {
  items: T[];
  /** All matches, when the server said (paged answers). */
  totalSize: number;
  offset: number;
}

const SectionSchema = z.object({
  key: keyStr,
  type: str,
  title: str,
  agent: z.string().catch(''),
  scanner: z.string().catch(''),
  language: z.string().catch(''),
  refreshing: z.coerce.boolean().catch(false),
  scannedAt: optNum,
  Location: z
    .array(z.object({ path: str }))
    .nullish()
    .transform((v) => (v ?? []).map((l) => l.path)),
});

export interface PlexSection {
  key: string;
  type: string;
  title: string;
  agent: string;
  scanner: string;
  language: string;
  refreshing: boolean;
  scannedAt: number | null;
  /** Folders as the server sees them. */
  locations: string[];
}

export const SectionsContainer = z.object({ MediaContainer: z.object({ Directory: z.array(SectionSchema).nullish().transform((v) => v ?? []) }) });
export const toSection = ({ Location, ...s }: z.infer<typeof SectionSchema>): PlexSection => ({ ...s, locations: Location });

export const HubSchema = z.object({ hubIdentifier: z.string().catch(''), title: z.string().catch(''), type: z.string().catch(''), key: optStr, more: z.coerce.boolean().catch(false), Metadata: z.array(ItemSchema).nullish().transform((v) => v ?? []) });
export interface PlexHub {
  /** Match on this (home.continue, home.movies.recent, home.television.recent…), not on the localized title. */
  hubIdentifier: string;
  title: string;
  type: string;
  /** Where the hub's full list is (/hubs/home/recentlyAdded?type=1…), paged with hubItems(); null when it sent none. */
  key: string | null;
  more: boolean;
  items: PlexItem[];
}

export const SessionSchema = ItemSchema.extend({
  sessionKey: keyStr,
  User: z.object({ id: keyStr.nullish(), title: z.string().catch('') }).nullish(),
  Player: z.object({ title: z.string().catch(''), product: z.string().catch(''), platform: z.string().catch(''), state: z.string().catch('playing'), local: z.coerce.boolean().catch(false) }).nullish(),
});
export interface PlexSession {
  sessionKey: string;
  item: PlexItem;
  user: { id: string | null; title: string };
  player: { title: string; product: string; platform: string; state: string; local: boolean };
}

export const BrowseContainer = z.object({
  MediaContainer: z.object({
    Path: z.array(z.object({ path: str, title: z.string().catch('') })).nullish().transform((v) => v ?? []),
    File: z.array(z.object({ path: str, title: z.string().catch('') })).nullish().transform((v) => v ?? []),
  }),
});
