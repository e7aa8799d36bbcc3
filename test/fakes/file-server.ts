// A download source for tests and benchmarks: node:http on 127.0.0.1:0 serving files from memory
// or disk with real Range/If-Range/ETag behaviour, plus the ways real servers and home internet
// fail: throttling, a connection cut mid-transfer, 5xx answers, a stall, corrupted bytes (wrong
// checksum) and a server that ignores Range. Every request is recorded with its Range header.
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FileBehaviour {
  /** Ignore Range and always send the whole file with 200. */
  ignoreRange?: boolean;
  /** Cut the connection after this many body bytes, for the next `dropTimes` requests. */
  dropAfterBytes?: number;
  dropTimes?: number;
  /** Answer this status for the next `failTimes` requests. */
  failStatus?: number;
  failTimes?: number;
  /** Send this many bytes, then stop sending (but keep the connection open). */
  stallAfterBytes?: number;
  /** Bytes per second. */
  throttleBps?: number;
  /** Flip a byte in what is sent (the file's real checksum no longer matches). */
  corrupt?: boolean;
}

interface ServedFile {
  size: number;
  etag: string;
  data?: Buffer;
  path?: string;
  behaviour: FileBehaviour;
}

export interface RecordedFileRequest {
  path: string;
  range: string | undefined;
  ifRange: string | undefined;
  status: number;
}

/** Deterministic pseudo-random content, so tests can compute the expected sha256. */
export function makeContent(size: number, seed = 1): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    buf[i] = x & 0xff;
  }
  return buf;
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export class FakeFileServer {
  readonly requests: RecordedFileRequest[] = [];
  private readonly files = new Map<string, ServedFile>();
  private readonly sockets = new Set<Socket>();
  private server = http.createServer((req, res) => void this.handle(req.url ?? '/', req.headers, res));
  url = '';

  async start(): Promise<this> {
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  addBuffer(name: string, data: Buffer, behaviour: FileBehaviour = {}): string {
    this.files.set(name, { size: data.length, data, etag: `"${sha256(data).slice(0, 16)}"`, behaviour });
    return `${this.url}/${name}`;
  }

  addFile(name: string, path: string, behaviour: FileBehaviour = {}): string {
    const st = statSync(path);
    this.files.set(name, { size: st.size, path, etag: `"${st.size}-${st.mtimeMs}"`, behaviour });
    return `${this.url}/${name}`;
  }

  behave(name: string, behaviour: FileBehaviour): void {
    const f = this.files.get(name);
    if (!f) throw new Error(`no file ${name}`);
    f.behaviour = behaviour;
  }

  /** Replaces a file's content (new ETag), as when the upstream file changes between attempts. */
  replace(name: string, data: Buffer): void {
    const f = this.files.get(name)!;
    this.files.set(name, { ...f, size: data.length, data, etag: `"${sha256(data).slice(0, 16)}"` });
  }

  private handle(url: string, headers: http.IncomingHttpHeaders, res: ServerResponse): void {
    const name = decodeURIComponent(url.split('?')[0]!.slice(1));
    const f = this.files.get(name);
    const record = (status: number) => this.requests.push({ path: name, range: headers.range, ifRange: headers['if-range'] as string | undefined, status });
    if (!f) {
      record(404);
      res.writeHead(404).end('not found');
      return;
    }
    const b = f.behaviour;
    if (b.failStatus && (b.failTimes ?? 1) > 0) {
      b.failTimes = (b.failTimes ?? 1) - 1;
      record(b.failStatus);
      res.writeHead(b.failStatus, { 'content-type': 'text/plain' }).end('upstream trouble');
      return;
    }
    let start = 0;
    let end = f.size - 1;
    let status = 200;
    const range = /^bytes=(\d+)-(\d*)$/.exec(headers.range ?? '');
    const ifRange = headers['if-range'];
    if (range && !b.ignoreRange && (!ifRange || ifRange === f.etag)) {
      start = Number(range[1]);
      if (range[2]) end = Math.min(end, Number(range[2]));
      if (start >= f.size) {
        record(416);
        res.writeHead(416, { 'content-range': `bytes */${f.size}` }).end();
        return;
      }
      status = 206;
    }
    record(status);
    const resHeaders: Record<string, string | number> = {
      'content-type': 'application/octet-stream',
      'content-length': end - start + 1,
      'accept-ranges': b.ignoreRange ? 'none' : 'bytes',
      etag: f.etag,
    };
    if (status === 206) resHeaders['content-range'] = `bytes ${start}-${end}/${f.size}`;
    res.writeHead(status, resHeaders);

    let dropAt = Infinity;
    if (b.dropAfterBytes !== undefined && (b.dropTimes ?? 1) > 0) {
      b.dropTimes = (b.dropTimes ?? 1) - 1;
      dropAt = b.dropAfterBytes;
    }
    const stallAt = b.stallAfterBytes ?? Infinity;
    let sent = 0;
    const source = f.data ? bufferChunks(f.data.subarray(start, end + 1)) : createReadStream(f.path!, { start, end, highWaterMark: 64 * 1024 });
    const send = async () => {
      for await (const raw of source) {
        let chunk = raw as Buffer;
        if (b.corrupt && sent === 0 && start === 0) {
          chunk = Buffer.from(chunk);
          chunk[0] = chunk[0]! ^ 0xff;
        }
        const limit = Math.min(dropAt, stallAt);
        if (sent + chunk.length > limit) {
          const part = chunk.subarray(0, Math.max(0, limit - sent));
          if (part.length) res.write(part);
          sent += part.length;
          if (limit === dropAt) res.socket?.destroy();
          // a stall: keep the socket open and send nothing more
          return;
        }
        if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
        sent += chunk.length;
        if (b.throttleBps) await new Promise((r) => setTimeout(r, (chunk.length / b.throttleBps!) * 1000));
      }
      res.end();
    };
    send().catch(() => res.destroy());
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

function* bufferChunks(buf: Buffer, size = 64 * 1024): Generator<Buffer> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}
