// Stand-ins for the two online geocoders an admin may add (reference/maps.md §7): Photon (GET /api?q=
// &limit=&lat=&lon= → a GeoJSON FeatureCollection, properties name, street, housenumber, city, state,
// country, osm_value) and Nominatim (GET /search?q=&format=jsonv2&limit=&addressdetails=1 → an array
// of {lat, lon (strings), name, display_name, addresstype, address{…}}). Each knows a few places,
// matched by a case-insensitive substring of their name. Failure modes, switched at run time: down
// (not listening), slow (held back slowMs), garbage (HTML with 200), error (500). Requests are recorded.
import { sendText as send, startModalFake, type ModalFake } from './modal-http.js';

export type FakeGeocoderMode = 'ok' | 'down' | 'slow' | 'garbage' | 'error';

export interface FakePlace {
  name: string;
  street?: string;
  housenumber?: string;
  city?: string;
  country: string;
  lat: number;
  lon: number;
  kind: string;
}

export type FakeGeocoder = ModalFake<FakeGeocoderMode>;

export function startFakeGeocoder(provider: 'photon' | 'nominatim', places: FakePlace[]): Promise<FakeGeocoder> {
  const found = (q: string) => places.filter((p) => p.name.toLowerCase().includes(q.toLowerCase()) || (p.street ?? '').toLowerCase().includes(q.toLowerCase()));
  return startModalFake<FakeGeocoderMode>((mode, _req, res, u) => {
    if (mode === 'garbage') return send(res, 200, 'text/html', '<html><body>Rate limited, try later</body></html>');
    if (mode === 'error') return send(res, 500, 'text/plain', 'internal error');
    const q = u.searchParams.get('q') ?? '';
    const limit = Number(u.searchParams.get('limit') ?? 10);
    const hits = found(q).slice(0, limit);
    if (provider === 'photon' && u.pathname === '/api') {
      const features = hits.map((p) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [p.lon, p.lat] }, properties: { osm_id: 1, osm_type: 'N', osm_key: 'amenity', osm_value: p.kind, name: p.name, street: p.street, housenumber: p.housenumber, city: p.city, country: p.country, type: 'house' } }));
      return send(res, 200, 'application/json', JSON.stringify({ type: 'FeatureCollection', features }));
    }
    if (provider === 'nominatim' && u.pathname === '/search') {
      const items = hits.map((p, i) => ({ place_id: i + 1, licence: 'Data © OpenStreetMap contributors, ODbL 1.0', osm_type: 'node', osm_id: i + 1, lat: String(p.lat), lon: String(p.lon), category: 'amenity', type: p.kind, addresstype: p.kind, name: p.name, display_name: `${p.name}, ${p.city ?? ''}, ${p.country}`, address: { road: p.street, house_number: p.housenumber, city: p.city, country: p.country } }));
      return send(res, 200, 'application/json', JSON.stringify(items));
    }
    return send(res, 404, 'text/plain', 'not found');
  });
}
