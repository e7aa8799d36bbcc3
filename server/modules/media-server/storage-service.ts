// Storage locations (admin, /api/admin/storage-locations): a folder on this computer where members'
// private libraries live, assigned to content types, with the path mapping that says how the media
// server sees the same folder (rule 3). The folder is checked through the one path guard (absolute,
// not Hearth's data folder nor a system folder, on its real path too; creatable, writable) and its
// free space read with statfs; the mapping is checked by writing a marker file and asking the
// server's browse API whether it sees it at serverPath.
import { randomBytes, randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertAdmin, type Actor } from '../../actor.js';
import { mediaServerFailure, mediaServerSentence } from '../../adapter-errors/media-server.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { DiskFree } from '../../platform/disk.js';
import type { Logger } from '../../platform/logger.js';
import { resolveInside, sensitiveFolderOf } from '../../platform/path-guard.js';
import type { MediaExportStore } from './export-store.js';
import type { MediaConnection, StorageLocationRow } from './parts.js';
import type { ContentType, StorageLocation } from './schema.js';

export interface StorageLocationsDeps {
  store: MediaExportStore;
  connection: MediaConnection;
  diskFree: DiskFree;
  clock: Clock;
  logger: Logger;
  /** Hearth's own data folder: no location may be it or lie inside it. */
  dataDir: string;
}

export interface StorageLocationInput {
  name: string;
  localPath: string;
  contentTypes: ContentType[];
  serverPath?: string | null;
}

/** The name of the marker file the mapping check writes (and removes again). */
export const MARKER_PREFIX = '.hearth-mapping-check-';

/**
 * An absolute folder on this computer, cleaned by the one path guard (no NUL, no `..` left, no
 * symlink leading out of its own root); null when it is not one.
 */
export function cleanLocalPath(input: string): string | null {
  const raw = input.trim();
  if (!path.isAbsolute(raw) || raw.includes('\0')) return null;
  const resolved = path.resolve(raw);
  const parent = path.dirname(resolved);
  if (parent === resolved) return null; // the file system's root
  // the guard works below a root folder: the folder is checked as a name inside its parent
  if (parent === path.parse(resolved).root) return resolved;
  return resolveInside(parent, path.basename(resolved));
}

/** How the media server sees the folder: an absolute path on the server's own disk (POSIX or a drive). */
export function cleanServerPath(input: string): string | null {
  const raw = input.trim();
  if (!raw || raw.includes('\0')) return null;
  if (/^[A-Za-z]:[\\/]/.test(raw)) return raw.replace(/[\\/]+$/, '') || null;
  if (!raw.startsWith('/')) return null;
  const clean = path.posix.normalize(raw).replace(/\/+$/, '');
  if (!clean || clean.split('/').includes('..')) return null;
  return clean;
}

/** The server-side path of a folder inside a location (the location's mapping plus the relative folder). */
export function serverPathOf(serverPath: string, relative: string): string {
  const windows = /^[A-Za-z]:/.test(serverPath);
  return windows ? `${serverPath}\\${relative.split('/').join('\\')}` : path.posix.join(serverPath, relative);
}

export class StorageLocationsService {
  constructor(private readonly deps: StorageLocationsDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** Whether Hearth can write in the folder now. */
  async writable(localPath: string): Promise<boolean> {
    try {
      const s = await stat(localPath);
      if (!s.isDirectory()) return false;
      await access(localPath, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }

  async view(row: StorageLocationRow): Promise<StorageLocation> {
    const writable = await this.writable(row.localPath);
    let freeBytes: number | null = null;
    if (writable) freeBytes = await this.deps.diskFree(row.localPath).catch(() => null);
    return {
      id: row.id,
      name: row.name,
      localPath: row.localPath,
      contentTypes: row.contentTypes,
      serverPath: row.serverPath,
      mappingState: row.mappingState,
      mappingCheckedAt: row.mappingCheckedAt,
      writable,
      freeBytes,
      ready: writable && row.serverPath !== null && row.mappingState === 'ok' && row.contentTypes.length > 0,
    };
  }

  async list(actor: Actor): Promise<StorageLocation[]> {
    assertAdmin(actor);
    return Promise.all((await this.deps.store.listLocations()).map((r) => this.view(r)));
  }

  private async found(id: string): Promise<StorageLocationRow> {
    const row = await this.deps.store.getLocation(id);
    if (!row) throw new NotFoundError('That storage location does not exist.');
    return row;
  }

  /** Checks (and creates) the folder: absolute, through the path guard, writable. Answers the clean path. */
  private async checkFolder(input: string): Promise<string> {
    // before anything is made there: `..` and symlinks are followed to where the folder really is
    const raw = input.trim();
    const sensitive = path.isAbsolute(raw) && !raw.includes('\0') ? sensitiveFolderOf(raw, { dataDir: this.deps.dataDir }) : null;
    const shown = path.resolve(raw);
    if (sensitive?.kind === 'data') {
      throw new BadRequestError(`${shown} is Hearth’s own data folder or inside it, where its database and files live. Choose a folder outside ${sensitive.folder}, for example on a data disk.`, { field: 'localPath' });
    }
    if (sensitive) {
      throw new BadRequestError(`${shown} is ${shown === sensitive.folder ? 'a system folder' : `inside the system folder ${sensitive.folder}`} of this computer, and media does not belong there. Choose a folder on a data disk, for example /srv/hearth-media.`, { field: 'localPath' });
    }
    const clean = cleanLocalPath(raw);
    if (!clean) throw new BadRequestError('Give the folder’s full path on this computer, starting with / (for example /srv/hearth-media).', { field: 'localPath' });
    try {
      await mkdir(clean, { recursive: true });
    } catch {
      throw new BadRequestError(`Hearth could not create the folder ${clean}. Check that it is on a disk Hearth may write to.`, { field: 'localPath' });
    }
    if (!(await this.writable(clean))) throw new BadRequestError(`Hearth cannot write in ${clean}. Give Hearth write access to it, or choose another folder.`, { field: 'localPath' });
    return clean;
  }

  private checkServerPath(input: string | null | undefined): string | null {
    if (input === null || input === undefined) return null;
    const clean = cleanServerPath(input);
    if (!clean) throw new BadRequestError('Give the folder’s full path as the media server sees it, starting with / (or a drive letter on Windows).', { field: 'serverPath' });
    return clean;
  }

  private async assertPathFree(localPath: string, except: string | null): Promise<void> {
    const other = await this.deps.store.locationByPath(localPath);
    if (other && other.id !== except) throw new ConflictError('location_exists', `The folder ${localPath} is already the storage location “${other.name}”.`);
  }

  async create(actor: Actor, body: StorageLocationInput): Promise<StorageLocation> {
    assertAdmin(actor);
    const localPath = await this.checkFolder(body.localPath);
    const serverPath = this.checkServerPath(body.serverPath);
    await this.assertPathFree(localPath, null);
    const now = this.now();
    const row: StorageLocationRow = {
      id: randomUUID(),
      name: body.name,
      localPath,
      contentTypes: [...new Set(body.contentTypes)],
      serverPath,
      mappingState: null,
      mappingCheckedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.deps.store.insertLocation(row);
    return this.view(row);
  }

  async update(actor: Actor, id: string, body: Partial<StorageLocationInput>): Promise<StorageLocation> {
    assertAdmin(actor);
    const row = await this.found(id);
    const patch: Partial<StorageLocationRow> = { updatedAt: this.now() };
    if (body.name !== undefined) patch.name = body.name;
    if (body.contentTypes !== undefined) patch.contentTypes = [...new Set(body.contentTypes)];
    if (body.localPath !== undefined) {
      const localPath = await this.checkFolder(body.localPath);
      if (localPath !== row.localPath) {
        if ((await this.deps.store.sectionsUsingLocation(id)) > 0) throw new ConflictError('location_in_use', `Members’ libraries live in ${row.localPath}: move their folders yourself and add a new location instead of changing this one.`);
        await this.assertPathFree(localPath, id);
        patch.localPath = localPath;
        // the server must be asked again whether it sees the new folder
        patch.mappingState = null;
        patch.mappingCheckedAt = null;
      }
    }
    if (body.serverPath !== undefined) {
      const serverPath = this.checkServerPath(body.serverPath);
      if (serverPath !== row.serverPath) {
        patch.serverPath = serverPath;
        patch.mappingState = null;
        patch.mappingCheckedAt = null;
      }
    }
    await this.deps.store.updateLocation(id, patch);
    return this.view({ ...row, ...patch });
  }

  async remove(actor: Actor, id: string): Promise<void> {
    assertAdmin(actor);
    const row = await this.found(id);
    const used = await this.deps.store.sectionsUsingLocation(id);
    if (used > 0) {
      throw new ConflictError('location_in_use', `${used === 1 ? 'A member’s library uses' : `${used} members’ libraries use`} “${row.name}”. It can be removed once no library uses it.`);
    }
    await this.deps.store.deleteLocation(id);
  }

  /**
   * The mapping check: Hearth writes a marker file into the folder and asks the server whether it
   * sees that file at serverPath. ok: it does; missing: it does not see the folder or the file (a
   * different folder); error: the server could not be asked.
   */
  async check(actor: Actor, id: string): Promise<{ location: StorageLocation; ok: boolean; message: string }> {
    assertAdmin(actor);
    const row = await this.found(id);
    const { state, message } = await this.probe(row);
    const now = this.now();
    await this.deps.store.updateLocation(id, { mappingState: state, mappingCheckedAt: now, updatedAt: now });
    return { location: await this.view({ ...row, mappingState: state, mappingCheckedAt: now }), ok: state === 'ok', message };
  }

  private async probe(row: StorageLocationRow): Promise<{ state: 'ok' | 'missing' | 'error'; message: string }> {
    if (!row.serverPath) return { state: 'missing', message: 'Set how the media server sees this folder (its path mapping) first.' };
    if (!(await this.writable(row.localPath))) return { state: 'error', message: `Hearth cannot write in ${row.localPath}, so it cannot check the mapping.` };
    const shared = await this.deps.connection.shared();
    if (!shared) return { state: 'error', message: 'Connect the media server first, then check the mapping.' };
    const marker = `${MARKER_PREFIX}${randomBytes(6).toString('hex')}`;
    const local = resolveInside(row.localPath, marker);
    if (!local) return { state: 'error', message: 'Hearth could not write its check file into this folder.' };
    try {
      await writeFile(local, 'Hearth checks that the media server sees this folder. This file is removed again.\n');
    } catch {
      return { state: 'error', message: `Hearth could not write its check file into ${row.localPath}.` };
    }
    try {
      const seen = await shared.client.browse(shared.token, row.serverPath, { includeFiles: true });
      const expected = serverPathOf(row.serverPath, marker);
      if (seen.files.some((f) => f === expected || f.endsWith(`/${marker}`) || f.endsWith(`\\${marker}`))) {
        return { state: 'ok', message: `The media server sees this folder at ${row.serverPath}.` };
      }
      return { state: 'missing', message: `The media server has a folder ${row.serverPath}, but it is not this one: Hearth’s check file did not show up there. Check the path mapping.` };
    } catch (err) {
      const failure = mediaServerFailure(err);
      if (failure === 'not_found') {
        return { state: 'missing', message: `The media server does not see a folder ${row.serverPath}. Check the path mapping, and that the folder is shared with the media server.` };
      }
      const sentence = mediaServerSentence(err);
      if (sentence) {
        if (failure === 'unauthorized') await this.deps.connection.reportShared('unauthorized');
        if (failure === 'unreachable' || failure === 'timeout') await this.deps.connection.reportShared('unreachable');
        return { state: 'error', message: sentence };
      }
      this.deps.logger.warn({ err, location: row.id }, 'storage mapping check failed');
      return { state: 'error', message: 'Hearth could not ask the media server about this folder. Try again in a moment.' };
    } finally {
      await rm(local, { force: true }).catch(() => undefined);
    }
  }
}
