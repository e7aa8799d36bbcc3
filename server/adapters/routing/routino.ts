// Directions from Routino (Debian `routino`; bundled elsewhere): `planetsplitter` builds a routing
// graph from a region's .osm.pbf once, `routino-router` answers one route per run (0.07 s on a town
// here). Both run as child processes through the platform's program runner (argument arrays, no
// shell, the tree killed on abort or past the time limit). A route is read from two of the router's
// files: the GPX route (one point per junction with "East on 'High Street' for 0.163 km, 0.1 min")
// for the steps, and the all-points text (every node with segment distance and duration) for the
// line and the totals. Failures carry a kind; the maps module says them in words.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type * as Fxp from 'fast-xml-parser';
import { findProgram } from '../../platform/find-program.js';
import { lazyRequire } from '../../platform/lazy.js';
import { runProgram } from '../../platform/sidecars/run-program.js';

/**
 * - `missing`: Routino is not on this computer;
 * - `no_route`: the router found no road near a point, or no way between them;
 * - `timeout`: past the time limit (killed);
 * - `failed`: anything else (an unreadable source, a graph that cannot be read, no output).
 */
export type RoutingFailure = 'missing' | 'no_route' | 'timeout' | 'failed';

export class RoutingError extends Error {
  constructor(
    readonly failure: RoutingFailure,
    message: string,
  ) {
    super(message);
    this.name = 'RoutingError';
  }
}

export type TravelMode = 'car' | 'bike' | 'foot';
const TRANSPORT: Record<TravelMode, string> = { car: 'motorcar', bike: 'bicycle', foot: 'foot' };

export interface RouteStep {
  instruction: string;
  name: string;
  /** metres */
  distance: number;
  /** seconds */
  duration: number;
  location: [number, number];
}

export interface RouteResult {
  distance: number;
  duration: number;
  geometry: { type: 'LineString'; coordinates: Array<[number, number]> };
  steps: RouteStep[];
}

export interface Routino {
  /** Builds the graph for `source` (an .osm or .osm.pbf) in `dir` under `prefix`. */
  buildGraph(o: { source: string; dir: string; prefix: string; signal: AbortSignal; timeoutMs: number }): Promise<void>;
  route(o: { dir: string; prefix: string; from: [number, number]; to: [number, number]; mode: TravelMode; signal: AbortSignal; timeoutMs: number }): Promise<RouteResult>;
}

/** Routino's programs and its XML (profiles, translations, tagging) beside them; null when it is not installed. */
export function findRoutino(searchPath: string[]): Routino | null {
  const router = findProgram(['routino-router'], searchPath);
  const splitter = findProgram(['planetsplitter'], searchPath);
  if (!router || !splitter) return null;
  const share = path.resolve(path.dirname(router), '..', 'share', 'routino');
  return createRoutino({ router, splitter, share });
}

async function run(command: string, args: string[], o: { cwd?: string; signal: AbortSignal; timeoutMs: number }): Promise<string[]> {
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const lines: string[] = [];
  const r = await runProgram({ command, args, cwd: o.cwd, signal: AbortSignal.any([o.signal, timeout]), killGraceMs: 500, onLine: (l) => lines.length < 200 && lines.push(l) });
  if (r.spawnError) throw new RoutingError('missing', `${path.basename(command)} could not be started: ${r.spawnError}`);
  if (r.aborted) throw timeout.aborted && !o.signal.aborted ? new RoutingError('timeout', `${path.basename(command)} ran past ${o.timeoutMs} ms.`) : (o.signal.reason as Error);
  if (r.code !== 0) {
    const said = lines.filter((l) => /error/i.test(l)).join(' ').slice(0, 300);
    if (/cannot find (node close|route)/i.test(said)) throw new RoutingError('no_route', said);
    throw new RoutingError('failed', `${path.basename(command)} exited with ${r.code}: ${said || lines.slice(-3).join(' ')}`);
  }
  return lines;
}

const loadFxp = lazyRequire<typeof Fxp>('fast-xml-parser');

/** "East on 'High Street' for 0.163 km, 0.1 min" → its parts; null for the closing "Total Journey" line. */
function readStep(desc: string): { heading: string; name: string; km: number; min: number } | null {
  const m = /^(\S+) on '(.*)' for ([\d.]+) km, ([\d.]+) min/.exec(desc);
  if (!m) return null;
  return { heading: m[1]!.toLowerCase(), name: m[2]!, km: Number(m[3]), min: Number(m[4]) };
}

export function createRoutino(paths: { router: string; splitter: string; share: string }): Routino {
  return {
    async buildGraph(o) {
      await run(paths.splitter, [`--dir=${o.dir}`, `--prefix=${o.prefix}`, `--tagging=${path.join(paths.share, 'tagging.xml')}`, '--loggable', o.source], { signal: o.signal, timeoutMs: o.timeoutMs });
    },

    async route(o) {
      const work = await mkdtemp(path.join(os.tmpdir(), 'hearth-route-'));
      try {
        const [lat1, lon1] = o.from;
        const [lat2, lon2] = o.to;
        await run(
          paths.router,
          [
            `--dir=${o.dir}`,
            `--prefix=${o.prefix}`,
            `--profiles=${path.join(paths.share, 'profiles.xml')}`,
            `--translations=${path.join(paths.share, 'translations.xml')}`,
            `--transport=${TRANSPORT[o.mode]}`,
            '--quickest',
            `--lat1=${lat1}`,
            `--lon1=${lon1}`,
            `--lat2=${lat2}`,
            `--lon2=${lon2}`,
            '--output-gpx-route',
            '--output-text-all',
            '--quiet',
          ],
          { cwd: work, signal: o.signal, timeoutMs: o.timeoutMs },
        );
        const all = await readFile(path.join(work, 'quickest-all.txt'), 'utf8').catch(() => null);
        const gpx = await readFile(path.join(work, 'quickest-route.gpx'), 'utf8').catch(() => null);
        if (all === null || gpx === null) throw new RoutingError('failed', 'The router wrote no route.');
        return readRoute(all, gpx);
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
  };
}

/** The route from the router's two files. */
export function readRoute(allPoints: string, gpxRoute: string): RouteResult {
  const coordinates: Array<[number, number]> = [];
  let km = 0;
  let min = 0;
  for (const line of allPoints.split('\n')) {
    if (line.startsWith('#') || !line.trim()) continue;
    const cols = line.split('\t').map((c) => c.trim());
    const lat = Number(cols[0]);
    const lon = Number(cols[1]);
    if (!Number.isFinite(lat) || !Number.isFinite(lon)) continue;
    coordinates.push([lon, lat]);
    km += Number(cols[4]) || 0;
    min += Number(cols[5]) || 0;
  }
  if (coordinates.length < 2) throw new RoutingError('failed', 'The router wrote a route with no points.');
  const doc = new (loadFxp().XMLParser)({ ignoreAttributes: false, attributeNamePrefix: '@_', parseAttributeValue: false, processEntities: true, htmlEntities: true }).parse(gpxRoute) as { gpx?: { rte?: { rtept?: unknown } } };
  const raw = doc.gpx?.rte?.rtept;
  const points = (Array.isArray(raw) ? raw : raw ? [raw] : []) as Array<{ '@_lat': string; '@_lon': string; desc?: string }>;
  const steps: RouteStep[] = [];
  for (const p of points) {
    const s = readStep(String(p.desc ?? ''));
    if (!s) continue;
    const location: [number, number] = [Number(p['@_lon']), Number(p['@_lat'])];
    const last = steps.at(-1);
    // Routino starts a step at every junction: one street walked straight on is one step
    if (last && last.name === s.name) {
      last.distance += s.km * 1000;
      last.duration += s.min * 60;
      continue;
    }
    const heading = s.heading;
    const instruction = steps.length === 0 ? `Head ${heading} on ${s.name}` : `Turn onto ${s.name}, heading ${heading}`;
    steps.push({ instruction, name: s.name, distance: s.km * 1000, duration: s.min * 60, location });
  }
  const end = coordinates.at(-1)!;
  steps.push({ instruction: 'Arrive at your destination', name: '', distance: 0, duration: 0, location: end });
  const round = (n: number) => Math.round(n);
  return { distance: round(km * 1000), duration: round(min * 60), geometry: { type: 'LineString', coordinates }, steps: steps.map((s) => ({ ...s, distance: round(s.distance), duration: round(s.duration) })) };
}
