// The household's Plex (reference/plex.md): three clients, one per service, each with an injectable
// base URL and its own file:
//  - plex-account.ts, the account API (plex.tv): the PIN link flow, the signed-in account, the
//    servers an account reaches;
//  - plex-discover.ts, the discover provider: the watchlist and Plex's own catalogue;
//  - plex-server.ts, the Plex Media Server: library reads, watched state, parts, images, sections.
// plex-call.ts is how each of them calls (headers, time budget, SSRF guard, MediaServerError and
// its failure kinds); plex-items.ts the shapes of the server's answers. This file puts the three
// together as the container hands them to the media-server module, and is what others import.
import type { Logger } from '../../platform/logger.js';
import type { OfflineSource, SsrfGuard } from '../../platform/ssrf.js';
import { createPlexAccountClient, type PlexAccountClient } from './plex-account.js';
import type { PlexClientInfo } from './plex-call.js';
import { createPlexDiscoverClient, type PlexDiscoverClient } from './plex-discover.js';
import { createMediaServerGuard, createPlexServerClient, type PlexServerClient } from './plex-server.js';

export { MediaServerError, plexHeaders, type MediaServerFailure, type MediaService, type PlexClientInfo } from './plex-call.js';
export { createPlexAccountClient, preferredConnections, type PlexAccount, type PlexAccountClient, type PlexAccountClientOptions, type PlexConnection, type PlexPin, type PlexServerResource } from './plex-account.js';
export { createPlexDiscoverClient, type DiscoverItem, type PlexDiscoverClient } from './plex-discover.js';
export type { PlexHub, PlexItem, PlexPage, PlexSection, PlexSession } from './plex-items.js';
export { createMediaServerGuard, createPlexServerClient, type PartResponse, type PlexServerClient } from './plex-server.js';

export interface MediaClientsOptions {
  accountUrl: string;
  discoverUrl: string;
  linkPageUrl?: string;
  codePageUrl?: string;
  /** The container's one guard, for plex.tv and discover (public internet only). */
  guard: SsrfGuard;
  /** The one guard's own rules, repeated in each server client's guard. */
  allowOrigins?: readonly string[];
  /** A fixed answer, or the household's offline switch read at each call. */
  offline?: boolean | OfflineSource;
  /** Read at every call: the container fills in the install's identifier once it is loaded. */
  client: PlexClientInfo;
  timeoutMs?: number;
  logger?: Logger;
}

/**
 * The account and discover clients (made once, through the one guard) and a server client per
 * origin, each with its own guard naming only that origin (createMediaServerGuard), kept until
 * close(): the configured server's, and the candidates an admin's discovery probed.
 */
export function createMediaClients(o: MediaClientsOptions): {
  account: PlexAccountClient;
  discover: PlexDiscoverClient;
  server(url: string): PlexServerClient;
  close(): Promise<void>;
} {
  const common = { guard: o.guard, client: o.client, timeoutMs: o.timeoutMs, logger: o.logger };
  const servers = new Map<string, { client: PlexServerClient; guard: SsrfGuard }>();
  return {
    account: createPlexAccountClient({ ...common, baseUrl: o.accountUrl, linkPageUrl: o.linkPageUrl, codePageUrl: o.codePageUrl }),
    discover: createPlexDiscoverClient({ ...common, baseUrl: o.discoverUrl }),
    server(url) {
      const base = new URL(url);
      const key = base.origin + base.pathname.replace(/\/+$/, '');
      let entry = servers.get(key);
      if (!entry) {
        const guard = createMediaServerGuard(base.origin, { allowOrigins: o.allowOrigins, offline: o.offline });
        entry = { guard, client: createPlexServerClient({ ...common, guard, baseUrl: key }) };
        servers.set(key, entry);
      }
      return entry.client;
    },
    async close() {
      const all = [...servers.values()];
      servers.clear();
      await Promise.all(all.map((e) => e.guard.close()));
    },
  };
}
