// `maps`, the chat tool over the household's offline maps: find a place (the installed regions'
// streets and places, the world's cities) and the distance and time between two places (Routino on
// a region with directions). Places are looked up near the household's "Home" place, or the first
// region, so "the school" means the one in town. Listed in this module's manifest; its Extension
// (same id) is in extensions.ts.
import { z } from 'zod';
import type { ChatTool, ChatToolResult } from '../chat/public.js';
import type { DirectionsService } from './directions-service.js';
import type { GeocoderService } from './geocoder-service.js';
import type { PlacesService } from './places-service.js';
import type { GeoResult } from './schema.js';
import type { MapTilesService } from './tiles-service.js';

const TIMEOUT_MS = 15_000;

export const MapsArgs = z.object({
  action: z.enum(['find', 'route']).describe('"find" to look a place up, "route" for the distance and travel time between two places.'),
  place: z.string().max(200).optional().describe('For find: the place, street or town.'),
  from: z.string().max(200).optional().describe('For route: where the trip starts (a place name or "home").'),
  to: z.string().max(200).optional().describe('For route: where it ends.'),
  mode: z.enum(['car', 'bike', 'foot']).optional().describe('For route: car (default), bike or foot.'),
});

export interface MapsToolDeps {
  geocoder: Pick<GeocoderService, 'search'>;
  directions: Pick<DirectionsService, 'route'>;
  places: Pick<PlacesService, 'list'>;
  tiles: Pick<MapTilesService, 'regions'>;
}

const describe = (p: GeoResult) => `${p.name} (${[p.kind, p.region, p.country].filter(Boolean).join(', ')}) at ${p.lat.toFixed(5)}, ${p.lon.toFixed(5)}`;
const km = (m: number) => (m < 1000 ? `${m} m` : `${(m / 1000).toFixed(1)} km`);
const minutes = (s: number) => (s < 90 ? `${Math.max(1, Math.round(s / 60))} minute` : `${Math.round(s / 60)} minutes`);

export function createMapsTool(deps: MapsToolDeps): ChatTool<typeof MapsArgs> {
  return {
    id: 'maps',
    description: 'The household’s offline maps: find a place, street or town, or the distance and travel time between two places (by car, bike or foot). Use it for questions like “where is …”, “how far is …”, “how long to walk to …”.',
    args: MapsArgs,
    timeoutMs: TIMEOUT_MS,
    async run(args, ctx): Promise<ChatToolResult> {
      const saved = await deps.places.list(ctx.actor);
      const home = saved.find((p) => p.household && /^home$/i.test(p.name)) ?? null;
      const region = (await deps.tiles.regions(ctx.actor))[0];
      const near: [number, number] | undefined = home ? [home.lat, home.lon] : region ? [(region.bbox[1] + region.bbox[3]) / 2, (region.bbox[0] + region.bbox[2]) / 2] : undefined;
      const resolve = async (name: string): Promise<{ label: string; lat: number; lon: number } | null> => {
        const own = saved.find((p) => p.name.toLowerCase() === name.trim().toLowerCase());
        if (own) return { label: own.name, lat: own.lat, lon: own.lon };
        const [hit] = await deps.geocoder.search(ctx.actor, name, { near, limit: 1 });
        return hit ? { label: describe(hit), lat: hit.lat, lon: hit.lon } : null;
      };
      if (args.action === 'find') {
        if (!args.place) throw new Error('Say which place to find.');
        const hits = await deps.geocoder.search(ctx.actor, args.place, { near, limit: 5 });
        if (hits.length === 0) return { content: `No place called “${args.place}” is on the household’s maps or in the list of the world’s towns.`, summary: `Looked for “${args.place}” on the map: nothing`, sources: [] };
        return { content: `Places matching “${args.place}”, best first:\n${hits.map((h, i) => `${i + 1}. ${describe(h)}`).join('\n')}`, summary: `Looked for “${args.place}” on the map`, sources: [] };
      }
      if (!args.from || !args.to) throw new Error('Say where the trip starts and where it ends.');
      const [from, to] = await Promise.all([resolve(args.from), resolve(args.to)]);
      if (!from || !to) return { content: `Hearth could not find ${!from ? `“${args.from}”` : `“${args.to}”`} on the maps.`, summary: 'Looked for a route: a place was not found', sources: [] };
      const mode = args.mode ?? 'car';
      const route = await deps.directions.route(ctx.actor, [from.lat, from.lon], [to.lat, to.lon], mode, ctx.signal);
      const steps = route.steps.filter((s) => s.name).map((s) => `${s.instruction} for ${km(s.distance)}`);
      return {
        content: `From ${from.label} to ${to.label} by ${mode}: ${km(route.distance)}, about ${minutes(route.duration)}.\nThe way: ${steps.join('; ')}.`,
        summary: `Worked out the way by ${mode}: ${km(route.distance)}, ${minutes(route.duration)}`,
        sources: [],
      };
    },
  };
}
