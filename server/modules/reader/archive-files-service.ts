// Reading a capture's files: the snapshot and its assets through the path guard, the saved site
// icon, and the HMAC capability tokens that let a sandboxed snapshot load its own assets.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import type { UserActor } from '../../actor.js';
import { NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { resolveInside } from '../../platform/path-guard.js';
import type { ReaderAccess } from './access-service.js';
import { FAVICON_ICO, FAVICON_PNG } from './favicon.js';
import { contentTypeOf, itemDir, resolveArchivePath } from './files.js';
import type { ReaderStore } from './store.js';

/** How long a snapshot's asset URLs stay valid (the page is re-opened through a fresh redirect after). */
export const ARCHIVE_TOKEN_TTL_S = 6 * 60 * 60;
const FAVICON_TYPES: Record<string, string> = { [FAVICON_PNG]: 'image/png', [FAVICON_ICO]: 'image/x-icon' };

export interface ArchiveFile {
  stream: ReadStream;
  contentType: string;
  size: number;
}

export interface ReaderArchiveFilesDeps {
  store: ReaderStore;
  access: ReaderAccess;
  clock: Clock;
  dataDir: string;
}

export class ReaderArchiveFiles {
  /**
   * Signs capability tokens for a snapshot's assets. A snapshot is served with CSP `sandbox`, so
   * its document has an opaque origin and browsers send no SameSite cookie with its image, CSS and
   * font requests; those go to a token path instead (per process: a restart just re-issues them).
   */
  private readonly archiveKey = randomBytes(32);

  constructor(private readonly deps: ReaderArchiveFilesDeps) {}

  /**
   * A file of the item's capture for a member's session. A page (HTML) is not served on the
   * session path: the sandboxed page cannot send the session cookie with its assets, so it is
   * answered with a token for the token path, where its relative asset URLs carry the token.
   */
  async open(actor: UserActor, id: string, rawPath: string): Promise<{ kind: 'file'; file: ArchiveFile } | { kind: 'page'; token: string }> {
    const file = await this.archiveFile(actor, id, rawPath);
    if (!file.contentType.startsWith('text/html')) return { kind: 'file', file };
    file.stream.destroy();
    return { kind: 'page', token: await this.archiveToken(actor, id) };
  }

  /** A file of the item's capture, resolved through the path guard; any miss is 404. */
  async archiveFile(actor: UserActor, id: string, rawPath: string): Promise<ArchiveFile> {
    await this.deps.access.visibleItem(actor, id);
    return this.readArchiveFile(id, rawPath);
  }

  private async readArchiveFile(id: string, rawPath: string): Promise<ArchiveFile> {
    const file = resolveArchivePath(itemDir(this.deps.dataDir, id), rawPath);
    if (!file) throw new NotFoundError('That file is not part of this capture.');
    const st = await stat(file).catch(() => null);
    if (!st?.isFile()) throw new NotFoundError('That file is not part of this capture.');
    const head = Buffer.alloc(Math.min(1024, st.size));
    const fh = await open(file, 'r');
    try {
      await fh.read(head, 0, head.length, 0);
    } finally {
      await fh.close();
    }
    return { stream: createReadStream(file), contentType: contentTypeOf(file, head), size: st.size };
  }

  /** The saved copy of the site's icon for an item the user may see; 404 when there is none. */
  async favicon(actor: UserActor, id: string): Promise<{ body: Buffer; contentType: string }> {
    const r = await this.deps.access.visibleItem(actor, id);
    const none = () => new NotFoundError('This item has no saved site icon.');
    const contentType = r.faviconPath ? FAVICON_TYPES[r.faviconPath] : undefined;
    const file = contentType ? resolveInside(itemDir(this.deps.dataDir, id), r.faviconPath!) : null;
    if (!contentType || !file) throw none();
    const body = await readFile(file).catch(() => null);
    if (!body) throw none();
    return { body, contentType };
  }

  private signArchive(id: string, userId: string, exp: number): string {
    return createHmac('sha256', this.archiveKey).update(`${id}|${userId}|${exp}`).digest('base64url').slice(0, 32);
  }

  /** A path segment that grants this user's access to the item's capture files for a while. */
  async archiveToken(actor: UserActor, id: string): Promise<string> {
    await this.deps.access.visibleItem(actor, id);
    const exp = Math.floor(this.deps.clock.now().getTime() / 1000) + ARCHIVE_TOKEN_TTL_S;
    return `${exp}.${actor.id}.${this.signArchive(id, actor.id, exp)}`;
  }

  /** A file of the capture through a token from archiveToken(); a bad, expired or revoked token is 404. */
  async archiveFileByToken(id: string, token: string, rawPath: string): Promise<ArchiveFile> {
    const denied = () => new NotFoundError('That file is not part of this capture.');
    const [expRaw, userId, sig] = token.split('.');
    const exp = Number(expRaw);
    if (!userId || !sig || !Number.isInteger(exp) || exp * 1000 < this.deps.clock.now().getTime()) throw denied();
    const expected = Buffer.from(this.signArchive(id, userId, exp));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw denied();
    const r = await this.deps.store.findById(id);
    if (!r || (r.ownerId !== null && r.ownerId !== userId)) throw denied();
    return this.readArchiveFile(id, rawPath);
  }
}
