// The export's rows: the admin's storage locations (media_storage_locations), each member's
// library sections (media_library_sections) and the home videos uploaded into them
// (media_home_videos). Queries on these three tables only; a miss is null.
import type { Knex } from 'knex';
import type { HomeVideoRow, SectionRow, StorageLocationRow } from './parts.js';
import { ContentType, type SectionStatus, type SyncMode } from './schema.js';

interface LocationDb {
  id: string;
  name: string;
  local_path: string;
  content_types: string;
  server_path: string | null;
  mapping_state: 'ok' | 'missing' | 'error' | null;
  mapping_checked_at: string | null;
  created_at: string;
  updated_at: string;
}

interface SectionDb {
  id: string;
  user_id: string;
  content_type: string;
  location_id: string | null;
  folder: string;
  status: SectionStatus;
  error: string | null;
  section_key: string | null;
  sync_mode: SyncMode;
  sync_recent_count: number;
  remove_watched: number | boolean;
  created_at: string;
  updated_at: string;
  last_swept_at: string | null;
}

interface VideoDb {
  id: string;
  user_id: string;
  section_id: string;
  title: string;
  file_name: string;
  content_type: string;
  bytes: number;
  state: 'stored' | 'ready' | 'removed';
  rating_key: string | null;
  removed_reason: string | null;
  created_at: string;
  removed_at: string | null;
}

function contentTypes(json: string): ContentType[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((t): t is ContentType => ContentType.safeParse(t).success) : [];
  } catch {
    return [];
  }
}

const toLocation = (r: LocationDb): StorageLocationRow => ({
  id: r.id,
  name: r.name,
  localPath: r.local_path,
  contentTypes: contentTypes(r.content_types),
  serverPath: r.server_path,
  mappingState: r.mapping_state,
  mappingCheckedAt: r.mapping_checked_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toSection = (r: SectionDb): SectionRow => ({
  id: r.id,
  userId: r.user_id,
  contentType: r.content_type as ContentType,
  locationId: r.location_id,
  folder: r.folder,
  status: r.status,
  error: r.error,
  sectionKey: r.section_key,
  syncMode: r.sync_mode,
  syncRecentCount: r.sync_recent_count,
  removeWatched: Boolean(r.remove_watched),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  lastSweptAt: r.last_swept_at,
});

const toVideo = (r: VideoDb): HomeVideoRow => ({
  id: r.id,
  userId: r.user_id,
  sectionId: r.section_id,
  title: r.title,
  fileName: r.file_name,
  contentType: r.content_type,
  bytes: r.bytes,
  state: r.state,
  ratingKey: r.rating_key,
  removedReason: r.removed_reason,
  createdAt: r.created_at,
  removedAt: r.removed_at,
});

export class MediaExportStore {
  constructor(private readonly db: Knex) {}

  // ---- storage locations ----------------------------------------------------------------------
  async listLocations(): Promise<StorageLocationRow[]> {
    return ((await this.db('media_storage_locations').orderBy('created_at')) as LocationDb[]).map(toLocation);
  }

  async getLocation(id: string): Promise<StorageLocationRow | null> {
    const r = (await this.db('media_storage_locations').where({ id }).first()) as LocationDb | undefined;
    return r ? toLocation(r) : null;
  }

  async locationByPath(localPath: string): Promise<StorageLocationRow | null> {
    const r = (await this.db('media_storage_locations').where({ local_path: localPath }).first()) as LocationDb | undefined;
    return r ? toLocation(r) : null;
  }

  async insertLocation(l: StorageLocationRow): Promise<void> {
    await this.db('media_storage_locations').insert({
      id: l.id,
      name: l.name,
      local_path: l.localPath,
      content_types: JSON.stringify(l.contentTypes),
      server_path: l.serverPath,
      mapping_state: l.mappingState,
      mapping_checked_at: l.mappingCheckedAt,
      created_at: l.createdAt,
      updated_at: l.updatedAt,
    });
  }

  async updateLocation(id: string, patch: Partial<Omit<StorageLocationRow, 'id' | 'createdAt'>>): Promise<void> {
    const row: Partial<LocationDb> = {};
    if (patch.name !== undefined) row.name = patch.name;
    if (patch.localPath !== undefined) row.local_path = patch.localPath;
    if (patch.contentTypes !== undefined) row.content_types = JSON.stringify(patch.contentTypes);
    if (patch.serverPath !== undefined) row.server_path = patch.serverPath;
    if (patch.mappingState !== undefined) row.mapping_state = patch.mappingState;
    if (patch.mappingCheckedAt !== undefined) row.mapping_checked_at = patch.mappingCheckedAt;
    if (patch.updatedAt !== undefined) row.updated_at = patch.updatedAt;
    await this.db('media_storage_locations').where({ id }).update(row);
  }

  async deleteLocation(id: string): Promise<void> {
    await this.db('media_storage_locations').where({ id }).delete();
  }

  async sectionsUsingLocation(id: string): Promise<number> {
    const r = (await this.db('media_library_sections').where({ location_id: id }).count({ n: '*' }).first()) as { n: number } | undefined;
    return Number(r?.n ?? 0);
  }

  // ---- library sections -----------------------------------------------------------------------
  async listSections(): Promise<SectionRow[]> {
    return ((await this.db('media_library_sections').orderBy('created_at')) as SectionDb[]).map(toSection);
  }

  async sectionsOf(userId: string): Promise<SectionRow[]> {
    return ((await this.db('media_library_sections').where({ user_id: userId }).orderBy('created_at')) as SectionDb[]).map(toSection);
  }

  async getSection(id: string): Promise<SectionRow | null> {
    const r = (await this.db('media_library_sections').where({ id }).first()) as SectionDb | undefined;
    return r ? toSection(r) : null;
  }

  async sectionFor(userId: string, contentType: ContentType): Promise<SectionRow | null> {
    const r = (await this.db('media_library_sections').where({ user_id: userId, content_type: contentType }).first()) as SectionDb | undefined;
    return r ? toSection(r) : null;
  }

  /** Every provisioned section's server key and owner (the private-sections index). */
  async sectionOwners(): Promise<Array<{ sectionKey: string; userId: string }>> {
    const rows = (await this.db('media_library_sections').whereNotNull('section_key').select('section_key', 'user_id')) as Array<{ section_key: string; user_id: string }>;
    return rows.map((r) => ({ sectionKey: r.section_key, userId: r.user_id }));
  }

  async sectionsWithStatus(statuses: readonly SectionStatus[]): Promise<SectionRow[]> {
    return ((await this.db('media_library_sections').whereIn('status', statuses).orderBy('updated_at')) as SectionDb[]).map(toSection);
  }

  async insertSection(s: SectionRow): Promise<void> {
    await this.db('media_library_sections').insert({
      id: s.id,
      user_id: s.userId,
      content_type: s.contentType,
      location_id: s.locationId,
      folder: s.folder,
      status: s.status,
      error: s.error,
      section_key: s.sectionKey,
      sync_mode: s.syncMode,
      sync_recent_count: s.syncRecentCount,
      remove_watched: s.removeWatched,
      created_at: s.createdAt,
      updated_at: s.updatedAt,
      last_swept_at: s.lastSweptAt,
    });
  }

  async updateSection(id: string, patch: Partial<Omit<SectionRow, 'id' | 'userId' | 'contentType' | 'createdAt'>>): Promise<void> {
    const row: Partial<Record<keyof SectionDb, unknown>> = {};
    if (patch.locationId !== undefined) row.location_id = patch.locationId;
    if (patch.folder !== undefined) row.folder = patch.folder;
    if (patch.status !== undefined) row.status = patch.status;
    if (patch.error !== undefined) row.error = patch.error;
    if (patch.sectionKey !== undefined) row.section_key = patch.sectionKey;
    if (patch.syncMode !== undefined) row.sync_mode = patch.syncMode;
    if (patch.syncRecentCount !== undefined) row.sync_recent_count = patch.syncRecentCount;
    if (patch.removeWatched !== undefined) row.remove_watched = patch.removeWatched;
    if (patch.updatedAt !== undefined) row.updated_at = patch.updatedAt;
    if (patch.lastSweptAt !== undefined) row.last_swept_at = patch.lastSweptAt;
    await this.db('media_library_sections').where({ id }).update(row);
  }

  // ---- home videos ----------------------------------------------------------------------------
  async videosOf(userId: string): Promise<HomeVideoRow[]> {
    return ((await this.db('media_home_videos').where({ user_id: userId }).orderBy('created_at', 'desc').orderBy('id', 'desc')) as VideoDb[]).map(toVideo);
  }

  async videosInSection(sectionId: string, states: ReadonlyArray<HomeVideoRow['state']>): Promise<HomeVideoRow[]> {
    return ((await this.db('media_home_videos').where({ section_id: sectionId }).whereIn('state', states).orderBy('created_at', 'desc').orderBy('id', 'desc')) as VideoDb[]).map(toVideo);
  }

  async getVideo(id: string): Promise<HomeVideoRow | null> {
    const r = (await this.db('media_home_videos').where({ id }).first()) as VideoDb | undefined;
    return r ? toVideo(r) : null;
  }

  async insertVideo(v: HomeVideoRow): Promise<void> {
    await this.db('media_home_videos').insert({
      id: v.id,
      user_id: v.userId,
      section_id: v.sectionId,
      title: v.title,
      file_name: v.fileName,
      content_type: v.contentType,
      bytes: v.bytes,
      state: v.state,
      rating_key: v.ratingKey,
      removed_reason: v.removedReason,
      created_at: v.createdAt,
      removed_at: v.removedAt,
    });
  }

  async updateVideo(id: string, patch: Partial<Pick<HomeVideoRow, 'state' | 'ratingKey' | 'removedReason' | 'removedAt'>>): Promise<void> {
    const row: Partial<Record<keyof VideoDb, unknown>> = {};
    if (patch.state !== undefined) row.state = patch.state;
    if (patch.ratingKey !== undefined) row.rating_key = patch.ratingKey;
    if (patch.removedReason !== undefined) row.removed_reason = patch.removedReason;
    if (patch.removedAt !== undefined) row.removed_at = patch.removedAt;
    await this.db('media_home_videos').where({ id }).update(row);
  }

  async usedBytes(userId: string): Promise<number> {
    const r = (await this.db('media_home_videos').where({ user_id: userId }).whereNot({ state: 'removed' }).sum({ n: 'bytes' }).first()) as { n: number | null } | undefined;
    return Number(r?.n ?? 0);
  }
}
