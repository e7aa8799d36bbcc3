// Music: each member's pieces, private to them (another member's is a 404, admins included). A
// piece is made on the image engine's audio pipeline (graph.ts): the refusals come first, each a
// plain answer before any stream — content dials (adult words from a member whose pictures are kept
// family-safe: 422 prompt_not_allowed), one piece at a time per member (429), the engine not set
// up or missing a node or model (422 music_not_installed with what an admin adds), the engine down
// or not ready (503) — then the job runs on its own (the page going away does not stop it). The
// file is written whole and only then is the row inserted, so a failed piece leaves nothing.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ObjectInfo } from '../../adapters/image-engine/object-info.js';
import { ownedOrNotFound, type UserActor } from '../../actor.js';
import { NotFoundError, publicError, ServiceUnavailableError, TooManyRequestsError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { DiskSpace } from '../../platform/disk.js';
import type { Logger } from '../../platform/logger.js';
import { resolveInside } from '../../platform/path-guard.js';
import { isAdult, type EngineSocket, type ImageEngineClient, type ImageEngineRuntime, type ImageJobRunner } from '../image-gen/public.js';
import { MusicJobError, runMusicGraph } from './engine-job.js';
import { buildMusicGraph, graphProblem, MUSIC_STEPS, musicModels, OUTPUT_NODE, SAMPLER_NODE, sniffMusic } from './graph.js';
import type { MusicPorts } from './ports.js';
import type { GenerateMusicBody, MusicHistoryResponse, MusicStatusResponse, Piece } from './schema.js';
import type { MusicStore, PieceRow } from './store.js';

const notFound = () => new NotFoundError('That piece of music does not exist (it may have been deleted).');
const NOT_SET_UP = 'Music is made on the image engine, which is not set up on this computer yet. An admin sets it up on the Image engine page.';
const STARTING = 'The image engine is still starting. Try again in a minute.';
/** Steers the model away from what a family-safe member should not get (Stable Audio can sing). */
const SAFETY_NEGATIVE = 'explicit lyrics, profanity, vulgar vocals, screaming';
const QUALITY_NEGATIVE = 'low quality, distorted, noise, clipping, muffled';
/** A piece of 47 s as FLAC is a few MB; room is checked for this much. */
const PIECE_ROOM_BYTES = 16 * 1024 * 1024;
const HISTORY_LIMIT = 200;

export type MusicEvent = { type: 'queued'; position: number } | { type: 'step'; current: number; total: number } | { type: 'done'; piece: Piece } | { type: 'error'; code: string; message: string };

/** A piece being made: its numbers for the start event, and its events (the last step replayed). */
export interface MusicJob {
  id: string;
  seconds: number;
  seed: number;
  steps: number;
  subscribe(listener: (e: MusicEvent) => void): () => void;
}

interface Running {
  job: MusicJob;
  listeners: Set<(e: MusicEvent) => void>;
  last: MusicEvent | null;
}

export interface MusicDeps {
  store: MusicStore;
  engine: MusicPorts['engine'];
  content: MusicPorts['content'];
  /** DATA_DIR/music */
  dir: string;
  disk: DiskSpace;
  clock: Clock;
  logger: Logger;
  stallMs: number;
  /** How long a generate waits for an engine that is starting before answering 503. */
  readyWaitMs: number;
}

export class MusicService {
  private readonly running = new Map<string, Running>();
  /** Members whose generate is past its first checks and not yet running. */
  private readonly reserved = new Set<string>();
  private readonly work = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(private readonly deps: MusicDeps) {}

  private view(r: PieceRow): Piece {
    return { id: r.id, prompt: r.prompt, seconds: r.seconds, seed: r.seed, isAdult: r.isAdult, contentType: r.contentType, bytes: r.bytes, createdAt: r.createdAt, url: `/api/music/${r.id}/audio` };
  }

  private fileOf(rel: string): string {
    const file = resolveInside(this.deps.dir, rel);
    if (!file) throw notFound();
    return file;
  }

  /** The engine's parts when it is set up (and the household's queue, when this Hearth has one); 422 music_not_installed when it is not. */
  private async parts(): Promise<{ client: ImageEngineClient; runtime: ImageEngineRuntime; runner: ImageJobRunner | null }> {
    const { client, runtime, runner } = this.deps.engine.engineParts();
    if (!client || !runtime || !(await this.deps.engine.configured())) throw new UnprocessableError('music_not_installed', NOT_SET_UP, { missing: ['The image engine, set up on the Image engine page.'] });
    return { client, runtime, runner };
  }

  /** The engine's node list and the music models in it; read afresh when something is missing (the lists are the engine's folders: an admin may have added the file since). */
  private async models(client: ImageEngineClient): Promise<{ info: ObjectInfo; found: ReturnType<typeof musicModels> }> {
    const info = await client.objectInfo();
    const found = musicModels(info);
    if (found.ok) return { info, found };
    client.forget();
    const again = await client.objectInfo();
    return { info: again, found: musicModels(again) };
  }

  /** GET /status: can music be made here, and if not, what an admin adds (starts a set-up engine, never waits). */
  async status(): Promise<MusicStatusResponse> {
    const { client, runtime } = this.deps.engine.engineParts();
    if (!client || !runtime || !(await this.deps.engine.configured())) return { available: false, reason: NOT_SET_UP, missing: ['The image engine, set up on the Image engine page.'] };
    runtime.ensureStarted();
    if (runtime.status().state !== 'ready') return { available: false, reason: runtime.status().error ?? STARTING, missing: [] };
    const read = await this.models(client).catch(() => null);
    if (!read) return { available: false, reason: 'The image engine is not answering right now. Try again in a minute.', missing: [] };
    const { found } = read;
    return found.ok ? { available: true, reason: null, missing: [] } : { available: false, reason: notInstalledSentence(found.missing), missing: found.missing };
  }

  /** POST /generate: every refusal, then the piece is under way; its events follow through `subscribe`. */
  async generate(actor: UserActor, body: GenerateMusicBody): Promise<MusicJob> {
    const adult = isAdult(body.prompt, []);
    const { uncensoredImages } = await this.deps.content.imageProtections(actor.id);
    if (adult && !uncensoredImages) {
      throw new UnprocessableError('prompt_not_allowed', 'Your content settings keep what Hearth makes for you family-friendly, so it cannot make music about that. Try other words.');
    }
    if (this.running.has(actor.id) || this.reserved.has(actor.id)) throw new TooManyRequestsError('music_busy', 'You already have a piece of music being made. Wait for it to finish, then try again.', 30);
    this.reserved.add(actor.id);
    try {
      return await this.begin(actor, body, adult, uncensoredImages);
    } finally {
      this.reserved.delete(actor.id);
    }
  }

  private async begin(actor: UserActor, body: GenerateMusicBody, adult: boolean, uncensoredImages: boolean): Promise<MusicJob> {
    const { client, runtime, runner } = await this.parts();
    try {
      await runtime.whenReady(AbortSignal.timeout(this.deps.readyWaitMs));
    } catch (err) {
      if ((err as { status?: unknown }).status === 503) throw err;
      throw new ServiceUnavailableError('image_engine_unavailable', STARTING);
    }
    const { info, found } = await this.models(client);
    if (!found.ok) throw new UnprocessableError('music_not_installed', notInstalledSentence(found.missing), { missing: found.missing });

    const id = randomUUID();
    const seed = body.seed ?? Math.floor(Math.random() * 2 ** 32);
    const graph = buildMusicGraph({
      ...found.models,
      positive: body.prompt,
      negative: uncensoredImages ? QUALITY_NEGATIVE : `${SAFETY_NEGATIVE}, ${QUALITY_NEGATIVE}`,
      seconds: body.seconds,
      seed,
      filenamePrefix: `hearth-music/${id}`,
    });
    const problem = graphProblem(graph, info);
    if (problem) throw new UnprocessableError('music_not_installed', `This image engine cannot run Hearth's music recipe (${problem}). An admin can update the engine.`, { missing: [problem] });
    await this.deps.disk.ensureRoom(this.deps.dir, PIECE_ROOM_BYTES, { what: 'A piece of music' });
    // the engine down is a plain 503 here, before any stream
    const clientId = randomUUID();
    const socket = await client.connect(clientId);

    const r: Running = {
      listeners: new Set(),
      last: null,
      job: {
        id,
        seconds: body.seconds,
        seed,
        steps: MUSIC_STEPS,
        subscribe: (listener) => {
          if (r.last) listener(r.last);
          r.listeners.add(listener);
          return () => r.listeners.delete(listener);
        },
      },
    };
    this.running.set(actor.id, r);
    const emit = (e: MusicEvent) => {
      r.last = e;
      for (const l of [...r.listeners]) l(e);
    };
    const make = () => this.make(actor, { id, seed, adult, prompt: body.prompt, seconds: body.seconds, client, socket, clientId, graph, emit });
    // the household's one engine queue: the piece takes its turn as a picture does (no picture is stopped as stalled while it plays)
    const turn = runner?.lease ? runner.lease(actor.id, make, (position) => emit({ type: 'queued', position })) : make();
    const work = turn
      .catch((err: unknown) => {
        socket.close();
        emit({ type: 'error', ...publicError(err) });
      })
      .finally(() => {
        this.running.delete(actor.id);
        this.work.delete(work);
      });
    this.work.add(work);
    return r.job;
  }

  private async make(
    actor: UserActor,
    j: { id: string; seed: number; adult: boolean; prompt: string; seconds: number; client: ImageEngineClient; socket: EngineSocket; clientId: string; graph: ReturnType<typeof buildMusicGraph>; emit: (e: MusicEvent) => void },
  ): Promise<void> {
    let written: string | null = null;
    try {
      const bytes = await runMusicGraph({
        client: j.client,
        socket: j.socket,
        clientId: j.clientId,
        graph: j.graph,
        samplerNode: SAMPLER_NODE,
        outputNode: OUTPUT_NODE,
        total: MUSIC_STEPS,
        stallMs: this.deps.stallMs,
        signal: this.stopping.signal,
        onStep: (current, total) => j.emit({ type: 'step', current, total }),
      });
      const kind = sniffMusic(bytes.subarray(0, 16));
      if (!kind || bytes.length < 64) throw new MusicJobError('music_bad_output', 'The image engine gave back something that is not audio. Try once more.');
      const rel = `${actor.id}/${j.id}.${kind.ext}`;
      const file = this.fileOf(rel);
      await mkdir(path.dirname(file), { recursive: true });
      written = `${file}.part`;
      await writeFile(written, bytes);
      await rename(written, file);
      written = file;
      const row: PieceRow = { id: j.id, ownerId: actor.id, prompt: j.prompt, seconds: j.seconds, seed: j.seed, isAdult: j.adult, filePath: rel, contentType: kind.contentType, bytes: bytes.length, createdAt: this.deps.clock.now().toISOString() };
      await this.deps.store.insert(row);
      written = null;
      j.emit({ type: 'done', piece: this.view(row) });
    } catch (err) {
      if (written) await rm(written, { force: true }).catch(() => undefined);
      const e = err instanceof MusicJobError ? { code: err.code, message: err.message } : publicError(err);
      if (!(err instanceof MusicJobError)) this.deps.logger.warn({ err, id: j.id }, 'a piece of music failed');
      j.emit({ type: 'error', ...e });
    }
  }

  /** GET /: the caller's pieces, newest first; adult ones only in the adult state. */
  async history(actor: UserActor): Promise<MusicHistoryResponse> {
    const includeAdult = await this.deps.content.adultStateOn(actor);
    const { rows, adultLeftOut } = await this.deps.store.history(actor.id, includeAdult, HISTORY_LIMIT);
    return { pieces: rows.map((r) => this.view(r)), hiddenByContent: adultLeftOut };
  }

  private async owned(actor: UserActor, id: string): Promise<PieceRow> {
    const row = ownedOrNotFound(actor, await this.deps.store.get(id), notFound);
    // an adult piece is not there outside the adult state, as in the history
    if (row.isAdult && !(await this.deps.content.adultStateOn(actor))) throw notFound();
    return row;
  }

  /** The piece's file and type, for a Range-capable send (the path guard keeps it in DATA_DIR/music). */
  async audio(actor: UserActor, id: string): Promise<{ file: string; contentType: string }> {
    const row = await this.owned(actor, id);
    const file = this.fileOf(row.filePath);
    if (!(await stat(file).catch(() => null))) throw notFound();
    return { file, contentType: row.contentType };
  }

  async delete(actor: UserActor, id: string): Promise<void> {
    const row = await this.owned(actor, id);
    await this.deps.store.delete(row.id);
    await rm(this.fileOf(row.filePath), { force: true });
  }

  /** A member who leaves takes their pieces' files along (their rows went with them). */
  async onUserDeleted(userId: string): Promise<void> {
    const folder = resolveInside(this.deps.dir, userId);
    if (folder && folder !== path.resolve(this.deps.dir)) await rm(folder, { recursive: true, force: true });
  }

  /** Server close: pieces under way are stopped (nothing of them is kept). */
  async close(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.work]);
  }
}

function notInstalledSentence(missing: string[]): string {
  return `Music is not set up on this computer yet. An admin adds: ${missing.join(' ')}`;
}
