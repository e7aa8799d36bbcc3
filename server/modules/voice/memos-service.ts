// Voice memos: a member's recordings, private to their owner (admins included), each kept as the
// file that was sent and transcribed in the background by one worker (2 cores: one at a time).
// A memo still transcribing when Hearth stops is picked up again at start.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { ownedOrNotFound, type UserActor } from '../../actor.js';
import { NotFoundError, publicError, UnsupportedMediaError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { DiskSpace } from '../../platform/disk.js';
import type { Logger } from '../../platform/logger.js';
import { resolveInside } from '../../platform/path-guard.js';
import type { MemoRow, MemosStore } from './memos-store.js';
import type { Memo } from './schema.js';
import type { SttService } from './stt-service.js';

const notFound = () => new NotFoundError('That memo does not exist (it may have been deleted).');

/** What a recording really is, from its first bytes. */
export function sniffAudio(head: Buffer): string | null {
  if (head.length >= 12 && head.toString('ascii', 0, 4) === 'RIFF' && head.toString('ascii', 8, 12) === 'WAVE') return 'audio/wav';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'audio/webm';
  if (head.toString('ascii', 0, 4) === 'OggS') return 'audio/ogg';
  if (head.length >= 8 && head.toString('ascii', 4, 8) === 'ftyp') return 'audio/mp4';
  if (head.toString('ascii', 0, 3) === 'ID3' || (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0)) return 'audio/mpeg';
  return null;
}

const publicMemo = ({ ownerId: _owner, ...m }: MemoRow): Memo => m;

export class MemosService {
  private readonly queue: string[] = [];
  private running = false;
  private closed = false;
  private readonly stopping = new AbortController();
  private idle: Promise<void> = Promise.resolve();

  constructor(private readonly deps: { store: MemosStore; stt: SttService; dir: string; disk: DiskSpace; clock: Clock; logger: Logger }) {}

  /** A memo's file: in its owner's folder, so a member who leaves takes the folder along. */
  private fileOf(ownerId: string, id: string): string {
    const file = resolveInside(this.deps.dir, `${ownerId}/${id}`);
    if (!file) throw notFound();
    return file;
  }

  /** Where an upload is written before it becomes a memo. */
  async uploadTarget(actor: UserActor): Promise<string> {
    const target = this.fileOf(actor.id, `upload-${randomUUID()}`);
    await mkdir(path.dirname(target), { recursive: true });
    await this.deps.disk.ensureRoom(this.deps.dir, 0, { what: 'This recording' });
    return target;
  }

  async discardUpload(file: string): Promise<void> {
    await rm(file, { force: true });
  }

  /** A received recording becomes a memo, transcribed in the background. */
  async create(actor: UserActor, upload: { file: string; bytes: number; head: Buffer; title: string | null }): Promise<Memo> {
    const mime = sniffAudio(upload.head);
    if (!mime || upload.bytes === 0) {
      await this.discardUpload(upload.file);
      throw new UnsupportedMediaError('That file is not a recording Hearth can read. Send a webm, ogg, mp4, mp3 or wav audio file.');
    }
    const id = randomUUID();
    await rename(upload.file, this.fileOf(actor.id, id));
    await this.deps.store.insert({ id, ownerId: actor.id, title: upload.title, mime, bytes: upload.bytes, now: this.deps.clock.now().toISOString() });
    this.enqueue(id);
    return publicMemo((await this.deps.store.get(id))!);
  }

  async list(actor: UserActor, limit: number): Promise<Memo[]> {
    return (await this.deps.store.listOf(actor.id, limit)).map(publicMemo);
  }

  private async owned(actor: UserActor, id: string): Promise<MemoRow> {
    return ownedOrNotFound(actor, await this.deps.store.get(id), notFound);
  }

  async get(actor: UserActor, id: string): Promise<Memo> {
    return publicMemo(await this.owned(actor, id));
  }

  /** The recording's file and type, for a Range-capable send. */
  async audio(actor: UserActor, id: string): Promise<{ file: string; mime: string }> {
    const m = await this.owned(actor, id);
    return { file: this.fileOf(m.ownerId, m.id), mime: m.mime };
  }

  async rename(actor: UserActor, id: string, title: string | null): Promise<Memo> {
    const m = await this.owned(actor, id);
    await this.deps.store.setTitle(m.id, title || null, this.deps.clock.now().toISOString());
    return publicMemo((await this.deps.store.get(m.id))!);
  }

  async delete(actor: UserActor, id: string): Promise<void> {
    const m = await this.owned(actor, id);
    await this.deps.store.delete(m.id);
    await rm(this.fileOf(m.ownerId, m.id), { force: true });
  }

  /** A member who leaves the household takes their memos, files and all. */
  async onUserDeleted(userId: string): Promise<void> {
    await this.deps.store.removeOwner(userId);
    const folder = resolveInside(this.deps.dir, userId);
    if (folder && folder !== path.resolve(this.deps.dir)) await rm(folder, { recursive: true, force: true });
  }

  /** For unified search: the owner's memos whose title or transcript holds the words. */
  find(actor: UserActor, words: string[], limit: number): Promise<Memo[]> {
    return this.deps.store.find(actor.id, words, limit).then((rows) => rows.map(publicMemo));
  }

  /** At start: every memo left transcribing goes back in the queue. */
  async start(): Promise<void> {
    for (const m of await this.deps.store.transcribing()) this.enqueue(m.id);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopping.abort();
    await this.idle;
  }

  private enqueue(id: string): void {
    if (this.closed) return;
    this.queue.push(id);
    if (!this.running) this.idle = this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (!this.closed && this.queue.length > 0) await this.transcribe(this.queue.shift()!);
    } finally {
      this.running = false;
    }
  }

  private async transcribe(id: string): Promise<void> {
    const m = await this.deps.store.get(id);
    if (!m || m.status !== 'transcribing') return;
    const now = () => this.deps.clock.now().toISOString();
    try {
      const t = await this.deps.stt.transcribeFile(this.fileOf(m.ownerId, id), 'en', this.stopping.signal);
      await this.deps.store.finish(id, { status: 'ready', text: t.text, durationSeconds: t.durationSeconds }, now());
    } catch (err) {
      // stopped by close(): it stays transcribing and is picked up at the next start
      if (this.stopping.signal.aborted) return;
      this.deps.logger.warn({ memo: id, error: String(err) }, 'memo transcription failed');
      await this.deps.store.finish(id, { status: 'failed', error: publicError(err).message }, now()).catch(() => undefined);
    }
  }
}
