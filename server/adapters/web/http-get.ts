// The GET behind large downloads: HTTP/1.1 over a socket that reads into one reused buffer (Node's
// `onread` option for net and tls sockets) and hands the body to a synchronous callback. A
// multi-gigabyte transfer through undici's body stream costs ~1 CPU-second per GB more than this
// on a home computer: every socket read is a fresh 64 KB buffer, then a stream chunk and a promise.
// Everything else Hearth fetches (pages, icons, probes) goes through guardedRequest() and undici.
// Same guard rules as there: the URL is checked, names are resolved by the guard's lookup (the
// address checked is the one connected to) and every redirect hop is checked again.
// One request per connection (Connection: close); the response is framed by Content-Length, by
// chunked transfer coding, or by the end of the connection, and anything malformed is an error.
import net from 'node:net';
import tls from 'node:tls';
import { BlockedUrlError, headersForHop, MAX_REDIRECTS, type AddressGuard } from '../../platform/ssrf-address.js';

const READ_BUFFER_BYTES = 256 * 1024;
const MAX_HEAD_BYTES = 64 * 1024;
const MAX_LINE_BYTES = 4096;

export class HttpGetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HttpGetError';
  }
}

export interface GetOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** From the start of a request to the end of its response's headers. */
  headersTimeoutMs?: number;
  /** Longest wait for the next bytes of the body while reading (time paused by the reader does not count). */
  bodyTimeoutMs?: number;
  maxRedirects?: number;
  /** Certificate authorities to trust instead of the system's (tests with a local https server). */
  ca?: string | Buffer;
}

/**
 * Receives the body. The chunk is a view into a reused buffer: it is valid only during the call,
 * so copy what you keep. Return false to stop reading until resume(); the rest of the bytes
 * already read are still delivered.
 */
export type BodySink = (chunk: Buffer) => boolean | void;

export interface GetResponse {
  url: string;
  statusCode: number;
  /** Lower-case names; a repeated header is an array. */
  headers: Record<string, string | string[]>;
  redirects: string[];
  /** Resolves when the whole body has been delivered; rejects when the connection ends early, stalls or is aborted. */
  readBody(sink: BodySink): Promise<void>;
  resume(): void;
  /** Closes the connection without reading (more of) the body. */
  discard(): void;
}

type Framing = { kind: 'none' } | { kind: 'length'; remaining: number } | { kind: 'chunked' } | { kind: 'close' };
type ChunkState = 'size' | 'data' | 'data-end' | 'trailer';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function parseHead(text: string): { statusCode: number; headers: Record<string, string | string[]> } {
  const lines = text.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
  if (!status) throw new HttpGetError('The server did not answer with HTTP/1.1.');
  const headers: Record<string, string | string[]> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    if (colon <= 0 || !TOKEN.test(name)) throw new HttpGetError('The server sent a malformed header.');
    const value = line.slice(colon + 1).trim();
    const prev = headers[name];
    headers[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return { statusCode: Number(status[1]), headers };
}

function framingOf(statusCode: number, headers: Record<string, string | string[]>): Framing {
  if (statusCode < 200 || statusCode === 204 || statusCode === 304) return { kind: 'none' };
  const te = headers['transfer-encoding'];
  if (te !== undefined) {
    const codings = [te].flat().join(',').split(',').map((c) => c.trim().toLowerCase());
    return codings.at(-1) === 'chunked' ? { kind: 'chunked' } : { kind: 'close' };
  }
  const cl = headers['content-length'];
  if (cl === undefined) return { kind: 'close' };
  const values = new Set([cl].flat().join(',').split(',').map((v) => v.trim()));
  const [only] = values;
  if (values.size !== 1 || !/^\d{1,15}$/.test(only!)) throw new HttpGetError('The server sent an invalid Content-Length.');
  return { kind: 'length', remaining: Number(only) };
}

/** One request on one connection. */
class Exchange {
  private readonly socket: net.Socket;
  private readonly readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  private head: Buffer | null = Buffer.alloc(0);
  private framing: Framing = { kind: 'none' };
  private chunkState: ChunkState = 'size';
  private chunkLeft = 0;
  private line = '';
  /** Body bytes that came with the headers, before anyone asked for the body. */
  private early: Buffer | null = null;
  private sink: BodySink | null = null;
  private wantsPause = false;
  private paused = false;
  private settled = false;
  private bodyBytes = 0;
  private lastRead = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private resolveHead!: (r: { statusCode: number; headers: Record<string, string | string[]> }) => void;
  private rejectHead!: (err: Error) => void;
  private resolveBody: (() => void) | null = null;
  private rejectBody: ((err: Error) => void) | null = null;
  private failure: Error | null = null;
  private endedBeforeRead = false;
  readonly headPromise: Promise<{ statusCode: number; headers: Record<string, string | string[]> }>;

  constructor(
    guard: AddressGuard,
    private readonly url: URL,
    private readonly opts: GetOptions,
  ) {
    const request = this.requestText();
    this.headPromise = new Promise((resolve, reject) => {
      this.resolveHead = resolve;
      this.rejectHead = reject;
    });
    const https = url.protocol === 'https:';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const onread = { buffer: this.readBuffer, callback: (n: number) => this.onRead(this.readBuffer.subarray(0, n)) };
    const common = { host, port: Number(url.port) || (https ? 443 : 80), lookup: guard.lookup, onread };
    this.socket = https
      ? tls.connect({ ...common, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'], ...(opts.ca ? { ca: opts.ca } : {}) } as tls.ConnectionOptions)
      : net.connect(common as net.NetConnectOpts);
    this.socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ESSRFBLOCKED') this.fail(new BlockedUrlError(err.message, url.href));
      else this.fail(err);
    });
    this.socket.on('end', () => this.onEnd());
    this.socket.on('close', () => this.onEnd());
    // a socket with `onread` pushes nothing to its readable side; flowing mode is only so 'end' is emitted
    this.socket.resume();
    this.armTimer(opts.headersTimeoutMs ?? 30_000, 'The server did not answer in time.');
    this.socket.write(request);
  }

  private requestText(): string {
    const lines = [`GET ${this.url.pathname}${this.url.search} HTTP/1.1`, `Host: ${this.url.host}`, 'User-Agent: Hearth', 'Accept: */*', 'Connection: close'];
    for (const [name, value] of Object.entries({ 'accept-encoding': 'identity', ...this.opts.headers })) {
      if (!TOKEN.test(name) || /[\r\n\0]/.test(value)) throw new TypeError(`Invalid request header ${name}.`);
      lines.push(`${name}: ${value}`);
    }
    return `${lines.join('\r\n')}\r\n\r\n`;
  }

  /** One timer for both waits: the headers (a fixed deadline), then the gaps between body reads. */
  private armTimer(ms: number, message: string): void {
    clearTimeout(this.timer);
    const check = () => {
      if (this.settled) return;
      if (this.head === null && (this.paused || this.sink === null)) {
        this.timer = setTimeout(check, ms);
        return;
      }
      const idle = Date.now() - this.lastRead;
      if (this.head !== null || idle >= ms) this.fail(new HttpGetError(message));
      else this.timer = setTimeout(check, ms - idle);
    };
    this.timer = setTimeout(check, ms);
  }

  private onRead(data: Buffer): boolean {
    if (this.settled) return false;
    this.lastRead = Date.now();
    try {
      if (this.head !== null) return this.onHeadBytes(data);
      this.deliver(data);
    } catch (err) {
      this.fail(err as Error);
      return false;
    }
    if (this.wantsPause) {
      this.wantsPause = false;
      this.paused = true;
      return false;
    }
    return true;
  }

  private onHeadBytes(data: Buffer): boolean {
    let head = Buffer.concat([this.head!, data]);
    for (;;) {
      const end = head.indexOf('\r\n\r\n');
      if ((end < 0 ? head.length : end) > MAX_HEAD_BYTES) throw new HttpGetError('The server sent too many headers.');
      if (end < 0) {
        this.head = head;
        return true;
      }
      const parsed = parseHead(head.subarray(0, end).toString('latin1'));
      head = head.subarray(end + 4);
      // 100 Continue, 103 Early Hints: the real answer follows
      if (parsed.statusCode >= 100 && parsed.statusCode < 200 && parsed.statusCode !== 101) continue;
      this.framing = framingOf(parsed.statusCode, parsed.headers);
      this.head = null;
      if (head.length) this.early = head;
      this.resolveHead(parsed);
      if (this.framing.kind === 'none' || (this.framing.kind === 'length' && this.framing.remaining === 0)) this.succeed();
      // wait for readBody(): nothing more is read until someone takes the body
      this.paused = true;
      return false;
    }
  }

  /** Strips the framing and hands body bytes to the sink. */
  private deliver(data: Buffer): void {
    const f = this.framing;
    if (f.kind === 'none') return;
    if (f.kind === 'close') {
      this.emit(data);
      return;
    }
    if (f.kind === 'length') {
      const take = Math.min(f.remaining, data.length);
      f.remaining -= take;
      this.emit(data.subarray(0, take));
      if (f.remaining === 0) this.succeed();
      return;
    }
    let i = 0;
    while (i < data.length && !this.settled) {
      if (this.chunkState === 'data') {
        const take = Math.min(this.chunkLeft, data.length - i);
        this.emit(data.subarray(i, i + take));
        i += take;
        this.chunkLeft -= take;
        if (this.chunkLeft === 0) this.chunkState = 'data-end';
        continue;
      }
      const nl = data.indexOf(10, i);
      const piece = data.toString('latin1', i, nl < 0 ? data.length : nl);
      if (this.line.length + piece.length > MAX_LINE_BYTES) throw new HttpGetError('The server sent a malformed chunked body.');
      this.line += piece;
      if (nl < 0) return;
      i = nl + 1;
      const line = this.line.endsWith('\r') ? this.line.slice(0, -1) : this.line;
      this.line = '';
      this.onChunkLine(line);
    }
  }

  private onChunkLine(line: string): void {
    if (this.chunkState === 'size') {
      const size = line.split(';')[0]!.trim();
      if (!/^[0-9a-fA-F]{1,12}$/.test(size)) throw new HttpGetError('The server sent a malformed chunked body.');
      this.chunkLeft = parseInt(size, 16);
      this.chunkState = this.chunkLeft === 0 ? 'trailer' : 'data';
    } else if (this.chunkState === 'data-end') {
      if (line !== '') throw new HttpGetError('The server sent a malformed chunked body.');
      this.chunkState = 'size';
    } else if (line === '') {
      this.succeed(); // the empty line after the (ignored) trailers
    }
  }

  private emit(chunk: Buffer): void {
    if (!chunk.length) return;
    this.bodyBytes += chunk.length;
    if (this.sink!(chunk) === false) this.wantsPause = true;
  }

  private onEnd(): void {
    if (this.settled) return;
    if (this.head !== null) this.fail(new HttpGetError('The server closed the connection without answering.'));
    else if (this.sink === null) this.endedBeforeRead = true; // decided once readBody() has taken the early bytes
    else this.endOfBody();
  }

  /** The connection ended: the end of a close-delimited body, anything else came up short. */
  private endOfBody(): void {
    if (this.framing.kind === 'close') this.succeed();
    else this.fail(new HttpGetError(`The connection closed after ${this.bodyBytes} bytes of the body.`));
  }

  private succeed(): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.socket.destroy();
    this.resolveBody?.();
  }

  private fail(err: Error): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.failure = err;
    this.socket.destroy();
    this.rejectHead(err);
    this.rejectBody?.(err);
  }

  abort(reason: unknown): void {
    this.fail(reason instanceof Error ? reason : new HttpGetError('The request was cancelled.'));
  }

  readBody(sink: BodySink): Promise<void> {
    if (this.sink) return Promise.reject(new Error('The body is already being read.'));
    this.sink = sink;
    return new Promise<void>((resolve, reject) => {
      this.resolveBody = resolve;
      this.rejectBody = reject;
      if (this.failure) return reject(this.failure);
      const early = this.early;
      this.early = null;
      try {
        if (early && !this.settled) this.deliver(early);
      } catch (err) {
        this.fail(err as Error);
        return;
      }
      if (this.settled) return this.failure ? reject(this.failure) : resolve();
      if (this.endedBeforeRead) return this.endOfBody();
      this.lastRead = Date.now();
      this.armTimer(this.opts.bodyTimeoutMs ?? 60_000, 'The server stopped sending.');
      if (this.wantsPause) this.wantsPause = false;
      else this.resume();
    });
  }

  resume(): void {
    if (!this.paused || this.settled || this.sink === null) return;
    this.paused = false;
    this.lastRead = Date.now();
    this.socket.resume();
  }

  discard(): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.socket.destroy();
  }
}

/**
 * GET through the guard, following up to maxRedirects redirects (each hop checked). Resolves with
 * the final response's status and headers; its body is read with readBody().
 */
export async function guardedGet(guard: AddressGuard, raw: string, opts: GetOptions = {}): Promise<GetResponse> {
  let url = guard.checkUrl(raw);
  let hopOpts = opts;
  const redirects: string[] = [];
  opts.signal?.throwIfAborted();
  for (let hop = 0; ; hop++) {
    const exchange = new Exchange(guard, url, hopOpts);
    const onAbort = () => exchange.abort(opts.signal!.reason);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    let head;
    try {
      head = await exchange.headPromise;
    } catch (err) {
      opts.signal?.removeEventListener('abort', onAbort);
      throw err;
    }
    const location = head.headers.location;
    if (head.statusCode >= 300 && head.statusCode < 400 && typeof location === 'string') {
      opts.signal?.removeEventListener('abort', onAbort);
      exchange.discard();
      if (hop >= (opts.maxRedirects ?? MAX_REDIRECTS)) throw new BlockedUrlError('Too many redirects.', url.href);
      redirects.push(url.href);
      const next = guard.checkUrl(new URL(location, url));
      hopOpts = { ...hopOpts, headers: headersForHop(hopOpts.headers, url, next) };
      url = next;
      continue;
    }
    const finalUrl = url.href;
    return {
      url: finalUrl,
      statusCode: head.statusCode,
      headers: head.headers,
      redirects,
      readBody: (sink) => exchange.readBody(sink).finally(() => opts.signal?.removeEventListener('abort', onAbort)),
      resume: () => exchange.resume(),
      discard: () => {
        opts.signal?.removeEventListener('abort', onAbort);
        exchange.discard();
      },
    };
  }
}
