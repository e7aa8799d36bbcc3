// What the films module asks of the rest of Hearth (container.ts hands these in).
import type { UserActor } from '../../actor.js';
import type { MediaCatalogueService } from '../media-server/catalogue-service.js';

export interface MoviesPorts {
  /** The household's Plex and the member's own Plex account: Plex's catalogue, the library, the badge. */
  catalogue: Pick<MediaCatalogueService, 'linked' | 'searchCatalogue' | 'catalogueTitle' | 'discoverKeyFor' | 'searchLibrary' | 'libraryTitle' | 'findMovie'>;
  /** Puts a title on (or takes it off) the member's own Plex watchlist by its discover key. */
  plexWatchlist(actor: UserActor, discoverKey: string, remove: boolean): Promise<void>;
}
