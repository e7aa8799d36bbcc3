// The camera recorder's rows: its one connection (the password never leaves the service) and the
// events seen.
import type { Knex } from 'knex';

const HOUSEHOLD = 'household';

export interface FrigateRow {
  url: string;
  user: string | null;
  password: string | null;
  mqttUrl: string | null;
  notify: string[];
  version: string | null;
}

export interface CameraEventRow {
  id: string;
  camera: string;
  label: string;
  startTime: number;
  hasSnapshot: boolean;
  hasClip: boolean;
}

type EventDb = { id: string; camera: string; label: string; start_time: number; has_snapshot: number | boolean; has_clip: number | boolean };
const toRow = (r: EventDb): CameraEventRow => ({ id: r.id, camera: r.camera, label: r.label, startTime: r.start_time, hasSnapshot: Boolean(r.has_snapshot), hasClip: Boolean(r.has_clip) });

export class CameraStore {
  constructor(private readonly db: Knex) {}

  async connection(): Promise<FrigateRow | null> {
    const r = await this.db('frigate_connection').where({ id: HOUSEHOLD }).first<
      { url: string; user: string | null; password: string | null; mqtt_url: string | null; notify: string; version: string | null } | undefined
    >('url', 'user', 'password', 'mqtt_url', 'notify', 'version');
    return r ? { url: r.url, user: r.user, password: r.password, mqttUrl: r.mqtt_url, notify: JSON.parse(r.notify) as string[], version: r.version } : null;
  }

  async save(row: FrigateRow, at: string): Promise<void> {
    await this.db('frigate_connection')
      .insert({ id: HOUSEHOLD, url: row.url, user: row.user, password: row.password, mqtt_url: row.mqttUrl, notify: JSON.stringify(row.notify), version: row.version, updated_at: at })
      .onConflict('id')
      .merge();
  }

  async remove(): Promise<void> {
    await this.db('frigate_connection').where({ id: HOUSEHOLD }).delete();
  }

  /** Inserts an event not seen before; false when it was already there. */
  async addEvent(e: CameraEventRow, at: string): Promise<boolean> {
    if (await this.db('frigate_events').where({ id: e.id }).first('id')) return false;
    await this.db('frigate_events').insert({ id: e.id, camera: e.camera, label: e.label, start_time: e.startTime, has_snapshot: e.hasSnapshot, has_clip: e.hasClip, created_at: at });
    return true;
  }

  async latestStart(): Promise<number> {
    const r = await this.db('frigate_events').max<{ m: number | null }>({ m: 'start_time' }).first();
    return r?.m ?? 0;
  }

  async events(limit: number): Promise<CameraEventRow[]> {
    const rows = await this.db('frigate_events').orderBy('start_time', 'desc').limit(limit).select<EventDb[]>('*');
    return rows.map(toRow);
  }

  async event(id: string): Promise<CameraEventRow | null> {
    const r = await this.db('frigate_events').where({ id }).first<EventDb | undefined>('*');
    return r ? toRow(r) : null;
  }

  async clearEvents(): Promise<void> {
    await this.db('frigate_events').delete();
  }
}
