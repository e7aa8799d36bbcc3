// The LAN speed test's rules: the garbage a download measures (incompressible bytes from one random
// buffer made at first use, bounded in bytes and time), and the results members store (their own;
// the household's history is an admin's).
import { randomBytes, randomUUID } from 'node:crypto';
import { assertAdmin, type UserActor } from '../../actor.js';
import type { Clock } from '../../platform/clock.js';
import type { SpeedtestPorts } from './ports.js';
import { MAX_GARBAGE_SECONDS, type AdminSpeedtestResponse, type SpeedtestResult, type SpeedtestResultBody } from './schema.js';
import type { SpeedtestRow, SpeedtestStore } from './store.js';

export const CHUNK_BYTES = 1024 * 1024;

const publicResult = ({ userId: _userId, ...r }: SpeedtestRow): SpeedtestResult => r;

export class SpeedtestService {
  private chunk: Buffer | null = null;

  constructor(private readonly deps: { store: SpeedtestStore; users: SpeedtestPorts['users']; clock: Clock }) {}

  /** What one garbage answer sends: `chunks` times the same 1 MiB of random bytes, for at most a minute. */
  garbage(chunks: number): { chunk: Buffer; chunks: number; deadlineMs: number } {
    this.chunk ??= randomBytes(CHUNK_BYTES);
    return { chunk: this.chunk, chunks, deadlineMs: MAX_GARBAGE_SECONDS * 1000 };
  }

  async record(actor: UserActor, body: SpeedtestResultBody): Promise<SpeedtestResult> {
    const row: SpeedtestRow = { id: randomUUID(), userId: actor.id, ...body, createdAt: this.deps.clock.now().toISOString() };
    await this.deps.store.insert(row);
    return publicResult(row);
  }

  async mine(actor: UserActor, limit: number): Promise<SpeedtestResult[]> {
    return (await this.deps.store.list(limit, actor.id)).map(publicResult);
  }

  async history(actor: UserActor, limit: number): Promise<AdminSpeedtestResponse['results']> {
    assertAdmin(actor);
    const names = new Map((await this.deps.users.listProfiles()).map((u) => [u.id, u.name]));
    return (await this.deps.store.list(limit)).map((r) => ({ ...publicResult(r), userId: r.userId, userName: names.get(r.userId) ?? null }));
  }
}
