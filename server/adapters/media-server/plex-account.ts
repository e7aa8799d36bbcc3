// The plex.tv account client (reference/plex.md §3–§5; MEDIA_ACCOUNT_URL, /api/v2/... is added): the
// PIN link flow, the signed-in account, and the servers an account reaches (resources).
import { z } from 'zod';
import { callJson, MediaServerError, optNum, optStr, str, trimBase, type CallOptions, type CommonOptions } from './plex-call.js';

const PinSchema = z.object({ id: z.number(), code: str, expiresAt: optStr, expiresIn: optNum, authToken: optStr, clientIdentifier: optStr });

/** A PIN of the link flow. `authToken` is the account token once the person approved it: keep it server-side. */
export interface PlexPin {
  id: number;
  code: string;
  expiresAt: string | null;
  authToken: string | null;
}

const UserSchema = z.object({
  id: z.number(),
  uuid: str,
  username: optStr,
  title: optStr,
  friendlyName: optStr,
  email: optStr,
  thumb: optStr,
  home: z.boolean().nullish(),
  restricted: z.boolean().nullish(),
  subscription: z.object({ active: z.boolean().nullish() }).nullish(),
});

/** The signed-in account (GET /api/v2/user), without its token. */
export interface PlexAccount {
  id: number;
  uuid: string;
  username: string;
  title: string;
  email: string | null;
  thumb: string | null;
  /** A Plex Home member. */
  home: boolean;
  /** A managed (restricted) Home user. */
  restricted: boolean;
}

const ConnectionSchema = z.object({ protocol: str, address: str, port: z.coerce.number(), uri: str, local: z.boolean().catch(false), relay: z.boolean().catch(false), IPv6: z.boolean().catch(false) });
const ResourceSchema = z.object({
  name: str,
  clientIdentifier: str,
  provides: z.string().catch(''),
  owned: z.boolean().catch(false),
  accessToken: optStr,
  sourceTitle: optStr,
  productVersion: optStr,
  httpsRequired: z.boolean().catch(false),
  presence: z.boolean().catch(false),
  connections: z.array(ConnectionSchema).nullish().transform((v) => v ?? []),
});

export interface PlexConnection {
  uri: string;
  protocol: string;
  address: string;
  port: number;
  local: boolean;
  relay: boolean;
}

/** A server an account reaches (resources that provide `server`), its connections best first. */
export interface PlexServerResource {
  name: string;
  machineIdentifier: string;
  owned: boolean;
  /** The server token for this account (a friend's is server-scoped): keep it server-side. */
  accessToken: string | null;
  /** The owner's name for a shared server. */
  sourceTitle: string | null;
  version: string | null;
  httpsRequired: boolean;
  online: boolean;
  connections: PlexConnection[];
}

/**
 * Local before remote, relay last (bandwidth-limited); https first within each group; a server that
 * requires secure connections keeps only its https ones (reference §5).
 */
export function preferredConnections(list: readonly PlexConnection[], httpsRequired: boolean): PlexConnection[] {
  const rank = (c: PlexConnection) => (c.relay ? 4 : c.local ? 0 : 2) + (c.protocol === 'https' ? 0 : 1);
  return list.filter((c) => !httpsRequired || c.protocol === 'https').sort((a, b) => rank(a) - rank(b));
}


export interface PlexAccountClient {
  readonly baseUrl: string;
  /** POST /api/v2/pins (strong: a 25-character code for a link; otherwise 4 characters for plex.tv/link). */
  createPin(opts?: { strong?: boolean; signal?: AbortSignal }): Promise<PlexPin>;
  /** GET /api/v2/pins/:id; an unknown or expired PIN is `not_found`. */
  checkPin(id: number, opts?: { signal?: AbortSignal }): Promise<PlexPin>;
  /** The page where the person signs in and approves the PIN (app.plex.tv; parameters in the fragment). */
  linkUrl(code: string, opts?: { forwardUrl?: string }): string;
  /** The short page where the 4-character code is typed by hand on another device (plex.tv/link). */
  readonly codePageUrl: string;
  /** GET /api/v2/user with the token. */
  account(token: string, opts?: { signal?: AbortSignal }): Promise<PlexAccount>;
  /** Whether plex.tv still takes a token: valid (200), invalid (401), unknown (anything else, §3). */
  tokenStatus(token: string, opts?: { signal?: AbortSignal }): Promise<'valid' | 'invalid' | 'unknown'>;
  /** The servers an account reaches, with their connections best first. */
  servers(token: string, opts?: { signal?: AbortSignal }): Promise<PlexServerResource[]>;
}

export interface PlexAccountClientOptions extends CommonOptions {
  /** Where people approve a PIN (default https://app.plex.tv/auth). */
  linkPageUrl?: string;
  /** Where people type a short code by hand (default https://plex.tv/link). */
  codePageUrl?: string;
}

export function createPlexAccountClient(o: PlexAccountClientOptions): PlexAccountClient {
  const call = <T>(path: string, schema: z.ZodType<T>, c?: CallOptions) => callJson('account', o, `/api/v2${path}`, schema, c);
  const toPin = (p: z.infer<typeof PinSchema>): PlexPin => ({ id: p.id, code: p.code, expiresAt: p.expiresAt, authToken: p.authToken || null });
  return {
    baseUrl: trimBase(o.baseUrl),
    codePageUrl: o.codePageUrl ?? 'https://plex.tv/link',
    async createPin(opts = {}) {
      return toPin(await call('/pins', PinSchema, { method: 'POST', query: opts.strong === false ? {} : { strong: 'true' }, signal: opts.signal }));
    },
    async checkPin(id, opts = {}) {
      return toPin(await call(`/pins/${encodeURIComponent(String(id))}`, PinSchema, { signal: opts.signal }));
    },
    linkUrl(code, opts = {}) {
      const params = new URLSearchParams({ clientID: o.client.clientIdentifier, code, 'context[device][product]': o.client.product });
      if (opts.forwardUrl) params.set('forwardUrl', opts.forwardUrl);
      return `${o.linkPageUrl ?? 'https://app.plex.tv/auth'}#?${params.toString()}`;
    },
    async account(token, opts = {}) {
      const u = await call('/user', UserSchema, { token, signal: opts.signal });
      return { id: u.id, uuid: u.uuid, username: u.username ?? u.title ?? '', title: u.friendlyName || u.title || u.username || '', email: u.email, thumb: u.thumb, home: u.home === true, restricted: u.restricted === true };
    },
    async tokenStatus(token, opts = {}) {
      try {
        await call('/user', UserSchema, { token, signal: opts.signal });
        return 'valid';
      } catch (err) {
        if (err instanceof MediaServerError && err.failure === 'unauthorized') return 'invalid';
        if (err instanceof MediaServerError) return 'unknown';
        throw err;
      }
    },
    async servers(token, opts = {}) {
      const list = await call('/resources', z.array(z.unknown()), { token, query: { includeHttps: 1, includeRelay: 1 }, signal: opts.signal });
      const out: PlexServerResource[] = [];
      for (const raw of list) {
        const r = ResourceSchema.safeParse(raw);
        if (!r.success || !r.data.provides.split(',').includes('server')) continue;
        const d = r.data;
        out.push({
          name: d.name,
          machineIdentifier: d.clientIdentifier,
          owned: d.owned,
          accessToken: d.accessToken,
          sourceTitle: d.sourceTitle,
          version: d.productVersion,
          httpsRequired: d.httpsRequired,
          online: d.presence,
          connections: preferredConnections(
            d.connections.map((c) => ({ uri: c.uri, protocol: c.protocol, address: c.address, port: c.port, local: c.local, relay: c.relay })),
            d.httpsRequired,
          ),
        });
      }
      return out;
    },
  };
}
