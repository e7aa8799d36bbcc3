// The drawn map (MapLibre GL, bundled: this module and the library are a chunk of their own that
// only the Map page loads, and only when the browser has WebGL). The style comes from
// GET /api/maps/style.json (tiles from this server, no glyphs or sprites); the picked place and the
// route are two GeoJSON layers of ours on top. Tells its page when the map cannot draw.
import 'maplibre-gl/dist/maplibre-gl.css';
import { AttributionControl, Map as MapLibreMap, NavigationControl, ScaleControl, setWorkerUrl, type GeoJSONSource, type LngLatBoundsLike } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { LatLon } from './queries';

setWorkerUrl(workerUrl);

export interface MapViewProps {
  /** [west, south, east, north] the map opens on (the installed regions together). */
  bounds: [number, number, number, number];
  picked: (LatLon & { name: string }) | null;
  /** The route's line, [lon, lat] pairs. */
  route: Array<[number, number]> | null;
  onCentre: (centre: LatLon) => void;
  /** The map could not be drawn after all (no WebGL context, the style did not load). */
  onFail: (message: string) => void;
}

const EMPTY = { type: 'FeatureCollection' as const, features: [] };

export default function MapView({ bounds, picked, route, onCentre, onFail }: MapViewProps): ReactElement {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<MapLibreMap | null>(null);
  const [ready, setReady] = useState(false);
  const calls = useRef({ onCentre, onFail });
  calls.current = { onCentre, onFail };

  useEffect(() => {
    if (!box.current) return;
    let m: MapLibreMap;
    try {
      m = new MapLibreMap({
        container: box.current,
        style: '/api/maps/style.json',
        bounds: bounds as LngLatBoundsLike,
        fitBoundsOptions: { padding: 16 },
        attributionControl: false,
        cooperativeGestures: false,
      });
    } catch {
      calls.current.onFail('This browser could not start the map drawing (WebGL).');
      return;
    }
    map.current = m;
    m.addControl(new NavigationControl({ showCompass: false }), 'top-right');
    m.addControl(new AttributionControl({ compact: true, customAttribution: '© OpenStreetMap contributors' }), 'bottom-right');
    m.addControl(new ScaleControl({}), 'bottom-left');
    const centre = () => {
      const c = m.getCenter();
      calls.current.onCentre({ lat: c.lat, lon: c.lng });
    };
    m.on('moveend', centre);
    m.on('load', () => {
      m.addSource('hearth-route', { type: 'geojson', data: EMPTY });
      m.addLayer({ id: 'hearth-route-casing', type: 'line', source: 'hearth-route', layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': '#ffffff', 'line-width': 9 } });
      m.addLayer({ id: 'hearth-route', type: 'line', source: 'hearth-route', layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': '#b54a22', 'line-width': 5 } });
      m.addSource('hearth-picked', { type: 'geojson', data: EMPTY });
      m.addLayer({ id: 'hearth-picked', type: 'circle', source: 'hearth-picked', paint: { 'circle-radius': 9, 'circle-color': '#b54a22', 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 3 } });
      setReady(true);
      centre();
    });
    m.on('webglcontextlost', () => calls.current.onFail('The map drawing stopped (the browser took back its WebGL context).'));
    m.on('error', (e: { error?: { status?: number; message?: string } }) => {
      // a missing tile is drawn as empty; only a style that does not load means no map at all
      if (!m.isStyleLoaded() && !m.loaded() && e.error?.status !== undefined && e.error.status >= 400) calls.current.onFail('The map style did not load from Hearth.');
    });
    return () => {
      map.current = null;
      setReady(false);
      m.remove();
    };
    // the map is made once, on the bounds it first had
  }, []);

  useEffect(() => {
    const m = map.current;
    if (!m || !ready) return;
    (m.getSource('hearth-picked') as GeoJSONSource | undefined)?.setData(
      picked ? { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: picked.name }, geometry: { type: 'Point', coordinates: [picked.lon, picked.lat] } }] } : EMPTY,
    );
    if (picked && !route) m.easeTo({ center: [picked.lon, picked.lat], zoom: Math.max(m.getZoom(), 15) });
  }, [ready, picked, route]);

  useEffect(() => {
    const m = map.current;
    if (!m || !ready) return;
    (m.getSource('hearth-route') as GeoJSONSource | undefined)?.setData(route ? { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: route } } : EMPTY);
    if (route && route.length > 1) {
      const lons = route.map((p) => p[0]);
      const lats = route.map((p) => p[1]);
      m.fitBounds([Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)], { padding: 40, maxZoom: 17 });
    }
  }, [ready, route]);

  return <div ref={box} className="map-view" data-testid="map-view" data-state={ready ? 'loaded' : 'loading'} role="region" aria-label="Map" />;
}
