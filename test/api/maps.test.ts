// Offline maps (issue 36): the region catalog, a region downloaded through the durable queue
// (resumed after a cut, a checksum the catalog disagrees with refused at once, a file that is not a
// region refused), its vector tiles (gzip passed through, ETag/304, 204/404/400 edges, decoded with
// a real MVT reader), the style, removal, and who may do what. The region is the real "Fixtureton"
// made by test/fixtures/maps/make-test-region.ts (osmium + tilemaker + the PMTiles writer).
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routingAppError } from '../../server/adapter-errors/routing.js';
import { RegionFiles } from '../../server/modules/maps/region-files.js';
import { findRoutino, RoutingError } from '../../server/adapters/routing/routino.js';
import { FakeFileServer, sha256 } from '../fakes/file-server.js';
import { startFakeGeocoder } from '../fakes/geocoder.js';
import { until } from '../harness/net.js';
import { writePmtiles, type WriterTile } from '../harness/pmtiles-writer.js';
import { connectSse } from '../harness/sse-client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { catalogRegion, FIXTURETON_BBOX as BBOX, FIXTURETON_TILES_PATH, fixturetonRegion, fixturetonTiles, writeMapCatalog } from '../harness/maps.js';
import { makeTempDir } from '../harness/temp-dir.js';


/** The z/x/y of the tile holding lon/lat. */
function tileOf(lon: number, lat: number, z: number): [number, number, number] {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const r = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  return [z, x, y];
}

describe('offline maps: regions and tiles', () => {
  let s: TestServer;
  const files = new FakeFileServer();
  const temp = makeTempDir('hearth-maps-');
  const town = fixturetonTiles();
  const notARegion = Buffer.from('this is a text file, not a PMTiles region\n'.repeat(40));

  beforeAll(async () => {
    await files.start();
    const region = (id: string, name: string, file: string, data: Buffer, sum?: string) => catalogRegion(files, id, name, file, data, sum);
    const catalog = writeMapCatalog(temp.dir, [fixturetonRegion(files), region('stale-catalog', 'Stale catalog', 'stale.pmtiles', town, sha256(Buffer.from('another file'))), region('not-a-region', 'Not a region', 'notes.pmtiles', notARegion)]);
    // the first transfer of the town is cut after 1 KB: the queue tries again
    files.behave('town.pmtiles', { dropAfterBytes: 1024, dropTimes: 1 });
    s = await startTestServer({ seed: 'household', config: { mapCatalogPath: catalog, fetchAllowOrigins: [files.url], searchPath: ['/usr/bin', '/bin'] }, overrides: { tuning: { downloadBackoffBaseMs: 20 } } });
  });
  afterAll(async () => {
    await s?.close();
    await files.close();
    temp.remove();
  });

  const download = async (regionId: string) => {
    const sse = await connectSse(s.url, `/api/admin/maps/download/${regionId}`, { cookie: s.admin.cookie!, origin: s.url }, { body: {} });
    await sse.ended;
    return sse;
  };
  /** A tile as sent: node:http, so the gzip body is not decoded on the way. */
  const tile = (p: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get(`${s.url}/api/maps/tiles/${p}`, { headers: { cookie: s.member.cookie!, ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });

  it('keeps the catalog and downloads to admins, and the region list to the signed-in', async () => {
    expect((await s.anon.get('/api/maps/regions')).status).toBe(401);
    expect((await s.anon.get('/api/maps/tiles/fixtureton/14/8206/5397.mvt')).status).toBe(401);
    expect((await s.member.get('/api/admin/maps/catalog')).status).toBe(403);
    expect((await s.member.post('/api/admin/maps/download/fixtureton', {})).status).toBe(403);
    expect((await s.member.delete('/api/admin/maps/fixtureton')).status).toBe(403);
    const none = await s.member.get('/api/maps/regions');
    expect(none.status).toBe(200);
    expect(none.body.regions).toEqual([]);
    const catalog = await s.admin.get('/api/admin/maps/catalog');
    expect(catalog.status).toBe(200);
    expect(catalog.body.regions.map((r: any) => [r.id, r.installed, r.downloading])).toEqual([
      ['fixtureton', false, false],
      ['stale-catalog', false, false],
      ['not-a-region', false, false],
    ]);
    expect(typeof catalog.body.freeBytes).toBe('number');
    // the file's address and checksum are the server's business
    expect(JSON.stringify(catalog.body)).not.toContain(files.url);
    expect((await s.admin.post('/api/admin/maps/download/nowhere', {})).status).toBe(404);
    expect((await s.admin.post('/api/admin/maps/download/Bad%20Id', {})).status).toBe(400);
  });

  it('downloads a region through the queue, trying again after a cut, and installs it', async () => {
    const sse = await download('fixtureton');
    expect(sse.status).toBe(200);
    const done = sse.events.find((e) => e.event === 'done');
    expect(sse.events.filter((e) => e.event === 'error')).toEqual([]);
    expect(done?.data.region).toMatchObject({ id: 'fixtureton', name: 'Fixtureton', minzoom: 0, maxzoom: 14, bytes: town.length, directions: 'ready', directionsError: null });
    expect(sse.events.some((e) => e.event === 'progress' && e.data.state === 'directions')).toBe(true);
    expect(sse.events.some((e) => e.event === 'progress' && e.data.state === 'installing')).toBe(true);
    // the cut transfer was tried again by the queue (how it resumes with Range: test/api/downloads.test.ts)
    expect(files.requests.filter((r) => r.path === 'town.pmtiles')).toHaveLength(2);
    expect(readFileSync(path.join(s.dataDir, 'maps', 'fixtureton.pmtiles')).equals(town)).toBe(true);
    const regions = await s.member.get('/api/maps/regions');
    expect(regions.body.regions.map((r: any) => r.id)).toEqual(['fixtureton']);
    expect((await s.admin.get('/api/admin/maps/catalog')).body.regions[0]).toMatchObject({ id: 'fixtureton', installed: true });
  });

  it('serves its tiles as stored: gzip MVT with the town\'s streets, ETag and 304', async () => {
    const [z, x, y] = tileOf(0.31, 52.195, 14);
    const r = await tile(`fixtureton/${z}/${x}/${y}.mvt`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(r.headers['cache-control']).toBe('private, max-age=86400');
    const etag = r.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const vt = new VectorTile(new PbfReader(new Uint8Array(gunzipSync(r.body))));
    const layer = vt.layers.transportation_name!;
    const names = Array.from({ length: layer.length }, (_, i) => layer.feature(i).properties['name:latin']);
    expect(names).toEqual(expect.arrayContaining(['High Street', 'Oak Street', 'Mill Lane']));
    expect(Object.keys(vt.layers)).toEqual(expect.arrayContaining(['place', 'poi', 'transportation']));
    const again = await tile(`fixtureton/${z}/${x}/${y}.mvt`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('answers the edges like the reference tile server: 204 empty, 404 outside the zooms or the region, 400 bad paths', async () => {
    // inside the zoom range, a tile far from the town: the region has nothing there
    const [z, x, y] = tileOf(-70, -30, 10);
    const empty = await tile(`fixtureton/${z}/${x}/${y}.mvt`);
    expect(empty.status).toBe(204);
    expect(empty.body.length).toBe(0);
    const [z15, x15, y15] = tileOf(0.31, 52.195, 15);
    const deeper = await tile(`fixtureton/${z15}/${x15}/${y15}.mvt`);
    expect(deeper.status).toBe(404);
    expect(JSON.parse(deeper.body.toString()).error.message).toMatch(/zoom 0 to 14/);
    expect((await tile('fixtureton/2/4/1.mvt')).status).toBe(404); // x past the edge of zoom 2
    expect((await tile('elsewhere/14/8206/5397.mvt')).status).toBe(404);
    const png = await tile('fixtureton/14/8206/5397.png');
    expect(png.status).toBe(400);
    expect(JSON.parse(png.body.toString()).error.message).toMatch(/\.mvt/);
    for (const bad of ['fixtureton/x/1/1.mvt', 'fixtureton/14/1/abc.mvt', '..%2F..%2Fhearth.db/1/1/1.mvt', 'fixtureton/99/1/1.mvt']) {
      expect((await tile(bad)).status, bad).toBe(400);
    }
  });

  it('finds the town\'s streets and places as you type, and the world\'s cities, nearest first', async () => {
    const find = async (q: string, extra = '') => {
      const r = await s.member.get(`/api/maps/geocode?q=${encodeURIComponent(q)}${extra}`);
      expect(r.status, q).toBe(200);
      expect(r.body.notice).toBeNull();
      return r.body.results as Array<{ name: string; kind: string; source: string; country: string | null; region: string | null; lat: number; lon: number }>;
    };
    const street = (await find('high st'))[0];
    expect(street).toMatchObject({ name: 'High Street', kind: 'street', source: 'region', region: 'Fixtureton' });
    expect(street!.lat).toBeCloseTo(52.19, 3);
    // near the town its own Oak Street comes before Oakington, a real village 15 km away
    expect((await find('oak', '&near=52.195,0.31'))[0]).toMatchObject({ name: 'Oak Street', kind: 'street' });
    expect((await find('copper kett'))[0]).toMatchObject({ name: 'The Copper Kettle', kind: 'cafe' });
    expect((await find('fixtureton'))[0]).toMatchObject({ name: 'Fixtureton', kind: 'town' });
    // GeoNames cities (diacritics folded); which Cambridge comes first depends on where you are
    expect((await find('zurich'))[0]).toMatchObject({ name: 'Zürich', country: 'Switzerland', source: 'cities' });
    expect((await find('cambridge', '&near=52.195,0.31'))[0]).toMatchObject({ name: 'Cambridge', country: 'United Kingdom' });
    expect((await find('cambridge', '&near=42.37,-71.11'))[0]).toMatchObject({ name: 'Cambridge', country: 'United States', region: 'MA' });
    expect(await find('cambridge', '&limit=3')).toHaveLength(3);
    expect(await find('qqxqzz')).toEqual([]);
    for (const bad of ['', '?q=', '?q=paris&near=north', '?q=paris&near=95,0', '?q=paris&limit=0', '?q=paris&limit=500', '?q=%22%29%28']) {
      const r = await s.member.get(`/api/maps/geocode${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.error.message).toEqual(expect.any(String));
    }
    expect((await s.anon.get('/api/maps/geocode?q=paris')).status).toBe(401);
  });

  it('adds an admin\'s online geocoder on Enter, drops the places it repeats, and falls back to offline results when it fails', async () => {
    const photon = await startFakeGeocoder('photon', [
      { name: 'Copper Kettle Bakery', street: 'Mill Lane', housenumber: '4', city: 'Fixtureton', country: 'United Kingdom', lat: 52.1946, lon: 0.3049, kind: 'bakery' },
      // the same café the region already has: not listed twice
      { name: 'The Copper Kettle', city: 'Fixtureton', country: 'United Kingdom', lat: 52.19045, lon: 0.31081, kind: 'cafe' },
    ]);
    const nominatim = await startFakeGeocoder('nominatim', [{ name: 'Copper Beech Surgery', street: 'Station Road', housenumber: '12', city: 'Fixtureton', country: 'United Kingdom', lat: 52.1975, lon: 0.3001, kind: 'doctors' }]);
    try {
      expect((await s.member.put('/api/admin/maps/geocoder', { provider: 'photon', url: photon.url })).status).toBe(403);
      for (const bad of [{ provider: 'photon', url: 'ftp://x.example' }, { provider: 'photon', url: 'http://user:secret@x.example' }, { provider: 'google', url: photon.url }, { provider: 'photon' }]) {
        const r = await s.admin.put('/api/admin/maps/geocoder', bad);
        expect(r.status, JSON.stringify(bad)).toBe(400);
      }
      expect((await s.admin.put('/api/admin/maps/geocoder', { provider: 'photon', url: photon.url })).body).toEqual({ provider: 'photon', url: photon.url });
      const find = (extra: string) => s.member.get(`/api/maps/geocode?q=copper&near=52.195,0.31${extra}`);
      // as you type: offline only, nothing leaves the house
      const typed = await find('');
      expect(typed.body.results.map((r: any) => r.source)).not.toContain('online');
      expect(photon.requests).toHaveLength(0);
      const entered = await find('&online=1');
      expect(entered.status).toBe(200);
      expect(entered.body.notice).toBeNull();
      expect(entered.body.results[0]).toMatchObject({ name: 'The Copper Kettle', source: 'region' });
      expect(entered.body.results.filter((r: any) => r.source === 'online').map((r: any) => [r.name, r.kind, r.region])).toEqual([['Copper Kettle Bakery', 'bakery', 'Fixtureton']]);
      expect(photon.requests[0]).toMatchObject({ path: '/api', query: { q: 'copper', lat: '52.195', lon: '0.31' } });
      expect(photon.requests[0]!.userAgent).toMatch(/^Hearth\//);
      for (const [mode, said] of [['garbage', /did not answer in its own format/], ['error', /answered 500/], ['down', /could not be reached/]] as const) {
        await photon.setMode(mode);
        const r = await find('&online=1');
        expect(r.status, mode).toBe(200);
        expect(r.body.notice, mode).toMatch(said);
        expect(r.body.notice).not.toContain(photon.url);
        expect(r.body.results[0]).toMatchObject({ name: 'The Copper Kettle', source: 'region' });
      }
      await photon.setMode('ok');
      await s.admin.put('/api/admin/maps/geocoder', { provider: 'nominatim', url: nominatim.url });
      const other = await find('&online=1');
      expect(other.body.results.filter((r: any) => r.source === 'online').map((r: any) => r.name)).toEqual(['Copper Beech Surgery']);
      expect(nominatim.requests[0]).toMatchObject({ path: '/search', query: { q: 'copper', format: 'jsonv2', addressdetails: '1' } });
      expect((await s.admin.delete('/api/admin/maps/geocoder')).status).toBe(204);
      expect((await s.admin.get('/api/admin/maps/geocoder')).body).toEqual({ provider: null, url: null });
      const before = nominatim.requests.length;
      await find('&online=1');
      expect(nominatim.requests).toHaveLength(before);
    } finally {
      await s.admin.delete('/api/admin/maps/geocoder');
      await photon.close();
      await nominatim.close();
    }
  });

  it('says which street a point is on inside the town, and the nearest city elsewhere', async () => {
    const at = async (lat: number, lon: number) => {
      const r = await s.member.get(`/api/maps/reverse?lat=${lat}&lon=${lon}`);
      expect(r.status).toBe(200);
      return r.body.place;
    };
    // a point on Oak Street (the grid's second row), between two crossings
    expect(await at(52.19151, 0.3052)).toMatchObject({ name: 'Oak Street', kind: 'street', source: 'region' });
    expect(await at(48.8566, 2.3522)).toMatchObject({ name: 'Paris', kind: 'city', country: 'France' });
    // the middle of the Pacific: nothing near
    expect(await at(-30, -140)).toBeNull();
    expect((await s.member.get('/api/maps/reverse?lat=91&lon=0')).status).toBe(400);
    expect((await s.member.get('/api/maps/reverse?lat=abc&lon=0')).status).toBe(400);
  });

  it('gives directions on the town\'s roads with named steps, and says when it cannot', async () => {
    const route = async (query: string) => s.member.get(`/api/maps/route?${query}`);
    // from the south-west corner (High Street) to the north-east one (Market Street)
    const car = await route('from=52.19,0.3&to=52.2005,0.3168&mode=car');
    expect(car.status).toBe(200);
    expect(car.body.regionId).toBe('fixtureton');
    expect(car.body.distance).toBeGreaterThan(2000);
    expect(car.body.distance).toBeLessThan(3000);
    expect(car.body.duration).toBeGreaterThan(0);
    expect(car.body.geometry.coordinates[0]).toEqual([0.3, 52.19]);
    expect(car.body.geometry.coordinates.at(-1)).toEqual([0.3168, 52.2005]);
    const names = car.body.steps.map((st: any) => st.name);
    // the secondary road is the quickest way north; one step per street, not per junction
    expect(names).toEqual(['High Street', 'Bridge Road', 'Market Street', '']);
    expect(car.body.steps[0].instruction).toBe('Head east on High Street');
    expect(car.body.steps.at(-1).instruction).toBe('Arrive at your destination');
    const foot = await route('from=52.19,0.3&to=52.2005,0.3168&mode=foot');
    expect(foot.status).toBe(200);
    expect(foot.body.duration).toBeGreaterThan(car.body.duration * 3);
    // one end outside every region with directions
    const away = await route('from=52.19,0.3&to=52.3,0.5');
    expect(away.status).toBe(422);
    expect(away.body.error).toEqual({ code: 'routing_not_installed', message: expect.stringMatching(/No installed map covers both places/) });
    for (const bad of ['from=52.19,0.3', 'from=abc&to=52.2,0.31', 'from=52.19,0.3&to=52.2,0.31&mode=plane', 'from=95,0.3&to=52.2,0.31']) {
      const r = await route(bad);
      expect(r.status, bad).toBe(400);
      expect(r.body.error.message).toEqual(expect.any(String));
    }
    expect((await s.anon.get('/api/maps/route?from=52.19,0.3&to=52.2005,0.3168')).status).toBe(401);
  });

  it('reads Routino\'s "no road near that point" as no route', async () => {
    const routino = findRoutino(['/usr/bin'])!;
    const dir = path.join(s.dataDir, 'maps', 'fixtureton-directions');
    const err = await routino.route({ dir, prefix: 'fixtureton', from: [52.19, 0.3], to: [10, 10], mode: 'car', signal: AbortSignal.timeout(10_000), timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RoutingError);
    expect((err as RoutingError).failure).toBe('no_route');
    expect(routingAppError(err)).toMatchObject({ status: 404, code: 'no_route' });
  });

  it('lets chat find places and say how far and how long a trip is', async () => {
    const tool = s.handle.deps.chatTools.all().find((t) => t.id === 'maps')!;
    const ctx = { actor: { kind: 'user' as const, id: s.users.member.id, name: 'Sam', role: 'member' as const, sessionId: 't' }, signal: AbortSignal.timeout(15_000) };
    const found = await tool.run({ action: 'find', place: 'copper kettle' }, ctx);
    expect(found.content).toMatch(/^Places matching “copper kettle”, best first:\n1\. The Copper Kettle \(cafe, Fixtureton\) at 52\.19\d+, 0\.31\d+/);
    // "home" is the household's Home place
    const home = await s.admin.post('/api/admin/maps/places', { name: 'Home', lat: 52.19, lon: 0.3 });
    const trip = await tool.run({ action: 'route', from: 'home', to: 'Market Street', mode: 'foot' }, ctx);
    expect(trip.content).toMatch(/^From Home to Market Street \(street, Fixtureton\) at [\d.]+, [\d.]+ by foot: [\d.]+ km, about \d+ minutes\./);
    expect(trip.content).toContain('The way: Head ');
    expect(trip.summary).toMatch(/^Worked out the way by foot: /);
    const nowhere = await tool.run({ action: 'find', place: 'qqxqzz' }, ctx);
    expect(nowhere.content).toMatch(/No place called “qqxqzz”/);
    await s.admin.delete(`/api/admin/maps/places/${home.body.place.id}`);
    // the Extension is offered once a region is installed (chat itself is not set up here)
    const ext = (await s.admin.get('/api/tools')).body.tools.find((t: any) => t.id === 'maps');
    expect(ext).toMatchObject({ id: 'maps', name: 'Maps in chat' });
  });

  it('keeps each member\'s saved places private, and the household\'s for everyone', async () => {
    const mine = await s.member.post('/api/maps/places', { name: 'Gran\'s house', note: 'Blue door', lat: 52.1936, lon: 0.3096 });
    expect(mine.status).toBe(201);
    expect(mine.body.place).toMatchObject({ name: "Gran's house", note: 'Blue door', household: false });
    const adminsOwn = await s.admin.post('/api/maps/places', { name: 'Allotment', lat: 52.195, lon: 0.31 });
    expect(adminsOwn.status).toBe(201);
    const home = await s.admin.post('/api/admin/maps/places', { name: 'Home', lat: 52.1921, lon: 0.3024 });
    expect(home.status).toBe(201);
    expect(home.body.place.household).toBe(true);
    const memberList = (await s.member.get('/api/maps/places')).body.places.map((p: any) => [p.name, p.household]);
    expect(memberList).toEqual([['Home', true], ["Gran's house", false]]);
    const adminList = (await s.admin.get('/api/maps/places')).body.places.map((p: any) => p.name);
    expect(adminList).toEqual(['Home', 'Allotment']);
    // another member's place is missing to an admin too; the household's is changed only on the admin route
    const id = mine.body.place.id;
    expect((await s.admin.patch(`/api/maps/places/${id}`, { name: 'Mine now' })).status).toBe(404);
    expect((await s.admin.delete(`/api/maps/places/${id}`)).status).toBe(404);
    expect((await s.admin.patch(`/api/admin/maps/places/${id}`, { name: 'Mine now' })).status).toBe(404);
    expect((await s.member.patch(`/api/maps/places/${home.body.place.id}`, { name: 'Moved' })).status).toBe(404);
    expect((await s.member.post('/api/admin/maps/places', { name: 'Mine', lat: 1, lon: 1 })).status).toBe(403);
    expect((await s.member.delete(`/api/admin/maps/places/${home.body.place.id}`)).status).toBe(403);
    const renamed = await s.member.patch(`/api/maps/places/${id}`, { note: 'Green door now' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.place).toMatchObject({ name: "Gran's house", note: 'Green door now' });
    for (const [body, field] of [[{ lat: 1, lon: 1 }, 'name'], [{ name: 'x', lat: 100, lon: 1 }, 'lat'], [{ name: ' ', lat: 1, lon: 1 }, 'name'], [{ name: 'x', lat: '1', lon: 1 }, 'lat']] as const) {
      const r = await s.member.post('/api/maps/places', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(r.body.error)).toContain(field);
    }
    expect((await s.member.patch(`/api/maps/places/${id}`, {})).status).toBe(400);
    expect((await s.member.patch('/api/maps/places/not-a-uuid', { name: 'x' })).status).toBe(400);
    expect((await s.anon.get('/api/maps/places')).status).toBe(401);
    expect((await s.admin.delete(`/api/admin/maps/places/${home.body.place.id}`)).status).toBe(204);
    expect((await s.member.delete(`/api/maps/places/${id}`)).status).toBe(204);
    expect((await s.member.get('/api/maps/places')).body.places).toEqual([]);
  });

  it('composes a MapLibre style whose sources are this server\'s tiles and that asks nothing of the internet', async () => {
    const r = await s.member.get('/api/maps/style.json');
    expect(r.status).toBe(200);
    expect(r.body.version).toBe(8);
    const source = r.body.sources['region-fixtureton'];
    expect(source).toMatchObject({ type: 'vector', minzoom: 0, maxzoom: 14, tiles: [`${s.url}/api/maps/tiles/fixtureton/{z}/{x}/{y}.mvt`] });
    expect(r.body.glyphs).toBeUndefined();
    expect(r.body.sprite).toBeUndefined();
    expect(r.body.layers.filter((l: any) => l.source === 'region-fixtureton').map((l: any) => l['source-layer'])).toEqual(expect.arrayContaining(['transportation', 'transportation_name', 'place', 'poi']));
    expect(JSON.stringify(r.body)).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });

  it('refuses at once a file whose checksum the catalog disagrees with, without fetching it again', async () => {
    const sse = await download('stale-catalog');
    const error = sse.events.find((e) => e.event === 'error');
    expect(error?.data).toEqual({ code: 'map_checksum_mismatch', message: expect.stringMatching(/does not match the catalog/) });
    expect(files.requests.filter((r) => r.path === 'stale.pmtiles')).toHaveLength(1);
    expect((await s.member.get('/api/maps/regions')).body.regions.map((r: any) => r.id)).toEqual(['fixtureton']);
  });

  it('refuses a downloaded file that is not a map region, and keeps nothing of it', async () => {
    const sse = await download('not-a-region');
    const error = sse.events.find((e) => e.event === 'error');
    expect(error?.data).toEqual({ code: 'map_region_unreadable', message: expect.stringMatching(/is not a region Hearth can show/) });
    expect(existsSync(path.join(s.dataDir, 'maps', 'not-a-region.pmtiles'))).toBe(false);
    expect((await s.member.get('/api/maps/regions')).body.regions.map((r: any) => r.id)).toEqual(['fixtureton']);
  });

  it('removes a region: its file, its tiles and its place in the style go', async () => {
    expect((await s.admin.delete('/api/admin/maps/not-a-region')).status).toBe(404);
    const r = await s.admin.delete('/api/admin/maps/fixtureton');
    expect(r.status).toBe(204);
    expect(existsSync(path.join(s.dataDir, 'maps', 'fixtureton.pmtiles'))).toBe(false);
    expect((await s.member.get('/api/maps/regions')).body.regions).toEqual([]);
    expect((await tile('fixtureton/14/8206/5397.mvt')).status).toBe(404);
    expect((await s.member.get('/api/maps/style.json')).body.sources).toEqual({});
    expect(existsSync(path.join(s.dataDir, 'maps', 'fixtureton-directions'))).toBe(false);
    expect((await s.member.get('/api/maps/route?from=52.19,0.3&to=52.2005,0.3168')).status).toBe(422);
    // its streets are no longer found; the world's cities still are
    expect((await s.member.get('/api/maps/geocode?q=oak%20street')).body.results.filter((r: any) => r.source === 'region')).toEqual([]);
    expect((await s.member.get('/api/maps/geocode?q=zurich')).body.results[0].name).toBe('Zürich');
  });
});

describe('offline maps: a region download across a restart', () => {
  const files = new FakeFileServer();
  const temp = makeTempDir('hearth-maps-restart-');
  const data = makeTempDir('hearth-maps-restart-data-');
  let s: TestServer | null = null;

  afterAll(async () => {
    await s?.close();
    await files.close();
    temp.remove();
    data.remove();
  });

  it('continues in the next Hearth from where it stopped, and installs the region with nobody watching', async () => {
    await files.start();
    // the town again with ~1 MB of metadata, sent slowly enough that Hearth stops in the middle of it
    const reader = new RegionFiles(1);
    const tiles: WriterTile[] = [];
    for (let z = 0; z <= 14; z++) for await (const t of reader.get('town', 'v', FIXTURETON_TILES_PATH).tilesAt(z)) tiles.push({ z, x: t.x, y: t.y, data: gzipSync(t.data) });
    await reader.closeAll();
    const big = writePmtiles({ tiles, metadata: { name: 'Fixtureton', vector_layers: [], padding: randomBytes(800_000).toString('base64') }, bounds: BBOX });
    const url = files.addBuffer('town.pmtiles', big, { throttleBps: 300 * 1024 });
    const catalog = writeMapCatalog(temp.dir, [{ id: 'fixtureton', name: 'Fixtureton', bbox: BBOX, minzoom: 0, maxzoom: 14, bytes: big.length, sha256: sha256(big), url }]);
    const start = (seed: 'household' | 'empty') => startTestServer({ seed, dataDir: data.dir, config: { mapCatalogPath: catalog, fetchAllowOrigins: [files.url] }, overrides: { tuning: { downloadBackoffBaseMs: 20 } } });
    s = await start('household');
    const memberId = s.users.member.id;
    const sse = await connectSse(s.url, '/api/admin/maps/download/fixtureton', { cookie: s.admin.cookie!, origin: s.url }, { body: {} });
    await sse.waitFor((e) => e.event === 'progress' && e.data.state === 'downloading' && e.data.bytesDone > 0, 20_000);
    await s.close();
    s = null;
    // what had arrived is kept for the next start
    const part = path.join(data.dir, 'maps', 'fixtureton.pmtiles.part');
    expect(statSync(part).size).toBeGreaterThan(0);
    expect(statSync(part).size).toBeLessThan(big.length);
    files.behave('town.pmtiles', {});

    s = await start('empty');
    const member = await s.signIn(memberId, '5678');
    await until(async () => ((await member.get('/api/maps/regions')).body.regions as unknown[]).length === 1, 'the region installed after the restart', 30_000);
    // the second Hearth asked only for the rest of the file
    expect(files.requests.filter((r) => r.path === 'town.pmtiles').at(-1)?.range).toMatch(/^bytes=[1-9]\d*-$/);
    expect(readFileSync(path.join(data.dir, 'maps', 'fixtureton.pmtiles')).equals(big)).toBe(true);
    expect((await member.get('/api/maps/geocode?q=high%20street')).body.results[0]).toMatchObject({ name: 'High Street', source: 'region' });
  }, 90_000);
});
