// The MapLibre style (spec v8) for the installed regions: one vector source per region whose tiles
// are this server's, and Hearth's own layers for the OpenMapTiles schema the regions carry (what
// tilemaker's OpenMapTiles config writes). No `glyphs` and no `sprite`: MapLibre draws labels with
// the page's own fonts (GL JS >= 5.11), so nothing is fetched from outside the house.
import type { RegionRecord } from './store.js';

const NAME = ['coalesce', ['get', 'name'], ['get', 'name:latin'], ['get', 'name_en']];
const FONT = ['system-ui', 'sans-serif'];

function regionLayers(source: string): Array<Record<string, unknown>> {
  const id = (name: string) => `${source}-${name}`;
  const roads = (classes: string[], color: string, width: number[]) => ({
    id: id(`roads-${classes[0]}`),
    type: 'line',
    source,
    'source-layer': 'transportation',
    filter: ['in', ['get', 'class'], ['literal', classes]],
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': color, 'line-width': ['interpolate', ['linear'], ['zoom'], ...width] },
  });
  return [
    { id: id('landcover'), type: 'fill', source, 'source-layer': 'landcover', paint: { 'fill-color': '#d8ecc9' } },
    { id: id('park'), type: 'fill', source, 'source-layer': 'park', paint: { 'fill-color': '#cfe8bd' } },
    { id: id('landuse'), type: 'fill', source, 'source-layer': 'landuse', paint: { 'fill-color': '#ece7df' } },
    { id: id('water'), type: 'fill', source, 'source-layer': 'water', paint: { 'fill-color': '#a9cfe8' } },
    { id: id('waterway'), type: 'line', source, 'source-layer': 'waterway', paint: { 'line-color': '#a9cfe8', 'line-width': 1.5 } },
    { id: id('building'), type: 'fill', source, 'source-layer': 'building', minzoom: 14, paint: { 'fill-color': '#dcd6cf' } },
    roads(['path', 'track', 'service'], '#ffffff', [12, 0.5, 18, 4]),
    roads(['minor', 'tertiary'], '#ffffff', [10, 0.8, 18, 12]),
    roads(['secondary', 'primary', 'trunk'], '#f7d98b', [8, 1, 18, 16]),
    roads(['motorway'], '#e9a16f', [6, 1, 18, 18]),
    {
      id: id('road-names'),
      type: 'symbol',
      source,
      'source-layer': 'transportation_name',
      minzoom: 13,
      layout: { 'symbol-placement': 'line', 'text-field': NAME, 'text-font': FONT, 'text-size': 12 },
      paint: { 'text-color': '#3d3a36', 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 },
    },
    {
      id: id('pois'),
      type: 'symbol',
      source,
      'source-layer': 'poi',
      minzoom: 14,
      layout: { 'text-field': NAME, 'text-font': FONT, 'text-size': 12, 'text-anchor': 'top' },
      paint: { 'text-color': '#5b4a33', 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 },
    },
    {
      id: id('places'),
      type: 'symbol',
      source,
      'source-layer': 'place',
      layout: { 'text-field': NAME, 'text-font': FONT, 'text-size': ['interpolate', ['linear'], ['zoom'], 8, 12, 14, 18] },
      paint: { 'text-color': '#1f1d1a', 'text-halo-color': '#ffffff', 'text-halo-width': 2 },
    },
  ];
}

export function mapStyle(regions: RegionRecord[], origin: string) {
  const sources = Object.fromEntries(
    regions.map((r) => [
      `region-${r.id}`,
      {
        type: 'vector' as const,
        tiles: [`${origin}/api/maps/tiles/${encodeURIComponent(r.id)}/{z}/{x}/{y}.mvt`],
        minzoom: r.minZoom,
        maxzoom: r.maxZoom,
        bounds: r.bbox,
        attribution: '© OpenStreetMap contributors',
      },
    ]),
  );
  const first = regions[0];
  return {
    version: 8 as const,
    name: 'Hearth',
    ...(first ? { center: [(first.bbox[0] + first.bbox[2]) / 2, (first.bbox[1] + first.bbox[3]) / 2] as [number, number], zoom: Math.min(first.maxZoom, 13) } : {}),
    sources,
    layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#f4f1ec' } }, ...regions.flatMap((r) => regionLayers(`region-${r.id}`))],
  };
}
