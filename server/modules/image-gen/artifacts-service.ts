// Each member's pictures (generated and edited): private to their member — another member, an
// admin included, is told "not found" — with the history of ready pictures, the newest job still
// building, the file served through the path guard, cancel and delete (the file goes too).
import type { UserActor } from '../../actor.js';
import { ownedOrNotFound } from '../../actor.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { ImageFiles } from './files.js';
import type { ImageJobRunner, JobEvent } from './parts.js';
import type { Artifact, ArtifactKind, HistoryResponse, UsedSettings } from './schema.js';
import type { ArtifactRecord, ImageGenStore } from './store.js';

export interface ImageArtifactsDeps {
  store: ImageGenStore;
  files: ImageFiles;
  clock: Clock;
  /** The household's engine queue (null until the engine part is wired). */
  runner: ImageJobRunner | null;
  /** Whether the member's session is in the adult state (adult pictures are hidden from history otherwise). */
  adultStateOn(actor: UserActor): Promise<boolean>;
}

export const artifactNotFound = () => new NotFoundError('That picture is not there. It may have been deleted.');

/** What GET /artifacts/:id answers: the picture once ready, else where it is. */
export type OpenedArtifact =
  | { kind: 'file'; stream: NodeJS.ReadableStream & { destroy(): void }; size: number; contentType: string; fileName: string }
  | { kind: 'status'; artifact: Artifact };

const ACTIVE = ['queued', 'building'] as const;

export class ImageArtifactsService {
  constructor(private readonly deps: ImageArtifactsDeps) {}

  /** The artifact as the web app sees it (its queue place while queued). */
  view(r: ArtifactRecord): Artifact {
    const position = r.state === 'queued' ? (this.deps.runner?.position(r.id) ?? null) : null;
    return {
      id: r.id,
      kind: r.kind,
      pipeline: r.pipeline,
      state: r.state,
      stepCurrent: r.stepCurrent,
      stepTotal: r.stepTotal,
      position: position !== null && position > 0 ? position : null,
      isAdult: r.isAdult,
      prompt: r.prompt,
      style: (r.style as Artifact['style']) ?? null,
      loras: r.loras,
      width: r.width,
      height: r.height,
      used: usedOf(r.params),
      contentType: r.contentType,
      url: `/api/image/artifacts/${encodeURIComponent(r.id)}`,
      error: r.error,
      sourceId: r.sourceId,
      createdAt: r.createdAt,
      finishedAt: r.finishedAt,
    };
  }

  /** The member's own row, or 404 (someone else's is reported as missing, admins included). */
  async own(actor: UserActor, id: string): Promise<ArtifactRecord> {
    const row = await this.deps.store.artifact(id);
    return ownedOrNotFound(actor, row ? { ...row, ownerId: row.userId } : null, artifactNotFound);
  }

  async get(actor: UserActor, id: string): Promise<Artifact> {
    return this.view(await this.own(actor, id));
  }

  async history(actor: UserActor, q: { kind?: ArtifactKind; limit: number; offset: number }): Promise<HistoryResponse> {
    const includeAdult = await this.deps.adultStateOn(actor);
    const { items, total, adultLeftOut } = await this.deps.store.history(actor.id, { kind: q.kind, states: ['ready'], limit: q.limit, offset: q.offset, includeAdult });
    const next = q.offset + items.length;
    return { items: items.map((r) => this.view(r)), total, nextOffset: next < total ? next : null, hiddenByContent: adultLeftOut };
  }

  async building(actor: UserActor): Promise<Artifact | null> {
    const row = await this.deps.store.latestActive(actor.id);
    return row ? this.view(row) : null;
  }

  async open(actor: UserActor, id: string): Promise<OpenedArtifact> {
    const row = await this.own(actor, id);
    if (row.state !== 'ready') return { kind: 'status', artifact: this.view(row) };
    const file = await this.deps.files.open(row.outputPath);
    if (!file) throw new NotFoundError('That picture\'s file is missing from this computer.');
    const ext = row.outputPath?.split('.').pop() ?? 'png';
    return { kind: 'file', ...file, contentType: row.contentType ?? 'image/png', fileName: `hearth-${row.kind}-${row.id.slice(0, 8)}.${ext}` };
  }

  /** Stops a queued or building job; a finished one is a 409 with a sentence. */
  async cancel(actor: UserActor, id: string): Promise<Artifact> {
    const row = await this.own(actor, id);
    if (!ACTIVE.includes(row.state as (typeof ACTIVE)[number])) {
      throw new ConflictError('not_running', row.state === 'ready' ? 'That picture is already finished.' : 'That picture is not being made any more.');
    }
    const stopped = (await this.deps.runner?.cancel(id)) ?? false;
    // a row the queue no longer knows (a local edit, or one left by a restart) is marked here
    if (!stopped) await this.deps.store.updateArtifactIf(id, ACTIVE, { state: 'cancelled', finishedAt: this.deps.clock.now().toISOString() });
    return this.get(actor, id);
  }

  async delete(actor: UserActor, id: string): Promise<void> {
    const row = await this.own(actor, id);
    if (ACTIVE.includes(row.state as (typeof ACTIVE)[number])) await this.deps.runner?.cancel(id);
    await this.deps.store.deleteArtifact(id);
    await this.deps.files.remove(row.outputPath);
  }

  /** At start: jobs a stopped Hearth left queued or building cannot finish any more; they fail with a sentence. */
  async failLeftovers(): Promise<number> {
    return this.deps.store.failUnfinished('Hearth restarted before this picture was finished. Make it again.', this.deps.clock.now().toISOString());
  }

  /** A deleted member's pictures went with their row; their folder goes here. */
  async onUserDeleted(userId: string): Promise<void> {
    await this.deps.files.removeUserDir(userId);
  }

  /**
   * Follows a running job (GET /artifacts/:id/stream): the past step and latest preview, then live
   * events. A job that already ended answers its last word at once (done or error).
   */
  async attach(actor: UserActor, id: string, listener: (e: JobEvent) => void): Promise<(() => void) | null> {
    const row = await this.own(actor, id);
    const unsubscribe = this.deps.runner?.subscribe(id, listener) ?? null;
    if (unsubscribe) return unsubscribe;
    const now = await this.own(actor, id).catch(() => row);
    listener(finalEvent(this.view(now)));
    return null;
  }
}

/** The event that tells a late client how a job ended. */
export function finalEvent(a: Artifact): JobEvent {
  if (a.state === 'ready') return { type: 'done', artifact: a };
  if (a.state === 'cancelled') return { type: 'error', code: 'cancelled', message: 'This picture was cancelled.' };
  if (a.state === 'failed') return { type: 'error', code: 'image_failed', message: a.error ?? 'This picture could not be made.' };
  return { type: 'error', code: 'not_running', message: 'This picture is waiting for the image engine, which is not running. Try again in a moment.' };
}

/** The settings a generation runs with, as generate stored them in its params (after the clamps). */
function usedOf(params: Record<string, unknown>): UsedSettings | null {
  const { width, height, steps, guidance } = params;
  const int = (n: unknown): n is number => Number.isInteger(n);
  if (!int(width) || !int(height) || !int(steps) || typeof guidance !== 'number') return null;
  return { width, height, steps, guidance };
}
