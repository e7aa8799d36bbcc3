// PrivateSections (parts.ts) over the export's store: the server keys of members' private library
// sections and whose they are, read once and kept in memory until media_library_sections is
// written (the version counter from tableWrites), so a feed costs no query at all while nothing
// changes. Also a small, bounded memo of which section an item is in, filled from what the
// library reads, so the picture proxy can tell a private poster without asking the server.
import type { Level } from '../content/schema.js';
import { ratingAllowed } from '../content/public.js';
import type { MediaExportStore } from './export-store.js';
import type { PrivateSections, SectionVisibility } from './parts.js';

/** Items whose section is remembered (oldest dropped first). */
const ITEM_SECTIONS_MAX = 5000;
/** How long an item's section is trusted (items do not move between sections; a rescan may renumber). */
const ITEM_SECTION_TTL_MS = 10 * 60_000;

export interface PrivateSectionIndexDeps {
  store: Pick<MediaExportStore, 'sectionOwners'>;
  /** Moves whenever media_library_sections may have changed (tableWrites). */
  version: () => number;
  /** The member's Media level (content dials): titles rated above it are not theirs to see. */
  mediaLevel: (userId: string) => Promise<Level>;
  now?: () => number;
}

export class PrivateSectionIndex implements PrivateSections {
  private owners: { version: number; map: Map<string, string> } | null = null;
  private loading: { version: number; work: Promise<Map<string, string>> } | null = null;
  private readonly items = new Map<string, { sectionId: string | null; rating: string | null; at: number }>();
  private readonly now: () => number;

  constructor(private readonly deps: PrivateSectionIndexDeps) {
    this.now = deps.now ?? Date.now;
  }

  private async ownerMap(): Promise<Map<string, string>> {
    const version = this.deps.version();
    if (this.owners?.version === version) return this.owners.map;
    if (this.loading?.version !== version) {
      const work = this.deps.store.sectionOwners().then((rows) => new Map(rows.map((r) => [r.sectionKey, r.userId])));
      this.loading = { version, work };
      void work.then(
        // kept only when nothing was written meanwhile
        (map) => {
          if (this.deps.version() === version) this.owners = { version, map };
        },
        // a failed read is the caller's error (awaited below); the next call reads again
        () => {
          if (this.loading?.work === work) this.loading = null;
        },
      );
    }
    return this.loading.work;
  }

  async viewFor(userId: string): Promise<SectionVisibility> {
    const [map, level] = await Promise.all([this.ownerMap(), this.deps.mediaLevel(userId)]);
    const owner = (sectionId: string | null | undefined) => (sectionId === null || sectionId === undefined ? undefined : map.get(sectionId));
    const hidden = (sectionId: string | null | undefined) => {
      const o = owner(sectionId);
      return o !== undefined && o !== userId;
    };
    // the titles kept out by the content dials, apart from the private ones (never told)
    const rated = new Set<string>();
    let unkeyed = 0;
    return {
      hidden,
      sees: (item) => {
        const o = owner(item.librarySectionId);
        if (o !== undefined) return o === userId;
        const allowed = ratingAllowed(level, item.contentRating);
        if (!allowed) {
          if (item.ratingKey === undefined) unkeyed++;
          else rated.add(item.ratingKey);
        }
        return allowed;
      },
      hiddenByContent: () => rated.size + unkeyed,
    };
  }

  remember(items: ReadonlyArray<{ ratingKey: string; parentRatingKey?: string | null; grandparentRatingKey?: string | null; librarySectionId: string | null; contentRating?: string | null }>): void {
    const at = this.now();
    for (const i of items) {
      if (i.librarySectionId === null) continue;
      for (const key of [i.ratingKey, i.parentRatingKey, i.grandparentRatingKey]) {
        if (!key) continue;
        this.items.delete(key);
        // a season's and a show's pictures go with their episode's rating (the show's, on Plex)
        this.items.set(key, { sectionId: i.librarySectionId, rating: i.contentRating ?? null, at });
      }
    }
    while (this.items.size > ITEM_SECTIONS_MAX) this.items.delete(this.items.keys().next().value!);
  }

  private known(ratingKey: string) {
    const hit = this.items.get(ratingKey);
    if (!hit) return undefined;
    if (this.now() - hit.at > ITEM_SECTION_TTL_MS) {
      this.items.delete(ratingKey);
      return undefined;
    }
    return hit;
  }

  sectionOf(ratingKey: string): string | null | undefined {
    return this.known(ratingKey)?.sectionId;
  }

  ratingOf(ratingKey: string): string | null | undefined {
    const hit = this.known(ratingKey);
    return hit ? hit.rating : undefined;
  }
}
