// A stand-in for the home inventory API (/api/home), answered inside the browser with Playwright's
// context.route (so a tab it opens is answered too), for the web app's tests while the server parts are built on their own branches
// (inv-core, inv-ai, inv-lookup). It keeps devices in memory and answers in the shapes of
// server/modules/home-inventory/schema.ts (each answer is checked against that schema here, so the
// stand-in cannot drift from the contract). Switches let a test choose what identify says (read,
// runtime down with OCR fields) and hold or fail the list. When the real routes land, the tests
// drop this and run against the server.
import type { BrowserContext, Route } from 'playwright-core';
import {
  type Device,
  DeviceResponse,
  DevicesResponse,
  FileResponse,
  IdentifyResponse,
  ServiceEntryResponse,
  WarrantiesResponse,
  type DeviceCategory,
  type DeviceFile,
} from '../../server/modules/home-inventory/schema.js';
import type { z } from 'zod';

type DeviceRecord = z.infer<typeof Device>;

export interface InventoryStandIn {
  devices: Map<string, DeviceRecord>;
  /** What identify answers next: the fields read, or the runtime down (503 with OCR details). */
  identify: 'read' | 'runtime-down';
  /** List polls a pending lookup lasts before it completes with a manual. */
  lookupPolls: number;
  /** Requests seen, as "METHOD /path". */
  seen: string[];
  /** Makes the next list answers fail (500) until cleared. */
  failList: boolean;
  /** While set, list answers wait for it. */
  holdList: Promise<void> | null;
  /** What GET /api/reader/ai-status (the AI's readiness, which Ask reads) says. */
  aiAvailable: boolean;
  /** The question and answer text the ask stream sends. */
  answer: string;
  seed(fields: Partial<DeviceRecord> & { name: string }): DeviceRecord;
}

export const LABEL = { brand: 'Brightwater', model: 'BW-7400X', serial: 'SN 4471-0923-88', name: 'Brightwater dishwasher' } as const;
export const RAW_LABEL = `${LABEL.brand.toUpperCase()}\nMODEL ${LABEL.model}\n${LABEL.serial}\n230 V ~ 50 Hz 2000 W`;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

function send(route: Route, status: number, body: unknown, schema?: z.ZodType): Promise<void> {
  if (schema && status < 300) schema.parse(body);
  return route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
}

/** Installed on a browser context, so a tab it opens (the manual) is answered too. */
export async function installInventoryStandIn(page: BrowserContext, today = new Date().toISOString().slice(0, 10)): Promise<InventoryStandIn> {
  let n = 0;
  const id = (p: string) => `${p}${++n}`;
  const now = () => new Date().toISOString();
  const polls = new Map<string, number>();
  const state: InventoryStandIn = {
    devices: new Map(),
    identify: 'read',
    lookupPolls: 2,
    seen: [],
    failList: false,
    holdList: null,
    aiAvailable: true,
    answer: 'To descale, fill the **salt compartment** with descaler and run the *Intensive 70°* programme.',
    seed(fields) {
      const d = makeDevice(id('d'), fields);
      state.devices.set(d.id, d);
      return d;
    },
  };

  function warrantyStatus(end: string | null, days = 60): DeviceRecord['warrantyStatus'] {
    if (!end) return 'none';
    const left = Math.round((Date.parse(end) - Date.parse(today)) / 86_400_000);
    return left < 0 ? 'expired' : left <= days ? 'expiring' : 'active';
  }

  function makeDevice(did: string, f: Partial<DeviceRecord> & { name: string }): DeviceRecord {
    const d: DeviceRecord = {
      id: did,
      brand: null,
      model: null,
      serialNumber: null,
      category: 'appliance',
      location: null,
      owner: null,
      purchaseDate: null,
      warrantyExpires: null,
      warrantyStatus: 'none',
      photoUrl: null,
      lookupStatus: 'skipped',
      hasManual: false,
      canDelete: true,
      createdAt: now(),
      updatedAt: now(),
      rawLabelText: null,
      specs: {},
      manufacturedDate: null,
      purchasePrice: null,
      purchaseStore: null,
      warrantyNotes: null,
      supportUrl: null,
      supportPhone: null,
      manualUrl: null,
      manualTextChars: 0,
      manualFetchedAt: null,
      mainPhotoId: null,
      lookupError: 'Add the brand and model to have the manual looked up.',
      lookupQueuedAt: null,
      notes: null,
      createdBy: { id: 'u-member', name: 'Sam' },
      files: [],
      links: [],
      serviceLog: [],
      ...f,
    };
    d.warrantyStatus = warrantyStatus(d.warrantyExpires);
    return d;
  }

  const summary = (d: DeviceRecord) => {
    const { rawLabelText: _r, specs: _s, manufacturedDate: _m, purchasePrice: _p, purchaseStore: _ps, warrantyNotes: _wn, supportUrl: _su, supportPhone: _sp, manualUrl: _mu, manualTextChars: _mt, manualFetchedAt: _mf, mainPhotoId: _mp, lookupError: _le, lookupQueuedAt: _lq, notes: _n, createdBy: _c, files: _f, links: _l, serviceLog: _sl, ...rest } = d;
    return rest;
  };

  /** A pending lookup finishes after a few reads: a manual, a support link and a video appear. */
  function advance(d: DeviceRecord): void {
    if (d.lookupStatus !== 'pending') return;
    const seen = (polls.get(d.id) ?? 0) + 1;
    polls.set(d.id, seen);
    if (seen < state.lookupPolls) return;
    Object.assign(d, {
      lookupStatus: 'complete',
      lookupError: null,
      hasManual: true,
      manualTextChars: 18_000,
      manualUrl: 'https://brightwater.example/manuals/bw-7400x.pdf',
      manualFetchedAt: now(),
      supportPhone: '+44 20 7946 0000',
      links: [
        { id: id('l'), deviceId: d.id, category: 'manual', label: 'BW-7400X user manual', url: 'https://brightwater.example/manuals/bw-7400x.pdf', source: 'ai', createdAt: now() },
        { id: id('l'), deviceId: d.id, category: 'video', label: 'Descaling your Brightwater', url: 'https://video.example/watch?v=descale', source: 'ai', createdAt: now() },
      ],
    });
  }

  function save(d: DeviceRecord, body: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(body)) (d as Record<string, unknown>)[k] = v === '' ? null : v;
    d.updatedAt = now();
    d.warrantyStatus = warrantyStatus(d.warrantyExpires);
    // saving a brand and model starts the lookup, as the server does
    if (d.brand && d.model && (d.lookupStatus === 'skipped' || 'brand' in body)) {
      d.lookupStatus = 'pending';
      d.lookupError = null;
      polls.set(d.id, 0);
    }
  }

  await page.route(/\/api\/tools$/, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { tools: Array<Record<string, unknown>> };
    if (!body.tools.some((t) => t.id === 'inventory')) {
      body.tools.push({ ...body.tools[0], id: 'inventory', name: 'Home inventory', enabled: true, available: true, unavailableReason: null, fix: null });
    }
    await route.fulfill({ response: res, json: body });
  });

  await page.route(/\/api\/reader\/ai-status$/, (route) =>
    send(route, 200, state.aiAvailable ? { available: true, unavailableReason: null, fix: null } : { available: false, unavailableReason: 'The AI models are not running.', fix: 'An admin can start them under Admin → Models.' }),
  );

  await page.route(/\/api\/home\//, async (route) => {
    const req = route.request();
    const url = new URL(req.url());
    const method = req.method();
    const path = url.pathname.replace(/^\/api\/home/, '');
    state.seen.push(`${method} ${url.pathname}${url.search}`);
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    const device = parts[0] === 'devices' && parts[1] ? state.devices.get(parts[1]) : undefined;

    if (path === '/devices' && method === 'GET') {
      if (state.holdList) await state.holdList;
      if (state.failList) return send(route, 500, { error: { code: 'internal_error', message: 'Hearth had a problem answering. Please try again in a moment.' } });
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const cat = url.searchParams.get('category');
      const all = [...state.devices.values()];
      all.forEach(advance);
      const matching = all.filter((d) => !q || [d.name, d.brand, d.model, d.category, d.location].some((v) => v?.toLowerCase().includes(q)));
      const categories = Object.fromEntries((['appliance', 'electronics', 'vehicle', 'tool', 'furniture', 'other'] as DeviceCategory[]).map((c) => [c, matching.filter((d) => d.category === c).length]));
      return send(route, 200, { devices: matching.filter((d) => !cat || d.category === cat).map(summary), categories }, DevicesResponse);
    }
    if (path === '/devices' && method === 'POST') {
      const body = req.postDataJSON() as Record<string, unknown>;
      const d = makeDevice(id('d'), { name: String(body.name) });
      save(d, body);
      state.devices.set(d.id, d);
      return send(route, 201, { device: d }, DeviceResponse);
    }
    if (path === '/warranties' && method === 'GET') {
      const days = Number(url.searchParams.get('days') ?? 60);
      const rows = [...state.devices.values()]
        .filter((d) => d.warrantyExpires)
        .map((d) => ({ ...summary(d), warrantyStatus: warrantyStatus(d.warrantyExpires, days), daysLeft: Math.round((Date.parse(d.warrantyExpires!) - Date.parse(today)) / 86_400_000) }));
      return send(route, 200, { today, days, expiring: rows.filter((r) => r.daysLeft >= 0 && r.daysLeft <= days), expired: rows.filter((r) => r.daysLeft < 0) }, WarrantiesResponse);
    }
    if (parts[0] === 'devices' && !device) return send(route, 404, { error: { code: 'not_found', message: 'That device is not in the inventory.' } });
    const d = device!;
    const sub = parts[2];
    if (!sub) {
      if (method === 'GET') {
        advance(d);
        return send(route, 200, { device: d }, DeviceResponse);
      }
      if (method === 'PATCH') {
        save(d, req.postDataJSON() as Record<string, unknown>);
        return send(route, 200, { device: d }, DeviceResponse);
      }
      if (method === 'DELETE') {
        state.devices.delete(d.id);
        return route.fulfill({ status: 204 });
      }
    }
    if (sub === 'files' && method === 'POST') {
      const buf = req.postDataBuffer() ?? Buffer.alloc(0);
      const isImage = buf.includes(Buffer.from('Content-Type: image/'));
      const role = /name="role"\r\n\r\n(\w+)/.exec(buf.toString('latin1'))?.[1];
      const name = /filename="([^"]+)"/.exec(buf.toString('latin1'))?.[1] ?? 'file';
      const fid = id('f');
      const file: DeviceFile = {
        id: fid,
        deviceId: d.id,
        label: name,
        fileType: isImage ? 'image' : name.endsWith('.pdf') ? 'pdf' : 'other',
        contentType: isImage ? 'image/png' : 'application/pdf',
        bytes: buf.length,
        source: 'user',
        comment: null,
        url: `/api/home/devices/${d.id}/files/${fid}`,
        thumbUrl: isImage ? `/api/home/devices/${d.id}/files/${fid}?thumb=1` : null,
        createdAt: now(),
      };
      d.files.push(file);
      if (isImage && (role === 'main' || !d.mainPhotoId)) {
        d.mainPhotoId = fid;
        d.photoUrl = `/api/home/devices/${d.id}/photo?thumb=1`;
      }
      return send(route, 201, { file }, FileResponse);
    }
    if (sub === 'identify' && method === 'POST') {
      const fields = { name: null, brand: LABEL.brand, model: LABEL.model, serialNumber: LABEL.serial, category: 'appliance' as const, manufacturedDate: '2024-03', labelSpecs: { Voltage: '230 V ~ 50 Hz', Power: '2000 W' }, confidence: 0.86 };
      d.rawLabelText = RAW_LABEL;
      if (state.identify === 'runtime-down') {
        return send(route, 503, {
          error: { code: 'model_runtime_unavailable', message: 'The AI models are not running, so only the label text was read.', details: { rawLabelText: RAW_LABEL, fields: { ...fields, name: null, category: null, manufacturedDate: null, labelSpecs: {}, confidence: 0 } } },
        });
      }
      return send(route, 200, { fields: { ...fields, name: LABEL.name }, rawLabelText: RAW_LABEL, passes: { ocr: { chars: RAW_LABEL.length, confidence: 88, ms: 900 }, transcription: false, description: 'A white dishwasher front.', reconcile: true } }, IdentifyResponse);
    }
    if (sub === 'lookup' && method === 'POST') {
      d.lookupStatus = 'pending';
      polls.set(d.id, 0);
      return send(route, 202, { device: summary(d) });
    }
    if (sub === 'manual' && method === 'GET') {
      if (!d.hasManual) return send(route, 404, { error: { code: 'not_found', message: 'This device has no manual yet.' } });
      return route.fulfill({ status: 200, contentType: 'application/pdf', body: PDF });
    }
    if (sub === 'maintenance' && method === 'GET') {
      return send(route, 200, {
        suggestions: [{ id: 'm1', description: 'Clean the filter', interval: 'every 6 months', intervalDays: 182, quote: 'Clean the filter every 6 months.', dueDate: today }],
      });
    }
    if (sub === 'service' && method === 'POST') {
      const body = req.postDataJSON() as { date: string; type: 'maintenance'; description: string; technician?: string | null; cost?: number | null };
      const entry = { id: id('s'), deviceId: d.id, date: body.date, type: body.type, description: body.description, technician: body.technician ?? null, cost: body.cost ?? null, createdAt: now() };
      d.serviceLog.push(entry);
      return send(route, 201, { entry }, ServiceEntryResponse);
    }
    if (sub === 'ask' && method === 'POST') {
      const words = state.answer.split(/(?<= )/);
      const frames = [...words.map((w) => `event: token\ndata: ${JSON.stringify({ text: w })}\n\n`), `event: sources\ndata: ${JSON.stringify({ manualParagraphs: 2, manualCovered: true })}\n\n`, `event: done\ndata: ${JSON.stringify({ status: 'complete' })}\n\n`];
      return route.fulfill({ status: 200, contentType: 'text/event-stream', body: frames.join('') });
    }
    if ((sub === 'files' || sub === 'photo') && method === 'GET') {
      // the photos: a tiny PNG is enough for the page to show something
      return route.fulfill({ status: 200, contentType: 'image/png', body: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64') });
    }
    return send(route, 404, { error: { code: 'not_found', message: 'That is not part of the stand-in.' } });
  });
  return state;
}
