// A stand-in for a civitai-style model hub (its public REST API, v1): node:http on 127.0.0.1:0.
//   GET /api/v1/models?query=&types=LORA&baseModels=…&limit=  → {items: [{id, name, description, type,
//       nsfw, modelVersions: [{id, name, baseModel, trainedWords, files: [{id, name, sizeKB, type,
//       primary, hashes: {SHA256}, downloadUrl}], downloadUrl}]}], metadata}
//   GET /api/v1/model-versions/:id                            → one version with {model: {name, type, nsfw}}
//   GET /api/download/models/:versionId                       → 307 to /files/<name> (the CDN hop), which
//       honours Range (206 with Content-Range, 416 past the end) so a resumed download is real.
// An API key, when the test asks for one (`requireKey`), is checked as `Authorization: Bearer` on
// every route (401 without or with a wrong one, like the real hub for gated files). Failure modes,
// switched at run time: down (not listening), slow (answers held back slowMs), garbage (HTML with 200
// on the JSON routes), and `cutNext(bytes)`: the next file transfer stops after that many bytes by
// closing the connection; `holdFiles()` keeps file transfers waiting until released. Every request is recorded with its Range and Authorization headers.
import { createHash } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FakeHubMode = 'ok' | 'down' | 'slow' | 'garbage';

export interface FakeHubModel {
  id: number;
  name: string;
  description?: string;
  nsfw?: boolean;
  versions: Array<{ id: number; name?: string; baseModel: string; trainedWords?: string[]; file: { name: string; data: Buffer } }>;
}

export interface RecordedHubRequest {
  path: string;
  authorization: string | undefined;
  range: string | undefined;
  status: number;
}

export interface FakeModelHub {
  readonly url: string;
  models: FakeHubModel[];
  requests: RecordedHubRequest[];
  /** When set, every route answers 401 unless `Authorization: Bearer <key>` is sent. */
  requireKey: string | null;
  /** The next file transfer closes its connection after this many body bytes. */
  cutNext(bytes: number): void;
  /** File transfers wait (headers unsent) until the returned release is called. */
  holdFiles(): () => void;
  setMode(mode: FakeHubMode, opts?: { slowMs?: number }): Promise<void>;
  close(): Promise<void>;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex').toUpperCase();

export async function startFakeModelHub(models: FakeHubModel[] = []): Promise<FakeModelHub> {
  let mode: FakeHubMode = 'ok';
  let slowMs = 2_000;
  let cutAt: number | null = null;
  let held: Promise<void> | null = null;
  const sockets = new Set<Socket>();
  let port = 0;

  const json = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };

  const versionJson = (m: FakeHubModel, v: FakeHubModel['versions'][number]) => {
    const downloadUrl = `${state.url}/api/download/models/${v.id}`;
    return {
      id: v.id,
      modelId: m.id,
      name: v.name ?? 'v1.0',
      baseModel: v.baseModel,
      trainedWords: v.trainedWords ?? [],
      downloadUrl,
      files: [{ id: v.id * 10, name: v.file.name, sizeKB: v.file.data.length / 1024, type: 'Model', primary: true, hashes: { SHA256: sha256(v.file.data) }, downloadUrl }],
    };
  };

  const findVersion = (id: number) => {
    for (const m of state.models) for (const v of m.versions) if (v.id === id) return { m, v };
    return null;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const auth = req.headers.authorization;
    const record = (status: number) => state.requests.push({ path: url.pathname + url.search, authorization: auth, range: req.headers.range, status });
    if (mode === 'slow') await new Promise((r) => setTimeout(r, slowMs));
    if (res.destroyed) return;
    if (state.requireKey && auth !== `Bearer ${state.requireKey}`) {
      record(401);
      return json(res, 401, { error: 'Unauthorized', message: 'The API key is missing or invalid.' });
    }
    const api = url.pathname.startsWith('/api/v1/');
    if (api && mode === 'garbage') {
      record(200);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body>Under maintenance</body></html>');
      return;
    }
    if (url.pathname === '/api/v1/models') {
      const q = (url.searchParams.get('query') ?? '').toLowerCase();
      const bases = url.searchParams.getAll('baseModels');
      const types = url.searchParams.get('types');
      const limit = Number(url.searchParams.get('limit') ?? 20);
      const items = state.models
        .filter((m) => !q || m.name.toLowerCase().includes(q))
        .filter(() => !types || types === 'LORA')
        .map((m) => ({ m, versions: m.versions.filter((v) => !bases.length || bases.includes(v.baseModel)) }))
        .filter((x) => x.versions.length)
        .slice(0, limit)
        .map(({ m, versions }) => ({
          id: m.id,
          name: m.name,
          description: m.description ?? null,
          type: 'LORA',
          nsfw: m.nsfw ?? false,
          tags: [],
          modelVersions: versions.map((v) => versionJson(m, v)),
        }));
      record(200);
      return json(res, 200, { items, metadata: { totalItems: items.length, currentPage: 1, pageSize: limit } });
    }
    const ver = /^\/api\/v1\/model-versions\/(\d+)$/.exec(url.pathname);
    if (ver) {
      const found = findVersion(Number(ver[1]));
      record(found ? 200 : 404);
      if (!found) return json(res, 404, { error: `No model version with id ${ver[1]}` });
      return json(res, 200, { ...versionJson(found.m, found.v), model: { name: found.m.name, type: 'LORA', nsfw: found.m.nsfw ?? false } });
    }
    const dl = /^\/api\/download\/models\/(\d+)$/.exec(url.pathname);
    if (dl) {
      const found = findVersion(Number(dl[1]));
      record(found ? 307 : 404);
      if (!found) return json(res, 404, { error: 'Model not found' });
      res.writeHead(307, { location: `/files/${encodeURIComponent(found.v.file.name)}` }).end();
      return;
    }
    const file = /^\/files\/(.+)$/.exec(url.pathname);
    const data = file ? state.models.flatMap((m) => m.versions).find((v) => v.file.name === decodeURIComponent(file[1]!))?.file.data : undefined;
    if (!data) {
      record(404);
      return json(res, 404, { error: 'Not found' });
    }
    if (held) await held;
    if (res.destroyed) return;
    const etag = `"${sha256(data).slice(0, 16)}"`;
    let start = 0;
    let status = 200;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const ifRange = req.headers['if-range'];
    if (range && (!ifRange || ifRange === etag)) {
      start = Number(range[1]);
      if (start >= data.length) {
        record(416);
        res.writeHead(416, { 'content-range': `bytes */${data.length}` }).end();
        return;
      }
      status = 206;
    }
    record(status);
    const headers: Record<string, string | number> = { 'content-type': 'application/octet-stream', 'content-length': data.length - start, 'accept-ranges': 'bytes', etag };
    if (status === 206) headers['content-range'] = `bytes ${start}-${data.length - 1}/${data.length}`;
    res.writeHead(status, headers);
    const body = data.subarray(start);
    if (cutAt !== null) {
      const n = cutAt;
      cutAt = null;
      res.write(body.subarray(0, n), () => res.socket?.destroy());
      return;
    }
    res.end(body);
  };

  const server = http.createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const listen = (p: number) => new Promise<void>((r) => server.listen(p, '127.0.0.1', () => r()));
  await listen(0);
  port = (server.address() as AddressInfo).port;
  const stop = () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });

  const state: FakeModelHub = {
    url: `http://127.0.0.1:${port}`,
    models,
    requests: [],
    requireKey: null,
    cutNext(bytes) {
      cutAt = bytes;
    },
    holdFiles() {
      let release!: () => void;
      held = new Promise<void>((r) => (release = r));
      return () => {
        held = null;
        release();
      };
    },
    async setMode(next, opts = {}) {
      if (opts.slowMs !== undefined) slowMs = opts.slowMs;
      if (next === 'down' && mode !== 'down') await stop();
      if (next !== 'down' && mode === 'down') await listen(port);
      mode = next;
    },
    async close() {
      if (mode !== 'down') await stop();
    },
  };
  return state;
}
