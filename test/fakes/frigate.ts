// A stand-in for Frigate, the camera recorder (reference/home-assistant.md §6): GET /api/version,
// GET /api/events (after, limit; newest first, as Frigate answers), GET /api/events/:id/snapshot.jpg
// (a real JPEG made by sharp), and, when started with a user and password (port 8971's way), POST
// /api/login setting the `frigate_token` cookie that every other call must then bring as a Bearer
// token. Knobs: `down` (connections destroyed), `garbage` (HTML answers).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
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
  addEvent(camera: string, label: string, opts?: { hasSnapshot?: boolean; startTime?: number }): FakeFrigateEvent;
  /** The frigate/events MQTT message Frigate publishes for a new event. */
  mqttNew(e: FakeFrigateEvent): string;
  close(): Promise<void>;
}

export async function startFakeFrigate(opts: { user?: string; password?: string } = {}): Promise<FakeFrigate> {
  const jpeg = await sharp({ create: { width: 16, height: 12, channels: 3, background: { r: 200, g: 80, b: 40 } } }).jpeg().toBuffer();
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
    addEvent(camera, label, o = {}) {
      const start = o.startTime ?? Date.now() / 1000 + ++seq / 1000;
      const e: FakeFrigateEvent = {
        id: `${start.toFixed(6)}-${randomBytes(3).toString('hex')}`,
        camera,
        label,
        start_time: start,
        end_time: null,
        has_snapshot: o.hasSnapshot ?? true,
        has_clip: false,
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
