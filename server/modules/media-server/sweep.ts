// The watched sweep (rule 6), every 15 minutes through the scheduler: for each ready section with
// removeWatched on, Hearth deletes its own file of every home video the member has watched (the
// server's view count with the member's token, or Hearth's own completed flag, through the
// WatchedLookup port), and with syncMode recent keeps only the newest syncRecentCount; the folder
// is rescanned and each row is marked removed with its reason. A section swept less than 15
// minutes ago (by the clock) waits for the next tick.
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { MediaExportStore } from './export-store.js';
import type { HomeVideosService } from './home-videos-service.js';
import type { MediaConnection, WatchedLookup } from './parts.js';
import { WATCHED_SWEEP_MS } from './schema.js';

export const WATCHED_SWEEP_TASK = 'media.watched-sweep';

export interface WatchedSweepDeps {
  store: MediaExportStore;
  videos: HomeVideosService;
  connection: MediaConnection;
  /** The library's lookup (server view count or Hearth's completed flag); without it, the server's view count alone. */
  watched?: WatchedLookup;
  clock: Clock;
  logger: Logger;
}

/** Until the library's lookup is wired: the server's view count, asked with the member's own token. */
export function serverViewCountLookup(connection: MediaConnection): WatchedLookup {
  return {
    async watchedKeys(userId, ratingKeys) {
      const out = new Set<string>();
      const shared = await connection.shared();
      const token = await connection.memberServerToken(userId);
      if (!shared || !token) return out;
      for (const rk of ratingKeys) {
        const item = await shared.client.metadata(token, rk);
        if (item && item.viewCount > 0) out.add(rk);
      }
      return out;
    },
  };
}

export class WatchedSweep {
  private readonly watched: WatchedLookup;

  constructor(private readonly deps: WatchedSweepDeps) {
    this.watched = deps.watched ?? serverViewCountLookup(deps.connection);
  }

  async run(): Promise<{ removed: number }> {
    const now = this.deps.clock.now();
    let removed = 0;
    for (const section of await this.deps.store.listSections()) {
      if (section.status !== 'ready' || (!section.removeWatched && section.syncMode !== 'recent')) continue;
      if (section.lastSweptAt && now.getTime() - new Date(section.lastSweptAt).getTime() < WATCHED_SWEEP_MS) continue;
      try {
        const live = await this.deps.store.videosInSection(section.id, ['stored', 'ready']);
        const gone = new Map<string, string>();
        if (section.removeWatched) {
          const keys = live.map((v) => v.ratingKey).filter((k): k is string => k !== null);
          const watched = keys.length ? await this.watched.watchedKeys(section.userId, keys) : new Set<string>();
          for (const v of live) if (v.ratingKey && watched.has(v.ratingKey)) gone.set(v.id, 'Watched, so it was removed to make room.');
        }
        if (section.syncMode === 'recent') {
          // newest first (the store's order); the ones past the count go
          const kept = live.filter((v) => !gone.has(v.id));
          for (const v of kept.slice(section.syncRecentCount)) gone.set(v.id, `Only your newest ${section.syncRecentCount} are kept.`);
        }
        for (const v of live) {
          const reason = gone.get(v.id);
          if (!reason) continue;
          await this.deps.videos.removeFile(v, reason);
          removed++;
        }
        await this.deps.store.updateSection(section.id, { lastSweptAt: now.toISOString() });
      } catch (err) {
        // the next tick tries again
        this.deps.logger.warn({ err, section: section.id }, 'watched sweep of a section failed');
      }
    }
    return { removed };
  }
}
