// Camera events from Frigate (issue 37): an admin sets the recorder (checked before it is saved; the
// password never answered) and the members told of events; new events (a person, a car, an animal
// at a camera) are polled from its API, or read from its MQTT broker when one is given, kept, and
// sent as notifications with Hearth's own snapshot address. Snapshots and clips (streamed, the
// player's Range passed on) are proxied: no camera address or credential reaches a browser. Only admins and the members told see the events.
import type { MqttClient } from 'mqtt';
import { createFrigateClient, frigateEventFromMqtt, type FrigateClient, type FrigateClip, type FrigateEvent } from '../../adapters/smart-home/frigate.js';
import { createSmartHomeGuard } from '../../adapters/smart-home/home-assistant.js';
import { brokerOrigin, connectGuardedMqtt } from '../../adapters/smart-home/mqtt.js';
import { frigateAppError, frigateCheckAppError, frigateFailureKind } from '../../adapter-errors/smart-home.js';
import { assertAdmin, isAdmin, type Actor, type UserActor } from '../../actor.js';
import { AppError, BadRequestError, NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { SsrfGuard } from '../../platform/ssrf.js';
import type { CameraStore, CameraEventRow, FrigateRow } from './camera-store.js';
import type { HomeAssistantPorts } from './ports.js';
import { CAMERA_LABELS, type CameraEvent, type CameraEventsResponse, type FrigateResponse, type PutFrigateBody } from './schema.js';

export interface CameraDeps {
  store: CameraStore;
  clock: Clock;
  logger: Logger;
  base: Pick<SsrfGuard, 'allowOrigins' | 'offline' | 'offlineSource'>;
  users: HomeAssistantPorts['users'];
  notifications: HomeAssistantPorts['notifications'];
  timeoutMs?: number;
}

const labelWords = (label: string) => (label === 'person' ? 'Someone' : label === 'car' ? 'A car' : `An animal (${label})`);
const cameraWords = (camera: string) => camera.replace(/_/g, ' ');

export class CameraService {
  private client: { url: string; api: FrigateClient; guard: SsrfGuard } | null = null;
  private mqtt: MqttClient | null = null;
  private mqttGuard: SsrfGuard | null = null;

  constructor(private readonly deps: CameraDeps) {}

  private view(row: FrigateRow | null): FrigateResponse {
    if (!row) return { configured: false, url: null, user: null, passwordSet: false, mqttUrl: null, notify: [], version: null };
    return { configured: true, url: row.url, user: row.user, passwordSet: row.password !== null, mqttUrl: row.mqttUrl, notify: row.notify, version: row.version };
  }

  private apiFor(row: FrigateRow): FrigateClient {
    if (this.client?.url === `${row.url}|${row.user ?? ''}`) return this.client.api;
    void this.client?.guard.close();
    const guard = createSmartHomeGuard(row.url, this.deps.base);
    const api = createFrigateClient({ baseUrl: row.url, user: row.user, password: row.password, guard, timeoutMs: this.deps.timeoutMs });
    this.client = { url: `${row.url}|${row.user ?? ''}`, api, guard };
    return api;
  }

  async start(): Promise<void> {
    const row = await this.deps.store.connection();
    if (row?.mqttUrl) await this.listen(row);
  }

  async get(actor: Actor): Promise<FrigateResponse> {
    assertAdmin(actor);
    return this.view(await this.deps.store.connection());
  }

  async put(actor: Actor, body: PutFrigateBody): Promise<FrigateResponse> {
    assertAdmin(actor);
    for (const id of body.notify) if (!(await this.deps.users.getUser(id))) throw new NotFoundError('One of the members to tell is not in the household (they may have been removed).');
    const url = new URL(body.url).origin;
    const { user, password } = await this.signIn(body);
    const guard = createSmartHomeGuard(url, this.deps.base);
    let version: string;
    try {
      version = await createFrigateClient({ baseUrl: url, user, password, guard, timeoutMs: this.deps.timeoutMs }).version();
    } catch (err) {
      throw frigateCheckAppError(err);
    } finally {
      await guard.close();
    }
    const row: FrigateRow = { url, user, password, mqttUrl: body.mqttUrl ?? null, notify: [...new Set(body.notify)], version };
    await this.deps.store.save(row, this.deps.clock.now().toISOString());
    this.client = null;
    await this.stopListening();
    if (row.mqttUrl) await this.listen(row);
    this.deps.logger.info({ version, mqtt: row.mqttUrl !== null }, 'camera recorder set');
    return this.view(row);
  }

  /**
   * The sign-in a save uses: no user name, none; a password typed, that one; left out or empty, the
   * saved one for the same user name (the admin form never shows it, so saving again keeps it);
   * null clears it. A user name without any password is a 400 sentence.
   */
  private async signIn(body: PutFrigateBody): Promise<{ user: string | null; password: string | null }> {
    const user = body.user?.trim() || null;
    if (!user) return { user: null, password: null };
    const stored = await this.deps.store.connection();
    const password = body.password === null ? null : body.password ? body.password : stored?.user === user ? stored.password : null;
    if (!password) throw new BadRequestError('Give the password that goes with the user name.', [{ path: ['password'], message: 'Give the password that goes with the user name.' }]);
    return { user, password };
  }

  async remove(actor: Actor): Promise<FrigateResponse> {
    assertAdmin(actor);
    await this.deps.store.remove();
    await this.deps.store.clearEvents();
    await this.stopListening();
    await this.client?.guard.close();
    this.client = null;
    return this.view(null);
  }

  /** Keeps an event not seen before and tells the members chosen; true when it was new. */
  private async ingest(e: FrigateEvent, row: FrigateRow): Promise<boolean> {
    if (!CAMERA_LABELS.includes(e.label)) return false;
    const fresh = await this.deps.store.addEvent(e, this.deps.clock.now().toISOString());
    if (!fresh) return false;
    const title = `${labelWords(e.label)} at ${cameraWords(e.camera)}`;
    for (const userId of row.notify) {
      await this.deps.notifications.notify({
        userId,
        type: 'system',
        payload: { title, body: `Seen by the ${cameraWords(e.camera)} camera.`, link: '/smart-home', linkLabel: 'See camera events', eventId: e.id, snapshotUrl: e.hasSnapshot ? snapshotUrl(e.id) : null },
      });
    }
    return true;
  }

  /** Asks the recorder for events since the newest one kept (the scheduler's task); how many were new. */
  async poll(): Promise<number> {
    const row = await this.deps.store.connection();
    if (!row || row.mqttUrl) return 0;
    const after = await this.deps.store.latestStart();
    let events: FrigateEvent[];
    try {
      events = await this.apiFor(row).events(after === 0 ? this.deps.clock.now().getTime() / 1000 - 3600 : after);
    } catch (err) {
      this.deps.logger.warn({ failure: frigateFailureKind(err) ?? 'unknown' }, 'camera recorder poll failed');
      return 0;
    }
    let added = 0;
    for (const e of events) if (await this.ingest(e, row)) added++;
    return added;
  }

  private async listen(row: FrigateRow): Promise<void> {
    // the broker is an admin-set home-network address: its host and port checked by the same guard
    // rules, and its name resolved by the guard's checked lookup (adapters/smart-home/mqtt.ts)
    const guard = createSmartHomeGuard(brokerOrigin(row.mqttUrl!), this.deps.base);
    let client: MqttClient;
    try {
      client = await connectGuardedMqtt(row.mqttUrl!, guard, { reconnectPeriod: 2_000, connectTimeout: this.deps.timeoutMs ?? 10_000 });
    } catch {
      this.deps.logger.warn('camera broker address refused');
      await guard.close();
      return;
    }
    this.mqttGuard = guard;
    this.mqtt = client;
    client.on('connect', () => client.subscribe('frigate/events'));
    client.on('error', (err) => this.deps.logger.warn({ code: (err as NodeJS.ErrnoException).code ?? 'error' }, 'camera broker error'));
    client.on('message', (topic, payload) => {
      if (topic !== 'frigate/events') return;
      const e = frigateEventFromMqtt(payload);
      if (e) void this.ingest(e, row).catch((err: unknown) => this.deps.logger.warn({ err }, 'camera event not kept'));
    });
  }

  /** Resolves once the broker subscription is live (tests; the admin page). */
  brokerReady(): Promise<boolean> {
    const c = this.mqtt;
    if (!c) return Promise.resolve(false);
    if (c.connected) return Promise.resolve(true);
    return new Promise((resolve) => c.once('connect', () => resolve(true)));
  }

  private async stopListening(): Promise<void> {
    const c = this.mqtt;
    this.mqtt = null;
    if (c) await c.endAsync(true);
    await this.mqttGuard?.close();
    this.mqttGuard = null;
  }

  private async mayWatch(actor: UserActor): Promise<FrigateRow | null> {
    const row = await this.deps.store.connection();
    if (!row) return null;
    return isAdmin(actor) || row.notify.includes(actor.id) ? row : null;
  }

  async events(actor: UserActor): Promise<CameraEventsResponse> {
    const row = await this.mayWatch(actor);
    if (!row) return { shared: false, events: [] };
    const list = await this.deps.store.events(50);
    return { shared: true, events: list.map(toView) };
  }

  async snapshot(actor: UserActor, id: string): Promise<{ contentType: string; bytes: Buffer }> {
    const row = await this.mayWatch(actor);
    const event = row ? await this.deps.store.event(id) : null;
    if (!row || !event?.hasSnapshot) throw new NotFoundError('That camera picture is not here.');
    try {
      return await this.apiFor(row).snapshot(id);
    } catch (err) {
      const mapped = frigateAppError(err);
      throw mapped instanceof AppError ? mapped : err;
    }
  }

  /** The event's clip streamed from the recorder, the player's Range passed on (only to admins and the members told). */
  async clip(actor: UserActor, id: string, range: string | undefined, signal: AbortSignal): Promise<FrigateClip> {
    const row = await this.mayWatch(actor);
    const event = row ? await this.deps.store.event(id) : null;
    if (!row || !event?.hasClip) throw new NotFoundError('That camera clip is not here.');
    try {
      return await this.apiFor(row).clip(id, range, signal);
    } catch (err) {
      const mapped = frigateAppError(err, 'clip');
      throw mapped instanceof AppError ? mapped : err;
    }
  }

  async close(): Promise<void> {
    await this.stopListening();
    await this.client?.guard.close();
    this.client = null;
  }
}

const snapshotUrl = (id: string) => `/api/home-assistant/events/${encodeURIComponent(id)}/snapshot.jpg`;
const clipUrl = (id: string) => `/api/home-assistant/events/${encodeURIComponent(id)}/clip`;
const toView = (e: CameraEventRow): CameraEvent => ({
  id: e.id,
  camera: e.camera,
  label: e.label,
  at: new Date(e.startTime * 1000).toISOString(),
  snapshotUrl: e.hasSnapshot ? snapshotUrl(e.id) : null,
  clipUrl: e.hasClip ? clipUrl(e.id) : null,
});
