// download_jobs: the durable queue. Every state change is a row update, so a crash at any point
// leaves a row the runner can pick up again.
import type { Knex } from 'knex';
import type { DownloadJob, JobState } from './schema.js';

interface Row {
  id: string;
  kind: DownloadJob['kind'];
  target: string;
  destination: string | null;
  label: string;
  item_id: string | null;
  expected_bytes: number | null;
  sha256: string | null;
  large: number | boolean;
  host_class: DownloadJob['hostClass'];
  priority: number;
  position: number;
  state: JobState;
  attempts: number;
  next_attempt_at: string | null;
  bytes_done: number;
  bytes_total: number | null;
  speed_bps: number;
  last_error: string | null;
  requires: string;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

const toJob = (r: Row): DownloadJob => ({
  id: r.id,
  kind: r.kind,
  target: r.target,
  destination: r.destination,
  label: r.label,
  itemId: r.item_id,
  expectedBytes: r.expected_bytes,
  sha256: r.sha256,
  large: Boolean(r.large),
  hostClass: r.host_class,
  priority: r.priority,
  position: r.position,
  state: r.state,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  bytesDone: r.bytes_done,
  bytesTotal: r.bytes_total,
  speedBps: r.speed_bps,
  lastError: r.last_error,
  requires: JSON.parse(r.requires) as string[],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});

const COLUMNS: Record<keyof DownloadJob, keyof Row> = {
  id: 'id',
  kind: 'kind',
  target: 'target',
  destination: 'destination',
  label: 'label',
  itemId: 'item_id',
  expectedBytes: 'expected_bytes',
  sha256: 'sha256',
  large: 'large',
  hostClass: 'host_class',
  priority: 'priority',
  position: 'position',
  state: 'state',
  attempts: 'attempts',
  nextAttemptAt: 'next_attempt_at',
  bytesDone: 'bytes_done',
  bytesTotal: 'bytes_total',
  speedBps: 'speed_bps',
  lastError: 'last_error',
  requires: 'requires',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  startedAt: 'started_at',
  finishedAt: 'finished_at',
};

function toRow(patch: Partial<DownloadJob>): Partial<Row> {
  const row: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    const col = COLUMNS[k as keyof DownloadJob];
    row[col] = k === 'requires' ? JSON.stringify(v) : k === 'large' ? (v ? 1 : 0) : v;
  }
  return row as Partial<Row>;
}

export class DownloadJobsStore {
  constructor(private readonly db: Knex) {}

  async insert(job: DownloadJob): Promise<void> {
    await this.db('download_jobs').insert(toRow(job));
  }

  async find(id: string): Promise<DownloadJob | null> {
    const row = (await this.db('download_jobs').where({ id }).first()) as Row | undefined;
    return row ? toJob(row) : null;
  }

  async list(states?: JobState[]): Promise<DownloadJob[]> {
    const q = this.db('download_jobs').select('*');
    if (states) q.whereIn('state', states);
    return ((await q.orderBy([{ column: 'priority' }, { column: 'position' }, { column: 'created_at' }])) as Row[]).map(toJob);
  }

  /** The live job for a target (pending or running), to keep one download per target. */
  async findActiveByTarget(target: string): Promise<DownloadJob | null> {
    const row = (await this.db('download_jobs').where({ target }).whereIn('state', ['pending', 'running']).first()) as Row | undefined;
    return row ? toJob(row) : null;
  }

  async update(id: string, patch: Partial<DownloadJob>): Promise<void> {
    await this.db('download_jobs').where({ id }).update(toRow(patch));
  }

  /** Moves rows in `from` to `to` only if they are still in `from` (guards against races with cancel). */
  async transition(id: string, from: JobState[], patch: Partial<DownloadJob> & { state: JobState }): Promise<boolean> {
    return (await this.db('download_jobs').where({ id }).whereIn('state', from).update(toRow(patch))) > 0;
  }

  /** At start-up: jobs that were running when the process died go back to pending. */
  async requeueRunning(now: string): Promise<number> {
    return this.db('download_jobs').where({ state: 'running' }).update({ state: 'pending', speed_bps: 0, next_attempt_at: null, updated_at: now });
  }

  async maxPosition(): Promise<number> {
    const row = (await this.db('download_jobs').max({ p: 'position' }).first()) as { p: number | null } | undefined;
    return row?.p ?? 0;
  }
}
