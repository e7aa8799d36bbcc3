// Each member's private library sections (the spec's export): provisioning in rule 3's order,
// the provisioning queue, and the sections' policies (syncMode, syncRecentCount, removeWatched).
//
// POST /admin/provision queues a section once rule 3's order is met (the server connected, the
// member's own Plex account linked, a location for the type with its mapping checked; otherwise a
// 409 with the sentence the admin page shows beside a greyed-out Provision); the queue runs one at a time: it creates the member's
// folder <localPath>/<contentType>/<member folder>, creates the section on the server (a personal
// media library: agent com.plexapp.agents.none, Plex Video Files Scanner, type movie, language xn,
// at the folder as the server sees it), then scans it: queued -> creating -> scanning -> ready, or
// failed with a sentence. Sections left queued, creating or scanning by a stopped Hearth are
// resumed at the next start (creating again finds the section it made by its folder).
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { assertAdmin, type Actor, type UserActor } from '../../actor.js';
import { mediaServerFailure, mediaServerSentence } from '../../adapter-errors/media-server.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import { resolveInside } from '../../platform/path-guard.js';
import { sleep } from '../../platform/sleep.js';
import type { MediaExportStore } from './export-store.js';
import type { MediaConnection, SectionRow, SharedServer, StorageLocationRow } from './parts.js';
import { ContentType, SYNC_RECENT_DEFAULT, type AdminSectionsResponse, type LibrarySection, type MySectionsResponse } from './schema.js';
import { serverPathOf, type StorageLocationsService } from './storage-service.js';

/** What the export needs to know about household members (the auth service, handed in by the container). */
export interface MemberDirectory {
  getUser(id: string): Promise<{ id: string; name: string } | null>;
  listUsers(actor: Actor): Promise<Array<{ id: string; name: string }>>;
}

export interface MediaExportDeps {
  store: MediaExportStore;
  storage: StorageLocationsService;
  connection: MediaConnection;
  members: MemberDirectory;
  clock: Clock;
  logger: Logger;
  /** How often a scan in progress is looked at (default 1 s). */
  scanPollMs?: number;
  /** How long a first scan may take before the section is ready anyway (default 10 minutes). */
  scanWaitMs?: number;
}

export const PERSONAL_AGENT = 'com.plexapp.agents.none';
export const PERSONAL_SCANNER = 'Plex Video Files Scanner';
const ACTIVE = ['queued', 'creating', 'scanning'] as const;
const TYPE_WORDS: Record<ContentType, string> = { mine: 'home videos' };
const SECTION_TITLES: Record<ContentType, string> = { mine: 'Home videos' };

/** A provisioning step failed; its message is the sentence the admin sees. */
class ProvisionFailure extends Error {}

/** The member's folder inside a location: <contentType>/<name slug>-<id start>. */
export function memberFolder(contentType: ContentType, user: { id: string; name: string }): string {
  const slug =
    user.name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'member';
  return `${contentType}/${slug}-${user.id.replace(/[^A-Za-z0-9]/g, '').slice(0, 8)}`;
}

export class MediaExportService {
  private queue: string[] = [];
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly abort = new AbortController();
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly deps: MediaExportDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  // ---- views ----------------------------------------------------------------------------------
  sectionView(s: SectionRow): LibrarySection {
    return {
      id: s.id,
      userId: s.userId,
      contentType: s.contentType,
      status: s.status,
      error: s.error,
      sectionKey: s.sectionKey,
      locationId: s.locationId,
      syncMode: s.syncMode,
      syncRecentCount: s.syncRecentCount,
      removeWatched: s.removeWatched,
      updatedAt: s.updatedAt,
      lastSweptAt: s.lastSweptAt,
    };
  }

  /** The location a content type goes to: the first ready one assigned to it, else the first assigned. */
  private pickLocation(locations: StorageLocationRow[], contentType: ContentType): StorageLocationRow | null {
    const assigned = locations.filter((l) => l.contentTypes.includes(contentType));
    return assigned.find((l) => l.serverPath !== null && l.mappingState === 'ok') ?? assigned[0] ?? null;
  }

  /** Why Provision must wait (rule 3's order), or null when it may start. */
  private blockedReason(connected: boolean, location: StorageLocationRow | null, contentType: ContentType): string | null {
    if (!connected) return 'Connect the media server first.';
    if (!location) return `Add a storage location for ${TYPE_WORDS[contentType]} first.`;
    if (!location.serverPath) return `Set how the media server sees “${location.name}” (its path mapping) first.`;
    if (location.mappingState !== 'ok') return `Check the path mapping of “${location.name}” first: the media server has not yet confirmed it sees that folder.`;
    return null;
  }

  /**
   * Rule 3 begins "connect the server and link the user": a member's private library is made for
   * their own Plex account. Plex shows a library to an account only once the server's owner shares
   * it with that account, and the watched sweep reads what the member watched with their own token;
   * a member who has not linked (or whose link Plex signed out) has neither, so Provision waits for
   * the link (409 member_not_linked; the admin page shows it greyed out with this sentence).
   */
  private async linkReason(actor: Actor, user: { id: string; name: string }): Promise<string | null> {
    if (await this.deps.connection.memberToken(user.id)) return null;
    if (actor.kind === 'user' && actor.id === user.id) return 'You have not linked a Plex account yet (or Plex signed Hearth out of it). Link one under Media → Link my Plex account first.';
    return `${user.name} has not linked a Plex account yet (or Plex signed Hearth out of it). ${user.name} can link one under Media → Link my Plex account; then provision.`;
  }

  private async connected(): Promise<SharedServer | null> {
    try {
      return await this.deps.connection.shared();
    } catch (err) {
      this.deps.logger.warn({ err }, 'media connection lookup failed');
      return null;
    }
  }

  async adminSections(actor: Actor): Promise<AdminSectionsResponse> {
    assertAdmin(actor);
    const [users, locations, sections, shared] = await Promise.all([this.deps.members.listUsers(actor), this.deps.store.listLocations(), this.deps.store.listSections(), this.connected()]);
    const rows: AdminSectionsResponse['rows'] = [];
    for (const u of users) {
      for (const contentType of ContentType.options) {
        const section = sections.find((s) => s.userId === u.id && s.contentType === contentType) ?? null;
        const storage = this.blockedReason(shared !== null, this.pickLocation(locations, contentType), contentType);
        const blockedReason = shared === null ? storage : ((await this.linkReason(actor, u)) ?? storage);
        rows.push({ userId: u.id, name: u.name, contentType, section: section ? this.sectionView(section) : null, blockedReason });
      }
    }
    return { rows };
  }

  async mySections(actor: UserActor): Promise<MySectionsResponse> {
    const [locations, sections, shared] = await Promise.all([this.deps.store.listLocations(), this.deps.store.sectionsOf(actor.id), this.connected()]);
    const out: MySectionsResponse['sections'] = [];
    for (const contentType of ContentType.options) {
      const location = this.pickLocation(locations, contentType);
      const ready = this.blockedReason(shared !== null, location, contentType) === null && location !== null && (await this.deps.storage.writable(location.localPath));
      const section = sections.find((s) => s.contentType === contentType) ?? null;
      out.push({ contentType, storageReady: ready, section: section ? this.sectionView(section) : null });
    }
    return { sections: out };
  }

  async updateMySection(actor: UserActor, patch: { contentType: ContentType; syncMode?: SectionRow['syncMode']; syncRecentCount?: number; removeWatched?: boolean }): Promise<MySectionsResponse> {
    const section = await this.deps.store.sectionFor(actor.id, patch.contentType);
    if (!section) throw new ConflictError('section_not_set_up', `Your ${TYPE_WORDS[patch.contentType]} library is not set up yet: an admin sets it up on the Media storage page.`);
    await this.deps.store.updateSection(section.id, { syncMode: patch.syncMode, syncRecentCount: patch.syncRecentCount, removeWatched: patch.removeWatched, updatedAt: this.now() });
    return this.mySections(actor);
  }

  /** The member's section when it is ready for files, with its folder on this computer; else a 409 sentence. */
  async readySection(userId: string, contentType: ContentType): Promise<{ section: SectionRow; location: StorageLocationRow; dir: string }> {
    const section = await this.deps.store.sectionFor(userId, contentType);
    if (!section || section.status !== 'ready') {
      const busy = section && section.status !== 'failed';
      throw new ConflictError('section_not_ready', busy ? `Your ${TYPE_WORDS[contentType]} library is still being set up. Try again in a minute.` : `Your ${TYPE_WORDS[contentType]} library is not set up yet: an admin sets it up on the Media storage page.`);
    }
    const location = section.locationId ? await this.deps.store.getLocation(section.locationId) : null;
    const dir = location ? resolveInside(location.localPath, section.folder) : null;
    if (!location || !dir) throw new ConflictError('section_not_ready', `The storage for your ${TYPE_WORDS[contentType]} was removed. Ask an admin to set it up again.`);
    return { section, location, dir };
  }

  // ---- provisioning ---------------------------------------------------------------------------
  async provision(actor: Actor, body: { userId: string; contentType: ContentType }): Promise<{ section: LibrarySection; created: boolean }> {
    assertAdmin(actor);
    const user = await this.deps.members.getUser(body.userId);
    if (!user) throw new NotFoundError('That household member does not exist.');
    const existing = await this.deps.store.sectionFor(user.id, body.contentType);
    if (existing && existing.status !== 'failed') return { section: this.sectionView(existing), created: false };
    const [locations, shared] = await Promise.all([this.deps.store.listLocations(), this.connected()]);
    const location = this.pickLocation(locations, body.contentType);
    const blocked = this.blockedReason(shared !== null, location, body.contentType);
    if (shared !== null) {
      const unlinked = await this.linkReason(actor, user);
      if (unlinked) throw new ConflictError('member_not_linked', unlinked);
    }
    if (blocked || !location) throw new ConflictError('provision_blocked', blocked ?? 'Add a storage location first.');
    const now = this.now();
    let row: SectionRow;
    if (existing) {
      row = { ...existing, locationId: existing.sectionKey ? existing.locationId : location.id, status: 'queued', error: null, updatedAt: now };
      await this.deps.store.updateSection(existing.id, { locationId: row.locationId, status: 'queued', error: null, updatedAt: now });
    } else {
      row = {
        id: randomUUID(),
        userId: user.id,
        contentType: body.contentType,
        locationId: location.id,
        folder: memberFolder(body.contentType, user),
        status: 'queued',
        error: null,
        sectionKey: null,
        syncMode: 'all',
        syncRecentCount: SYNC_RECENT_DEFAULT,
        removeWatched: false,
        createdAt: now,
        updatedAt: now,
        lastSweptAt: null,
      };
      await this.deps.store.insertSection(row);
    }
    this.enqueue(row.id);
    return { section: this.sectionView(row), created: true };
  }

  /** Resumes sections a stopped Hearth left queued, creating or scanning. */
  async start(): Promise<void> {
    for (const s of await this.deps.store.sectionsWithStatus(ACTIVE)) this.enqueue(s.id);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.queue = [];
    this.abort.abort();
    await this.running;
  }

  /** Resolves when the queue has nothing left to do (tests). */
  idle(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private enqueue(id: string): void {
    if (this.stopped || this.queue.includes(id)) return;
    this.queue.push(id);
    this.pump();
  }

  private pump(): void {
    if (this.running || this.stopped) return;
    const id = this.queue.shift();
    if (!id) {
      for (const w of this.idleWaiters.splice(0)) w();
      return;
    }
    this.running = this.run(id)
      .catch((err: unknown) => this.deps.logger.error({ err, section: id }, 'provisioning failed unexpectedly'))
      .finally(() => {
        this.running = null;
        this.pump();
      });
  }

  private async setStatus(id: string, patch: Partial<SectionRow>): Promise<void> {
    await this.deps.store.updateSection(id, { ...patch, updatedAt: this.now() });
  }

  private async run(id: string): Promise<void> {
    const s = await this.deps.store.getSection(id);
    if (!s || !(ACTIVE as readonly string[]).includes(s.status)) return;
    try {
      const user = await this.deps.members.getUser(s.userId);
      if (!user) throw new ProvisionFailure('This household member no longer exists.');
      const location = s.locationId ? await this.deps.store.getLocation(s.locationId) : null;
      if (!location) throw new ProvisionFailure('The storage location for this library was removed. Add one and provision again.');
      if (!location.serverPath) throw new ProvisionFailure(`Set how the media server sees “${location.name}” (its path mapping), then provision again.`);
      const shared = await this.deps.connection.shared();
      if (!shared) throw new ProvisionFailure('The media server is not connected. Connect it, then provision again.');

      await this.setStatus(id, { status: 'creating', error: null });
      const dir = resolveInside(location.localPath, s.folder);
      if (!dir) throw new ProvisionFailure('Hearth could not make a folder for this library inside the storage location.');
      try {
        await mkdir(dir, { recursive: true });
      } catch (err) {
        this.deps.logger.warn({ err, section: id }, 'member folder not created');
        throw new ProvisionFailure(`Hearth could not create the library’s folder in “${location.name}”. Check that Hearth may write there.`);
      }
      const serverDir = serverPathOf(location.serverPath, s.folder);
      let key = s.sectionKey ?? (await shared.client.sections(shared.token)).find((x) => x.locations.includes(serverDir))?.key ?? null;
      if (!key) {
        const created = await shared.client.createSection(shared.token, {
          name: `${user.name} — ${SECTION_TITLES[s.contentType]}`,
          type: 'movie',
          agent: PERSONAL_AGENT,
          scanner: PERSONAL_SCANNER,
          language: 'xn',
          locations: [serverDir],
        });
        key = created?.key ?? (await shared.client.sections(shared.token)).find((x) => x.locations.includes(serverDir))?.key ?? null;
        if (!key) throw new ProvisionFailure('The media server did not create the library. Check its settings and try again.');
      }

      await this.setStatus(id, { status: 'scanning', sectionKey: key });
      await shared.client.refreshSection(shared.token, key);
      await this.waitScanned(shared, key);
      if (this.stopped) return;
      await this.setStatus(id, { status: 'ready', error: null });
    } catch (err) {
      if (this.stopped) return; // resumed at the next start
      const message = err instanceof ProvisionFailure ? err.message : (mediaServerSentence(err) ?? 'Something went wrong while setting up this library. Try again.');
      if (!(err instanceof ProvisionFailure)) this.deps.logger.warn({ err, section: id }, 'provisioning step failed');
      const failure = mediaServerFailure(err);
      if (failure === 'unauthorized') await this.deps.connection.reportShared('unauthorized');
      if (failure === 'unreachable' || failure === 'timeout') await this.deps.connection.reportShared('unreachable');
      await this.setStatus(id, { status: 'failed', error: message });
    }
  }

  /** Waits while the server says the section is refreshing (bounded: a long first scan still ends ready). */
  private async waitScanned(shared: SharedServer, key: string): Promise<void> {
    const poll = this.deps.scanPollMs ?? 1_000;
    const deadline = Date.now() + (this.deps.scanWaitMs ?? 10 * 60_000);
    // the server may not have started the scan yet at the first look
    await sleep(Math.min(poll, 250), this.abort.signal);
    while (!this.stopped && Date.now() < deadline) {
      const s = (await shared.client.sections(shared.token)).find((x) => x.key === key);
      if (!s) throw new ProvisionFailure('The library disappeared from the media server while it was being scanned. Provision again.');
      if (!s.refreshing) return;
      await sleep(poll, this.abort.signal);
    }
  }
}
