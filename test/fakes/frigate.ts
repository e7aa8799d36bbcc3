// A stand-in for Frigate, the camera recorder (reference/home-assistant.md §6): GET /api/version,
// GET /api/events (after, limit; newest first, as Frigate answers), GET /api/events/:id/snapshot.jpg
// (a real JPEG made by sharp), GET /api/events/:id/clip.mp4 (started with `clips: true`: a real
// one-second MP4 made by Debian's ffmpeg from its testsrc2 source, with Range answered as 206 or
// 416), and, when started with a user and password (port 8971's way), POST /api/login setting the
// `frigate_token` cookie that every other call must then bring as a Bearer token. Knobs: `down`
// (connections destroyed), `garbage` (HTML answers), `clipCut` (a clip's socket destroyed after
// its first bytes), `clipSilent` (a clip request never answered).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo, Socket } from 'node:net';
import sharp from 'sharp';

export interface FakeFrigateEvent {
  id: string;
  camera: string;
  label: string;
  start_time: number;
  end_time: number | null;
  has_snapshot: boolean;
  has_clip: boolean;
  false_positive: boolean;
  zones: string[];
  thumbnail: null;
}

export interface FakeFrigate {
  url: string;
  user: string | null;
  password: string | null;
  events: FakeFrigateEvent[];
  /** Every request's method and path (credentials never recorded). */
  log: string[];
  down: boolean;
  garbage: boolean;
  clipCut: boolean;
  clipSilent: boolean;
  /** The MP4 every clip answers (empty unless started with `clips: true`). */
  clip: Buffer;
  addEvent(camera: string, label: string, opts?: { hasSnapshot?: boolean; hasClip?: boolean; startTime?: number }): FakeFrigateEvent;
  /** The frigate/events MQTT message Frigate publishes for a new event. */
  mqttNew(e: FakeFrigateEvent): string;
  close(): Promise<void>;
}

/** A one-second 64x48 H.264 MP4 from ffmpeg's test pattern (faststart, so a browser can play it while it loads). */
export async function makeTestClip(): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fake-frigate-'));
  try {
    const file = path.join(dir, 'clip.mp4');
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=64x48:rate=10', '-t', '1', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-movflags', '+faststart', '-y', file]);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function startFakeFrigate(opts: { user?: string; password?: string; clips?: boolean } = {}): Promise<FakeFrigate> {
  const jpeg = await sharp({ create: { width: 16, height: 12, channels: 3, background: { r: 200, g: 80, b: 40 } } }).jpeg().toBuffer();
  const clip = opts.clips ? await makeTestClip() : Buffer.alloc(0);
  const tokens = new Set<string>();
  const sockets = new Set<Socket>();
  const auth = Boolean(opts.user && opts.password);
  let seq = 0;

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    fake.log.push(`${req.method} ${url.pathname}`);
    if (fake.down) return void req.socket.destroy();
    if (fake.garbage) {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<html>router login</html>');
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && url.pathname === '/api/login') {
        let body: { user?: unknown; password?: unknown } = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
        } catch {
          /* a bad body is a refused sign-in */
        }
        if (!auth || body.user !== opts.user || body.password !== opts.password) {
          res.writeHead(401, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ message: 'Login failed' }));
        }
        const token = randomBytes(24).toString('base64url');
        tokens.add(token);
        res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': `frigate_token=${token}; Path=/; HttpOnly; SameSite=Lax` });
        return void res.end('{}');
      }
      if (auth && !tokens.has(String(req.headers.authorization ?? '').replace(/^Bearer /, ''))) {
        res.writeHead(401, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ message: 'Unauthorized' }));
      }
      if (url.pathname === '/api/version') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end('0.14.1-f4f3cfa');
      }
      if (url.pathname === '/api/events') {
        const after = Number(url.searchParams.get('after') ?? 0);
        const limit = Number(url.searchParams.get('limit') ?? 100);
        const list = fake.events.filter((e) => e.start_time > after).sort((a, b) => b.start_time - a.start_time).slice(0, limit);
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify(list));
      }
      const snap = /^\/api\/events\/([\w.-]+)\/snapshot\.jpg$/.exec(url.pathname);
      if (snap) {
        const e = fake.events.find((x) => x.id === snap[1]);
        if (!e?.has_snapshot) {
          res.writeHead(404, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ success: false, message: 'Event not found' }));
        }
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length });
        return void res.end(jpeg);
      }
      const video = /^\/api\/events\/([\w.-]+)\/clip\.mp4$/.exec(url.pathname);
      if (video) {
        const e = fake.events.find((x) => x.id === video[1]);
        if (!e?.has_clip || fake.clip.length === 0) {
          res.writeHead(404, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ success: false, message: 'Clip not found' }));
        }
        if (fake.clipSilent) return; // never answered: the socket stays open until the client gives up
        const all = fake.clip;
        const m = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
        let start = 0;
        let end = all.length - 1;
        let status = 200;
        if (m && (m[1] || m[2])) {
          start = m[1] ? Number(m[1]) : Math.max(0, all.length - Number(m[2]));
          end = m[1] && m[2] ? Math.min(Number(m[2]), all.length - 1) : all.length - 1;
          if (start >= all.length || start > end) {
            res.writeHead(416, { 'content-range': `bytes */${all.length}` });
            return void res.end();
          }
          status = 206;
        }
        const part = all.subarray(start, end + 1);
        res.writeHead(status, {
          'content-type': 'video/mp4',
          'content-length': part.length,
          'accept-ranges': 'bytes',
          ...(status === 206 ? { 'content-range': `bytes ${start}-${end}/${all.length}` } : {}),
        });
        if (fake.clipCut) {
          res.write(part.subarray(0, Math.min(100, part.length)));
          return void setTimeout(() => req.socket.destroy(), 20);
        }
        return void res.end(part);
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, message: 'Not found' }));
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const fake: FakeFrigate = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    user: opts.user ?? null,
    password: opts.password ?? null,
    events: [],
    log: [],
    down: false,
    garbage: false,
    clipCut: false,
    clipSilent: false,
    clip,
    addEvent(camera, label, o = {}) {
      const start = o.startTime ?? Date.now() / 1000 + ++seq / 1000;
      const e: FakeFrigateEvent = {
        id: `${start.toFixed(6)}-${randomBytes(3).toString('hex')}`,
        camera,
        label,
        start_time: start,
        end_time: null,
        has_snapshot: o.hasSnapshot ?? true,
        has_clip: o.hasClip ?? false,
        false_positive: false,
        zones: [],
        thumbnail: null,
      };
      fake.events.push(e);
      return e;
    },
    mqttNew(e) {
      return JSON.stringify({ type: 'new', before: { ...e }, after: { ...e, score: 0.8, top_score: 0.8, current_zones: [], entered_zones: [], stationary: false } });
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
