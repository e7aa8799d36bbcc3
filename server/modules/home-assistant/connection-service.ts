// The household's one Home Assistant connection: an admin sets it (checked before it is saved: REST
// answers and the WebSocket says auth_ok), reads it (never the token) or removes it; at start the
// saved one is opened and kept open (adapters/smart-home: reconnect with backoff, auth_failed waits
// for the admin). Other parts listen to its changes through onChange/onStatus, which survive a new
// connection replacing the old.
import { checkHomeAssistant, createSmartHomeGuard, HomeAssistantConnection, type HaChange, type HaStatus } from '../../adapters/smart-home/home-assistant.js';
import { homeAssistantCheckAppError, homeAssistantStatusSentence } from '../../adapter-errors/smart-home.js';
import { assertAdmin, type Actor } from '../../actor.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { SsrfGuard } from '../../platform/ssrf.js';
import type { ConnectionResponse, ConnectionStatus, PutConnectionBody } from './schema.js';
import type { HomeAssistantStore } from './store.js';

interface Live {
  url: string;
  conn: HomeAssistantConnection;
  guard: SsrfGuard;
}

export interface ConnectionDeps {
  store: HomeAssistantStore;
  clock: Clock;
  logger: Logger;
  base: Pick<SsrfGuard, 'allowOrigins' | 'offline' | 'offlineSource'>;
  /** Per call and handshake (default 10 s). */
  timeoutMs?: number;
  backoffMs?: { base: number; max: number };
  /** How often the kept-open socket is pinged (default 30 s). */
  pingMs?: number;
}

export class ConnectionService {
  private live: Live | null = null;
  private readonly changeListeners = new Set<(c: HaChange) => void>();
  private readonly statusListeners = new Set<(s: ConnectionStatus) => void>();

  constructor(private readonly deps: ConnectionDeps) {}

  /** Opens the saved connection, if any (module start). */
  async start(): Promise<void> {
    const row = await this.deps.store.connection();
    if (row) this.open(row.url, row.token);
  }

  private open(url: string, token: string): HomeAssistantConnection {
    const guard = createSmartHomeGuard(url, this.deps.base);
    const conn = new HomeAssistantConnection({ baseUrl: url, token, guard, timeoutMs: this.deps.timeoutMs, backoffMs: this.deps.backoffMs, pingMs: this.deps.pingMs, logger: this.deps.logger });
    conn.onChange((c) => {
      for (const fn of this.changeListeners) fn(c);
    });
    conn.onStatus((s) => {
      for (const fn of this.statusListeners) fn(s);
    });
    this.live = { url, conn, guard };
    conn.start();
    return conn;
  }

  private async shut(): Promise<void> {
    const live = this.live;
    this.live = null;
    if (!live) return;
    await live.conn.close();
    await live.guard.close();
    for (const fn of this.statusListeners) fn('not_set');
  }

  /** The kept connection, or null when none is set. */
  connection(): HomeAssistantConnection | null {
    return this.live?.conn ?? null;
  }

  status(): ConnectionStatus {
    return this.live ? this.live.conn.status : 'not_set';
  }

  onChange(fn: (c: HaChange) => void): () => void {
    this.changeListeners.add(fn);
    return () => this.changeListeners.delete(fn);
  }

  onStatus(fn: (s: ConnectionStatus) => void): () => void {
    this.statusListeners.add(fn);
    return () => this.statusListeners.delete(fn);
  }

  private view(): ConnectionResponse {
    const live = this.live;
    if (!live) return { url: null, tokenSet: false, connected: false, status: 'not_set', version: null, entityCount: 0, error: null };
    const status: HaStatus = live.conn.status;
    return {
      url: live.url,
      tokenSet: true,
      connected: status === 'connected',
      status,
      version: live.conn.version,
      entityCount: live.conn.states.size,
      error: homeAssistantStatusSentence(status),
    };
  }

  get(actor: Actor): ConnectionResponse {
    assertAdmin(actor);
    return this.view();
  }

  /** Checks the address and token, saves them, and opens the kept connection (waiting for its first state, up to the time budget). */
  async put(actor: Actor, body: PutConnectionBody): Promise<ConnectionResponse> {
    assertAdmin(actor);
    const url = new URL(body.url).origin;
    const guard = createSmartHomeGuard(url, this.deps.base);
    let version: string;
    try {
      ({ version } = await checkHomeAssistant({ baseUrl: url, token: body.token, guard, timeoutMs: this.deps.timeoutMs }));
    } catch (err) {
      throw homeAssistantCheckAppError(err);
    } finally {
      await guard.close();
    }
    await this.deps.store.saveConnection({ url, token: body.token, version }, actor.kind === 'user' ? actor.id : null, this.deps.clock.now().toISOString());
    this.deps.logger.info({ version }, 'home assistant connection set');
    await this.shut();
    const conn = this.open(url, body.token);
    await new Promise<void>((resolve) => {
      const off = conn.onStatus(() => {
        off();
        clearTimeout(timer);
        resolve();
      });
      const timer = setTimeout(() => {
        off();
        resolve();
      }, this.deps.timeoutMs ?? 10_000);
      timer.unref();
    });
    return this.view();
  }

  async remove(actor: Actor): Promise<ConnectionResponse> {
    assertAdmin(actor);
    await this.deps.store.deleteConnection();
    await this.shut();
    this.deps.logger.info('home assistant connection removed');
    return this.view();
  }

  async close(): Promise<void> {
    await this.shut();
    this.changeListeners.clear();
    this.statusListeners.clear();
  }
}
