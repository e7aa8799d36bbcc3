// The model hub for LoRAs (/api/admin/image-loras: civitai-search, civitai-import, hub-key)
// against the civitai-style fake: search with the base family filter, an import whose connection
// is cut mid-file and resumes through the durable download queue (a Range request for the rest),
// the file landing in the loras folder and registered with the hub's trigger words, family and
// nsfw flag; the API key kept server-side (sent to the hub, never answered or logged); the hub
// down or talking nonsense as a sentence; admin only. Imports are registered by the real LoRA
// service into the engine's loras folder (DATA_DIR/image-engine/models/loras with no engine set up).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelHub, type FakeModelHub } from '../fakes/model-hub.js';
import { until } from '../harness/net.js';
import { damagedSafetensors, PICKLE_BYTES, safetensorsFile } from '../harness/safetensors.js';
import { connectSse } from '../harness/sse-client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const KEY = 'hub-secret-key-8f3a2c';
const BASE = '/api/admin/image-loras';

function parseSse(text: string): Array<{ event: string; data: any }> {
  const out: Array<{ event: string; data: any }> = [];
  for (const frame of text.split('\n\n')) {
    let event = 'message';
    const data: string[] = [];
    for (const line of frame.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trim());
    }
    if (data.length) out.push({ event, data: JSON.parse(data.join('\n')) });
  }
  return out;
}

const WATERCOLOR = safetensorsFile({}, 3 * 1024 * 1024, 7);
const PIXEL = safetensorsFile({}, 200 * 1024, 9);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('model hub for LoRAs', () => {
  let hub: FakeModelHub;
  let s: TestServer;
  /** Every body any route answered, to check the key never appears in one. */
  const answered: string[] = [];
  const keep = <T extends { text: string }>(r: T): T => {
    answered.push(r.text);
    return r;
  };

  beforeAll(async () => {
    hub = await startFakeModelHub([
      {
        id: 101,
        name: 'Soft Watercolor',
        description: '<p>Gentle <b>watercolor</b> washes &amp; paper texture.</p>',
        versions: [{ id: 5001, baseModel: 'SDXL 1.0', trainedWords: ['watercolor style', ' soft wash '], file: { name: 'soft_watercolor_xl.safetensors', data: WATERCOLOR } }],
      },
      { id: 102, name: 'Pixel Watercolor', nsfw: true, versions: [{ id: 5002, baseModel: 'SD 1.5', trainedWords: ['pixelwc'], file: { name: '../../pixel wc.safetensors', data: PIXEL } }] },
      { id: 103, name: 'Watercolor Installer', versions: [{ id: 5003, baseModel: 'SDXL 1.0', file: { name: 'setup.exe', data: Buffer.from('MZ') } }] },
    ]);
    s = await startTestServer({
      seed: 'household',
      config: { modelHubUrl: hub.url, fetchAllowOrigins: [hub.url] },
      overrides: { tuning: { downloadBackoffBaseMs: 20 } },
    });
  });
  afterAll(async () => {
    await s?.close();
    await hub?.close();
  });

  it('searches the hub for LoRAs: family, trigger words, plain-text description, adult from the nsfw flag', async () => {
    const r = keep(await s.admin.post(`${BASE}/civitai-search`, { query: 'watercolor' }));
    expect(r.status).toBe(200);
    const byId = Object.fromEntries((r.body.results as any[]).map((x) => [x.externalId, x]));
    expect(byId['5001']).toEqual({
      externalId: '5001',
      name: 'Soft Watercolor',
      description: 'Gentle watercolor washes & paper texture.',
      baseFamily: 'sdxl',
      triggerWords: ['watercolor style', 'soft wash'],
      fileName: 'soft_watercolor_xl.safetensors',
      bytes: WATERCOLOR.length,
      isAdult: false,
      importedAs: null,
    });
    expect(byId['5002']).toMatchObject({ baseFamily: 'sd15', isAdult: true });
    expect(hub.requests.at(-1)!.path).toContain('types=LORA');

    const sd15 = keep(await s.admin.post(`${BASE}/civitai-search`, { query: 'watercolor', baseFamily: 'sd15' }));
    expect((sd15.body.results as any[]).map((x) => x.externalId)).toEqual(['5002']);
    expect(hub.requests.at(-1)!.path).toContain('baseModels=SD+1.5');
  });

  it('refuses bad input with a 400 and an unknown LoRA with a 404', async () => {
    expect(keep(await s.admin.post(`${BASE}/civitai-search`, { query: '  ' })).status).toBe(400);
    expect(keep(await s.admin.post(`${BASE}/civitai-search`, { query: 'x', baseFamily: 'sd9' })).status).toBe(400);
    expect(keep(await s.admin.post(`${BASE}/civitai-import`, {})).status).toBe(400);
    const missing = keep(await s.admin.post(`${BASE}/civitai-import`, { externalId: '999999' }));
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toMatch(/no such LoRA/);
    const exe = keep(await s.admin.post(`${BASE}/civitai-import`, { externalId: '5003' }));
    expect(exe.status).toBe(422);
    expect(exe.body.error.code).toBe('unsupported_lora_file');
  });

  it('imports a LoRA whose download is cut mid-file: the queue resumes from where it stopped and the LoRA is registered', async () => {
    const cutAt = 1024 * 1024 + 123;
    hub.cutNext(cutAt);
    const r = keep(await s.admin.post(`${BASE}/civitai-import`, { externalId: '5001' }));
    expect(r.status).toBe(200);
    const events = parseSse(r.text);
    const done = events.find((e) => e.event === 'done');
    expect(events.filter((e) => e.event === 'error')).toEqual([]);
    expect(done?.data.lora).toMatchObject({
      name: 'Soft Watercolor',
      filePath: 'soft_watercolor_xl.safetensors',
      fileBytes: WATERCOLOR.length,
      triggerTokens: ['watercolor style', 'soft wash'],
      baseFamilies: ['sdxl'],
      isAdult: false,
      externalId: '5001',
    });
    // the second attempt asked for the rest only, and got it
    const fileRequests = hub.requests.filter((q) => q.path.startsWith('/files/'));
    expect(fileRequests.map((q) => q.status)).toEqual([200, 206]);
    expect(fileRequests[0]!.range).toBeUndefined();
    const resumedFrom = Number(/^bytes=(\d+)-$/.exec(fileRequests[1]!.range ?? '')?.[1]);
    expect(resumedFrom).toBeGreaterThan(0);
    expect(resumedFrom).toBeLessThanOrEqual(cutAt);
    // the file is whole, in the loras folder, and nothing partial is left behind
    const file = path.join(s.dataDir, 'image-engine', 'models', 'loras', 'soft_watercolor_xl.safetensors');
    expect(sha(readFileSync(file))).toBe(sha(WATERCOLOR));
    expect(existsSync(`${file}.part`)).toBe(false);

    // search now says it is imported, and a second import is refused
    const again = keep(await s.admin.post(`${BASE}/civitai-search`, { query: 'soft' }));
    expect(again.body.results[0].importedAs).toBe(done!.data.lora.id);
    const twice = keep(await s.admin.post(`${BASE}/civitai-import`, { externalId: '5001' }));
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('already_imported');
  });

  it('keeps a hub file name inside the loras folder and marks an nsfw LoRA adult', async () => {
    const r = keep(await s.admin.post(`${BASE}/civitai-import`, { externalId: '5002' }));
    const done = parseSse(r.text).find((e) => e.event === 'done');
    expect(done?.data.lora).toMatchObject({ filePath: 'pixel_wc.safetensors', isAdult: true, baseFamilies: ['sd15'], triggerTokens: ['pixelwc'] });
    expect(sha(readFileSync(path.join(s.dataDir, 'image-engine', 'models', 'loras', 'pixel_wc.safetensors')))).toBe(sha(PIXEL));
  });

  it('registers the LoRA when the queue finishes its download, even after the admin closed the import', async () => {
    hub.models.push({ id: 106, name: 'Night Ink', versions: [{ id: 5006, baseModel: 'SDXL 1.0', trainedWords: ['night ink'], file: { name: 'night_ink.safetensors', data: safetensorsFile({}, 96 * 1024, 5) } }] });
    const release = hub.holdFiles();
    const stream = await connectSse(s.url, `${BASE}/civitai-import`, { cookie: s.admin.cookie! }, { body: { externalId: '5006' } });
    try {
      expect(stream.status).toBe(200);
      const first = await stream.waitFor((e) => e.event === 'progress');
      expect(['waiting', 'downloading']).toContain(first.data.state);
    } finally {
      stream.close();
      release();
    }
    const found = await until(async () => {
      const r = await s.admin.post(`${BASE}/civitai-search`, { query: 'night ink' });
      return r.body.results?.[0]?.importedAs as string | null;
    }, 'the LoRA registered by the queue\'s completion');
    expect(found).toBeTruthy();
    expect(existsSync(path.join(s.dataDir, 'image-engine', 'models', 'loras', 'night_ink.safetensors'))).toBe(true);
  });

  it('refuses a downloaded file that is not a readable .safetensors (the upload\'s own check): an error event, no LoRA, no file left', async () => {
    const damaged = Object.entries({ ...damagedSafetensors(), 'a pickle named .safetensors': PICKLE_BYTES });
    damaged.forEach(([, data], i) => hub.models.push({ id: 300 + i, name: `Damaged ${i}`, versions: [{ id: 7000 + i, baseModel: 'SDXL 1.0', file: { name: `damaged_${i}.safetensors`, data } }] }));
    for (const [i, [what]] of damaged.entries()) {
      const r = keep(await s.admin.post(`${BASE}/civitai-import`, { externalId: String(7000 + i) }));
      expect(r.status, what).toBe(200);
      const events = parseSse(r.text);
      expect(events.filter((e) => e.event === 'done'), what).toEqual([]);
      expect(events.find((e) => e.event === 'error')?.data, what).toMatchObject({ code: 'invalid_safetensors', message: expect.stringMatching(/not a LoRA Hearth can read/) });
    }
    const { loras } = (await s.admin.get(BASE)).body as { loras: Array<{ externalId: string | null }> };
    expect(loras.filter((l) => l.externalId?.startsWith('70'))).toEqual([]);
    const folder = path.join(s.dataDir, 'image-engine', 'models', 'loras');
    expect(readdirSync(folder).filter((f) => f.startsWith('damaged_'))).toEqual([]);
    expect(readdirSync(path.join(s.dataDir, 'models', 'loras')).filter((f) => f.startsWith('damaged_'))).toEqual([]);
  });

  it('refuses pickle formats (.ckpt, .pt, .pth, .bin) before downloading them, with a sentence', async () => {
    const exts = ['.ckpt', '.pt', '.pth', '.bin'];
    exts.forEach((ext, i) => hub.models.push({ id: 400 + i, name: `Pickled ${ext}`, versions: [{ id: 8000 + i, baseModel: 'SD 1.5', file: { name: `pickled${ext}`, data: PICKLE_BYTES } }] }));
    for (const [i, ext] of exts.entries()) {
      const r = keep(await s.admin.post(`${BASE}/civitai-import`, { externalId: String(8000 + i) }));
      expect(r.status, ext).toBe(422);
      expect(r.body.error, ext).toEqual({ code: 'pickle_lora_refused', message: expect.stringMatching(/can run code.*\.safetensors/) });
    }
    expect(hub.requests.filter((q) => q.path.startsWith('/files/pickled'))).toEqual([]);
  });

  it('still imports a real .safetensors whose header the check reads', async () => {
    hub.models.push({ id: 501, name: 'Real Ink', versions: [{ id: 9001, baseModel: 'SDXL 1.0', file: { name: 'real_ink.safetensors', data: safetensorsFile({ ss_output_name: 'ink' }, 8 * 1024) } }] });
    const r = keep(await s.admin.post(`${BASE}/civitai-import`, { externalId: '9001' }));
    expect(parseSse(r.text).find((e) => e.event === 'done')?.data.lora).toMatchObject({ externalId: '9001', filePath: 'real_ink.safetensors', enabled: true });
  });

  it('keeps the API key server-side: sent to the hub as a header, answered only as set or not', async () => {
    hub.requireKey = KEY;
    try {
      const before = keep(await s.admin.get(`${BASE}/hub-key`));
      expect(before.body).toEqual({ set: false });
      const refused = keep(await s.admin.post(`${BASE}/civitai-search`, { query: 'watercolor' }));
      expect(refused.status).toBe(502);
      expect(refused.body.error).toMatchObject({ code: 'model_hub_key_rejected' });
      expect(refused.body.error.message).toMatch(/asks for an API key/);

      expect(keep(await s.admin.put(`${BASE}/hub-key`, { key: 'short' })).status).toBe(400);
      const saved = keep(await s.admin.put(`${BASE}/hub-key`, { key: KEY }));
      expect(saved.status).toBe(200);
      expect(saved.body).toEqual({ set: true });
      expect(keep(await s.admin.get(`${BASE}/hub-key`)).body).toEqual({ set: true });

      const found = keep(await s.admin.post(`${BASE}/civitai-search`, { query: 'watercolor' }));
      expect(found.status).toBe(200);
      expect(hub.requests.at(-1)!.authorization).toBe(`Bearer ${KEY}`);

      // a gated download: the queue's executor sends the key too
      hub.models.push({ id: 104, name: 'Gated Ink', versions: [{ id: 5004, baseModel: 'Flux.1 D', file: { name: 'gated_ink.safetensors', data: safetensorsFile({}, 64 * 1024, 3) } }] });
      const imported = keep(await s.admin.post(`${BASE}/civitai-import`, { externalId: '5004' }));
      expect(parseSse(imported.text).find((e) => e.event === 'done')?.data.lora).toMatchObject({ externalId: '5004', baseFamilies: ['flux'] });
      expect(hub.requests.filter((q) => q.path.startsWith('/files/gated')).map((q) => [q.authorization, q.status])).toEqual([[`Bearer ${KEY}`, 200]]);

      // a wrong key is a sentence about the key
      keep(await s.admin.put(`${BASE}/hub-key`, { key: 'not-the-right-key' }));
      const wrong = keep(await s.admin.post(`${BASE}/civitai-search`, { query: 'watercolor' }));
      expect(wrong.status).toBe(502);
      expect(wrong.body.error.message).toMatch(/did not accept the saved API key/);

      const removed = await s.admin.delete(`${BASE}/hub-key`);
      expect(removed.status).toBe(204);
      expect(keep(await s.admin.get(`${BASE}/hub-key`)).body).toEqual({ set: false });
      answered.push(keep(await s.admin.get('/api/jobs')).text);
    } finally {
      hub.requireKey = null;
    }
    // never in an answer (the download queue's jobs included) nor in a log line
    expect(answered.filter((t) => t.includes(KEY))).toEqual([]);
    expect(s.logger.lines.filter((l) => JSON.stringify(l).includes(KEY))).toEqual([]);
  });

  it('says in a sentence when the hub is down or answers nonsense', async () => {
    await hub.setMode('down');
    try {
      const down = keep(await s.admin.post(`${BASE}/civitai-search`, { query: 'watercolor' }));
      expect(down.status).toBe(503);
      expect(down.body.error).toEqual({ code: 'model_hub_unavailable', message: expect.stringMatching(/could not be reached/) });
      const importDown = keep(await s.admin.post(`${BASE}/civitai-import`, { externalId: '5003' }));
      expect(importDown.status).toBe(503);
      expect(importDown.body.error.message).toMatch(/could not be reached/);
    } finally {
      await hub.setMode('ok');
    }
    await hub.setMode('garbage');
    try {
      const garbage = keep(await s.admin.post(`${BASE}/civitai-search`, { query: 'watercolor' }));
      expect(garbage.status).toBe(503);
      expect(garbage.body.error.message).toMatch(/could not read/);
    } finally {
      await hub.setMode('ok');
    }
  });

  it('is for admins only: anonymous 401, a member 403', async () => {
    const routes: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown]> = [
      ['POST', `${BASE}/civitai-search`, { query: 'watercolor' }],
      ['POST', `${BASE}/civitai-import`, { externalId: '5001' }],
      ['GET', `${BASE}/hub-key`, undefined],
      ['PUT', `${BASE}/hub-key`, { key: KEY }],
      ['DELETE', `${BASE}/hub-key`, undefined],
    ];
    for (const [method, p, body] of routes) {
      const anon = keep(await s.anon.req(method, p, body));
      expect(anon.status, `${method} ${p}`).toBe(401);
      const member = keep(await s.member.req(method, p, body));
      expect(member.status, `${method} ${p}`).toBe(403);
    }
    expect(keep(await s.admin.get(`${BASE}/hub-key`)).body).toEqual({ set: false });
  });
});
