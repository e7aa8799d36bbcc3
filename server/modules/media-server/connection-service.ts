// Over 400 lines on purpose (issue 30): one class owns the one connection's state (the health look
// in flight, the server's allowMediaDeletion, each member's link) and its three flows share their
// private steps: the admin's discovery reads the caller's PIN (ownPin, pinState) and calls plex.tv
// through the same accountCall as the member's link. Split, those private steps would become a
// public surface between files. What is not that state is elsewhere: the store
// (connection-store.ts), the answers to Plex failures (adapter-errors/media-server.ts).
// The media server's connection (issue 19): the household's one shared Plex server an admin sets
// (typed in, or picked from the servers a PIN-linked account reaches), each member's own linked
// plex.tv account, and the PIN flows that get there. It implements MediaConnection (parts.ts): every
// other part of the module asks it for the shared server or a member's token and reports a 401
// back, so the pages can say "an admin must reconnect" or offer "link again".
//
// Tokens: read from and written to the store only; handed to the adapter's clients (which put them
// in the X-Plex-Token header); never in an answer, an error or a log line. Every failure the
// adapter reports becomes its answer in adapter-errors/media-server.ts (an address being set up:
// mediaServerCheckAppError).
import { randomUUID } from 'node:crypto';
import type { PlexClientInfo, PlexServerResource } from '../../adapters/media-server/plex.js';
import { mediaServerAppError, mediaServerCheckAppError, mediaServerFailure } from '../../adapter-errors/media-server.js';
import { assertAdmin, isAdmin, isOwner, type UserActor } from '../../actor.js';
import type { AppSettingsStore } from '../../db/kv.js';
import { ConflictError, NotFoundError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { MediaConnectionStore } from './connection-store.js';
import { imgUrl } from './items.js';
import type { ConnectionRow, LinkRow, MediaClients, MediaConnection, PinRow, SharedServer } from './parts.js';
import type { ConfigBody, ConfigView, DiscoveredServer, DiscoverResponse, MediaStatus, MeView, PinView, ServerHealth } from './schema.js';

/** The app setting holding this install's X-Plex-Client-Identifier (made once). */
export const CLIENT_ID_SETTING = 'media.clientIdentifier';
/** How long a health look at the shared server, or a member's token check, serves (default). */
export const MEDIA_HEALTH_TTL_MS = 60_000;
/** How long one connection candidate may take to answer /identity during discovery (default). */
export const MEDIA_PROBE_MS = 3_000;

export interface MediaConnectionDeps {
  store: MediaConnectionStore;
  clients: MediaClients;
  settings: AppSettingsStore;
  /** The clients' identity object: its clientIdentifier is filled in from app settings here. */
  clientInfo: PlexClientInfo;
  clock: Clock;
  logger: Logger;
  healthTtlMs?: number;
  probeMs?: number;
}

/** An address as a person types it: https://plex.tv/link/ → plex.tv/link (http:// stays, so it is not taken for https). */
export function typedAddress(url: string): string {
  return url.replace(/^https:\/\//i, '').replace(/\/+$/, '').replace(/^www\./i, '');
}

const SENTENCES = {
  notConfigured: 'The household’s media server is not connected yet.',
  serverUnauthorized: 'The household’s media server no longer accepts Hearth’s sign-in. An admin needs to connect it again.',
  serverUnreachable: 'The household’s media server is not answering right now. It may be switched off or restarting.',
  pinNotFound: 'That sign-in code was not found. Start again to get a new one.',
  pinWaiting: 'That code has not been approved yet. Sign in on the Plex page first, then try again.',
  pinExpired: 'That code has expired. Start again to get a new one.',
} as const;

export class MediaConnectionService implements MediaConnection {
  private clientId: Promise<string> | null = null;
  /** What the last look at the shared server learned that has no column (informative only). */
  private allowMediaDeletion: boolean | null = null;
  private healthCheck: Promise<void> | null = null;

  constructor(private readonly d: MediaConnectionDeps) {}

  // ---- the install's client identifier ----------------------------------------------------------

  /** Loads (or makes, once per install) the client identifier Plex knows Hearth by. */
  ready(): Promise<string> {
    this.clientId ??= (async () => {
      let id = await this.d.settings.get<string>(CLIENT_ID_SETTING);
      if (typeof id !== 'string' || id.length < 8) {
        id = `hearth-${randomUUID()}`;
        await this.d.settings.set(CLIENT_ID_SETTING, id);
      }
      this.d.clientInfo.clientIdentifier = id;
      return id;
    })().catch((err: unknown) => {
      this.clientId = null;
      throw err;
    });
    return this.clientId;
  }

  private nowIso(): string {
    return this.d.clock.now().toISOString();
  }

  private stale(checkedAt: string | null): boolean {
    if (!checkedAt) return true;
    return this.d.clock.now().getTime() - Date.parse(checkedAt) >= (this.d.healthTtlMs ?? MEDIA_HEALTH_TTL_MS);
  }

  // ---- MediaConnection (for the other parts) ----------------------------------------------------

  async shared(): Promise<SharedServer | null> {
    await this.ready();
    const c = await this.d.store.connection();
    if (!c) return null;
    return { client: this.d.clients.server(c.serverUrl), token: c.serverToken, machineIdentifier: c.machineIdentifier, name: c.serverName };
  }

  async memberToken(userId: string): Promise<string | null> {
    await this.ready();
    const link = await this.d.store.link(userId);
    return link && link.tokenState === 'valid' ? link.token : null;
  }

  async memberServerToken(userId: string): Promise<string | null> {
    await this.ready();
    const link = await this.d.store.link(userId);
    if (!link || link.tokenState !== 'valid') return null;
    const access = link.serverAccess ?? (await this.checkAccess(link));
    return access ? link.token : null;
  }

  async reportMemberUnauthorized(userId: string): Promise<void> {
    await this.d.store.updateLink(userId, { tokenState: 'revoked', checkedAt: this.nowIso() });
    this.d.logger.info({ userId }, 'A member’s media-server link was refused; marked for linking again');
  }

  async reportShared(health: ServerHealth): Promise<void> {
    const c = await this.d.store.connection();
    if (!c) return;
    if (c.health !== health) this.d.logger.info({ health }, 'Media server health changed');
    await this.d.store.setHealth(health, this.nowIso());
  }

  // ---- status -----------------------------------------------------------------------------------

  async status(actor: UserActor): Promise<MediaStatus> {
    await this.ready();
    let conn = await this.d.store.connection();
    if (conn && this.stale(conn.checkedAt)) {
      await this.refreshHealth();
      conn = await this.d.store.connection();
    }
    let link = await this.d.store.link(actor.id);
    if (link && link.tokenState === 'valid' && this.stale(link.checkedAt)) link = await this.recheckLink(link);
    if (link && link.tokenState === 'valid' && conn && link.serverAccess === null) {
      await this.checkAccess(link);
      link = await this.d.store.link(actor.id);
    }
    const linked = link !== null && link.tokenState === 'valid';
    const linkRevoked = link !== null && link.tokenState === 'revoked';
    const access: MediaStatus['access'] = !linked || !conn || link!.serverAccess === null ? 'unknown' : link!.serverAccess ? 'yes' : 'no';
    return {
      configured: conn !== null,
      reachable: conn !== null && conn.health === 'ok',
      serverProblem: !conn || conn.health === 'ok' ? null : conn.health === 'unauthorized' ? SENTENCES.serverUnauthorized : SENTENCES.serverUnreachable,
      serverName: conn?.serverName ?? null,
      linked,
      linkRevoked,
      access,
      notes: this.notes(actor, conn, link, access),
      isAdmin: isAdmin(actor),
    };
  }

  private notes(actor: UserActor, conn: ConnectionRow | null, link: LinkRow | null, access: MediaStatus['access']): string[] {
    const out: string[] = [];
    if (!conn) {
      out.push(isAdmin(actor) ? 'Connect the household’s media server in the admin settings to see films and shows here.' : 'An admin has not connected the household’s media server yet.');
      return out;
    }
    if (link?.tokenState === 'revoked') {
      out.push('Plex signed Hearth out of your account (a changed password or “sign out everywhere” does this). Link it again to keep your watchlist and watched marks.');
    } else if (!link) {
      out.push('Media shows the household’s films and shows once you link your own Plex account: until then it stays empty for you.');
      out.push('Your Plex account also keeps your watchlist and has what you watch marked as watched.');
      out.push('Members of a Plex Home without their own Plex sign-in (managed users) cannot link, so Media stays empty for them. The Plex apps still work for them.');
    } else if (access === 'no') {
      out.push(`Your Plex account (${link.username}) does not have access to the household’s media server. Ask whoever runs it to share it with you. Browsing and playing through Hearth still work, and so does your watchlist.`);
    }
    return out;
  }

  /** One look at the shared server (identity, then the token on its sections), shared by callers at once. */
  private refreshHealth(): Promise<void> {
    this.healthCheck ??= (async () => {
      const c = await this.d.store.connection();
      if (!c) return;
      const client = this.d.clients.server(c.serverUrl);
      let health: ServerHealth = 'ok';
      let fields: { serverName?: string; serverVersion?: string | null } = {};
      try {
        const info = await client.info(c.serverToken);
        await client.sections(c.serverToken);
        this.allowMediaDeletion = info.allowMediaDeletion;
        fields = { serverName: info.friendlyName || c.serverName, serverVersion: info.version };
      } catch (err) {
        const failure = mediaServerFailure(err);
        if (!failure) throw err;
        health = failure === 'unauthorized' || failure === 'forbidden' ? 'unauthorized' : 'unreachable';
      }
      if (health !== c.health) this.d.logger.info({ health }, 'Media server health changed');
      await this.d.store.setHealth(health, this.nowIso(), fields);
    })().finally(() => {
      this.healthCheck = null;
    });
    return this.healthCheck;
  }

  /** Asks plex.tv whether a member's token still works; a 401 marks the link revoked. */
  private async recheckLink(link: LinkRow): Promise<LinkRow> {
    const state = await this.d.clients.account.tokenStatus(link.token);
    if (state === 'unknown') return link;
    await this.d.store.updateLink(link.userId, { tokenState: state === 'valid' ? 'valid' : 'revoked', checkedAt: this.nowIso() });
    return { ...link, tokenState: state === 'valid' ? 'valid' : 'revoked', checkedAt: this.nowIso() };
  }

  /** Whether the member's account reaches the shared server (plex.tv's list of their servers); null when unknown. */
  private async checkAccess(link: LinkRow): Promise<boolean | null> {
    const conn = await this.d.store.connection();
    if (!conn) return null;
    try {
      const servers = await this.d.clients.account.servers(link.token);
      const access = servers.some((s) => s.machineIdentifier === conn.machineIdentifier);
      await this.d.store.updateLink(link.userId, { serverAccess: access });
      return access;
    } catch (err) {
      const failure = mediaServerFailure(err);
      if (!failure) throw err;
      if (failure === 'unauthorized') await this.reportMemberUnauthorized(link.userId);
      return null;
    }
  }

  // ---- the shared connection (admin) ------------------------------------------------------------

  async config(actor: UserActor): Promise<ConfigView> {
    assertAdmin(actor);
    await this.ready();
    let c = await this.d.store.connection();
    if (c && (this.stale(c.checkedAt) || this.allowMediaDeletion === null)) {
      await this.refreshHealth();
      c = await this.d.store.connection();
    }
    return this.configView(c);
  }

  private configView(c: ConnectionRow | null): ConfigView {
    if (!c) return { configured: false, serverUrl: null, serverName: null, machineIdentifier: null, version: null, source: null, accountName: null, tokenSet: false, health: null, checkedAt: null, allowMediaDeletion: null };
    return {
      configured: true,
      serverUrl: c.serverUrl,
      serverName: c.serverName,
      machineIdentifier: c.machineIdentifier,
      version: c.serverVersion,
      source: c.source,
      accountName: c.accountName,
      tokenSet: c.serverToken.length > 0,
      health: c.health,
      checkedAt: c.checkedAt,
      allowMediaDeletion: this.allowMediaDeletion,
    };
  }

  async setConfig(actor: UserActor, body: ConfigBody): Promise<ConfigView> {
    assertAdmin(actor);
    await this.ready();
    if (body.mode === 'disconnect') {
      await this.d.store.deleteConnection();
      await this.d.store.forgetServerAccess();
      this.allowMediaDeletion = null;
      this.d.logger.info({ by: actor.id }, 'Media server disconnected');
      return this.configView(null);
    }
    if (body.mode === 'manual') {
      const url = normalizeServerUrl(body.serverUrl);
      const checked = await this.checkServer(url, body.token);
      return this.save(actor, { ...checked, serverUrl: url, serverToken: body.token, source: 'manual', accountName: null });
    }
    // discover: the token comes from the account's own list of servers, never from the browser
    const { token, account } = await this.accountToken(actor, body.pinId);
    const servers = await this.accountCall(() => this.d.clients.account.servers(token), actor, body.pinId);
    const server = servers.find((s) => s.machineIdentifier === body.machineIdentifier);
    if (!server) throw new UnprocessableError('media_server_not_found', 'That server is not among the servers this Plex account reaches. Look for servers again.');
    const connection = server.connections.find((c) => c.uri === body.uri);
    if (!connection) throw new UnprocessableError('media_connection_unknown', 'That address is not one of this server’s connections. Look for servers again.');
    const serverToken = server.accessToken ?? token;
    const url = normalizeServerUrl(connection.uri);
    const checked = await this.checkServer(url, serverToken);
    if (checked.machineIdentifier !== server.machineIdentifier) throw new UnprocessableError('media_server_mismatch', 'A different media server answered at that address. Pick another of its connections.');
    const accountName = account ?? (await this.accountCall(() => this.d.clients.account.account(token), actor, body.pinId)).username;
    const view = await this.save(actor, { ...checked, serverUrl: url, serverToken, source: 'discover', accountName });
    if (body.pinId !== undefined) await this.d.store.deletePin(body.pinId);
    return view;
  }

  private async save(actor: UserActor, c: { serverUrl: string; serverToken: string; machineIdentifier: string; serverName: string; serverVersion: string | null; source: 'manual' | 'discover'; accountName: string | null }): Promise<ConfigView> {
    const now = this.nowIso();
    const before = await this.d.store.connection();
    await this.d.store.saveConnection({ ...c, health: 'ok', checkedAt: now, updatedAt: now, updatedBy: actor.id });
    if (!before || before.machineIdentifier !== c.machineIdentifier) await this.d.store.forgetServerAccess();
    this.d.logger.info({ by: actor.id, source: c.source, server: c.serverName }, 'Media server connected');
    return this.configView(await this.d.store.connection());
  }

  /** The server at `url` answers /identity and takes the token on / and /library/sections. */
  private async checkServer(url: string, token: string): Promise<{ machineIdentifier: string; serverName: string; serverVersion: string | null }> {
    const client = this.d.clients.server(url);
    try {
      const identity = await client.identity();
      const info = await client.info(token);
      await client.sections(token);
      this.allowMediaDeletion = info.allowMediaDeletion;
      return { machineIdentifier: identity.machineIdentifier, serverName: info.friendlyName || 'Media server', serverVersion: identity.version ?? info.version };
    } catch (err) {
      throw mediaServerCheckAppError(err);
    }
  }

  // ---- PINs and links (every member, an admin too) ---------------------------------------------

  async createPin(actor: UserActor): Promise<PinView> {
    await this.ready();
    // the short code (typed at the link page, or carried in its address) lives about 15 minutes
    const pin = await this.accountCall(() => this.d.clients.account.createPin({ strong: false }));
    const now = this.d.clock.now();
    const expiresAt = pin.expiresAt ?? new Date(now.getTime() + 15 * 60_000).toISOString();
    const row: PinRow = { pinId: pin.id, userId: actor.id, code: pin.code, authToken: null, expiresAt, createdAt: now.toISOString() };
    await this.d.store.prunePins(now.toISOString());
    await this.d.store.savePin(row);
    return this.pinView(row, 'waiting');
  }

  private pinView(row: PinRow, status: PinView['status']): PinView {
    const codePageUrl = this.d.clients.account.codePageUrl;
    return { id: row.pinId, code: row.code, linkUrl: this.d.clients.account.linkUrl(row.code), codePageUrl, codePage: typedAddress(codePageUrl), status, expiresAt: row.expiresAt };
  }

  /** The caller's own PIN, asked of plex.tv while it waits; another member's is a 404. */
  async pin(actor: UserActor, pinId: number): Promise<PinView> {
    await this.ready();
    const row = await this.ownPin(actor, pinId);
    return this.pinView(row, await this.pinState(row));
  }

  private async ownPin(actor: UserActor, pinId: number): Promise<PinRow> {
    const row = await this.d.store.pin(pinId);
    if (!row || !isOwner(actor, row.userId)) throw new NotFoundError(SENTENCES.pinNotFound, 'pin_not_found');
    return row;
  }

  private async pinState(row: PinRow): Promise<PinView['status']> {
    if (row.authToken) return 'approved';
    if (Date.parse(row.expiresAt) <= this.d.clock.now().getTime()) return 'expired';
    try {
      const pin = await this.d.clients.account.checkPin(row.pinId);
      if (!pin.authToken) return 'waiting';
      await this.d.store.setPinToken(row.pinId, pin.authToken);
      row.authToken = pin.authToken;
      return 'approved';
    } catch (err) {
      if (mediaServerFailure(err) === 'not_found') return 'expired';
      throw mediaServerAppError(err);
    }
  }

  /** Stores the caller's own account token from their approved PIN. */
  async link(actor: UserActor, pinId: number): Promise<MeView> {
    await this.ready();
    const row = await this.ownPin(actor, pinId);
    const state = await this.pinState(row);
    if (state === 'waiting') throw new ConflictError('pin_waiting', SENTENCES.pinWaiting);
    if (state === 'expired') {
      await this.d.store.deletePin(pinId);
      throw new ConflictError('pin_expired', SENTENCES.pinExpired);
    }
    const token = row.authToken!;
    let account;
    try {
      account = await this.d.clients.account.account(token);
    } catch (err) {
      if (mediaServerFailure(err) === 'unauthorized') await this.d.store.deletePin(pinId);
      throw mediaServerAppError(err, { token: 'pin' });
    }
    const now = this.nowIso();
    const link: LinkRow = {
      userId: actor.id,
      token,
      accountId: account.id,
      username: account.username || account.title,
      displayName: account.title || null,
      thumbUrl: account.thumb,
      tokenState: 'valid',
      serverAccess: null,
      linkedAt: now,
      checkedAt: now,
    };
    await this.d.store.saveLink(link);
    await this.d.store.deletePin(pinId);
    await this.checkAccess(link);
    this.d.logger.info({ userId: actor.id }, 'A member linked their Plex account');
    return this.me(actor);
  }

  async me(actor: UserActor): Promise<MeView> {
    let link = await this.d.store.link(actor.id);
    if (link && link.tokenState === 'valid' && this.stale(link.checkedAt)) link = await this.recheckLink(link);
    if (!link) return { linked: false, username: null, displayName: null, thumbUrl: null, tokenState: null, serverAccess: null, linkedAt: null };
    return {
      linked: link.tokenState === 'valid',
      username: link.username,
      displayName: link.displayName,
      // plex.tv avatars are not server paths: the proxy does not serve them, so none is sent
      thumbUrl: imgUrl(link.thumbUrl),
      tokenState: link.tokenState,
      serverAccess: link.serverAccess,
      linkedAt: link.linkedAt,
    };
  }

  async unlink(actor: UserActor): Promise<MeView> {
    await this.d.store.deleteLink(actor.id);
    await this.d.store.deletePinsOf(actor.id);
    this.d.logger.info({ userId: actor.id }, 'A member unlinked their Plex account');
    return this.me(actor);
  }

  // ---- discovery (admin) ------------------------------------------------------------------------

  /** The account token discovery uses: the admin's approved PIN, or their own valid link. */
  private async accountToken(actor: UserActor, pinId: number | undefined): Promise<{ token: string; account: string | null }> {
    if (pinId !== undefined) {
      const row = await this.ownPin(actor, pinId);
      const state = await this.pinState(row);
      if (state === 'waiting') throw new ConflictError('pin_waiting', SENTENCES.pinWaiting);
      if (state === 'expired') throw new ConflictError('pin_expired', SENTENCES.pinExpired);
      return { token: row.authToken!, account: null };
    }
    const link = await this.d.store.link(actor.id);
    if (!link || link.tokenState !== 'valid') throw new ConflictError('media_not_signed_in', 'Sign in with Plex first: Hearth uses that account to find its servers.');
    return { token: link.token, account: link.username };
  }

  async discover(actor: UserActor, pinId: number | undefined): Promise<DiscoverResponse> {
    assertAdmin(actor);
    await this.ready();
    const { token, account } = await this.accountToken(actor, pinId);
    const name = account ?? (await this.accountCall(() => this.d.clients.account.account(token), actor, pinId)).username;
    const servers = await this.accountCall(() => this.d.clients.account.servers(token), actor, pinId);
    return { account: name, servers: await Promise.all(servers.map((s) => this.probeServer(s))) };
  }

  private async probeServer(s: PlexServerResource): Promise<DiscoveredServer> {
    const probe = async (uri: string) => {
      try {
        const identity = await this.d.clients.server(uri).identity({ signal: AbortSignal.timeout(this.d.probeMs ?? MEDIA_PROBE_MS) });
        return identity.machineIdentifier === s.machineIdentifier;
      } catch {
        return false;
      }
    };
    const connections = await Promise.all(
      s.connections.map(async (c) => ({ uri: c.uri, local: c.local, relay: c.relay, secure: c.protocol === 'https', reachable: await probe(c.uri) })),
    );
    return { name: s.name, machineIdentifier: s.machineIdentifier, owned: s.owned, httpsRequired: s.httpsRequired, connections };
  }

  /** A plex.tv call, its failures in this module's sentences; a refused token of a PIN or link is said so. */
  private async accountCall<T>(call: () => Promise<T>, actor?: UserActor, pinId?: number): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (mediaServerFailure(err) === 'unauthorized' && actor) {
        if (pinId === undefined) await this.reportMemberUnauthorized(actor.id);
        else await this.d.store.deletePin(pinId);
      }
      throw mediaServerAppError(err);
    }
  }
}

/** A typed-in server address: http(s), no user name or password, no path beyond what it names; a bare host gets :32400. */
export function normalizeServerUrl(raw: string): string {
  let text = raw.trim();
  const hadScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  if (!hadScheme) text = `http://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UnprocessableError('media_address_invalid', 'That is not a web address. Type it like http://192.168.1.20:32400.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnprocessableError('media_address_invalid', 'The media server’s address starts with http:// or https://.');
  if (url.username || url.password) throw new UnprocessableError('media_address_invalid', 'Leave the user name and password out of the address; the token signs Hearth in.');
  if (url.search || url.hash) throw new UnprocessableError('media_address_invalid', 'The media server’s address has no ? or # part.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // the cloud metadata and link-local addresses are never a media server (and a classic SSRF target)
  if (/^(169\.254\.|0\.)/.test(host) || /^fe80:/i.test(host) || host === '::' || host === '0.0.0.0') throw new UnprocessableError('media_address_refused', 'Hearth cannot use that address. Use the media server’s own address, such as http://192.168.1.20:32400.');
  if (!hadScheme && !url.port && url.protocol === 'http:') url.port = '32400';
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
