// The Map (issue 36): the installed regions drawn with MapLibre, place search as you type (nearest
// the map's centre first), a result's details with Directions, the route drawn with its steps, and
// the caller's saved places with the household's. Without WebGL the map is not drawn and the page
// says so; search, directions and places stay usable as lists. With no region installed it says how
// one is added (and, for admins, links there).
import { lazy, Suspense, useCallback, useMemo, useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { useUser } from '../../app/session';
import { Icon } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { SearchField } from '../../ui/SearchField';
import { EmptyState, ErrorState, LoadingState } from '../../ui/StateViews';
import { useDebounced } from '../../ui/hooks';
import { Directions, PlaceDetails, PlacesList, SearchResults, type Picked } from './MapPanels';
import { useMapRegions, type LatLon } from './queries';
import './maps.css';

// MapLibre and its styles are a chunk of their own, asked for only when the map can be drawn
const MapView = lazy(() => import('./MapView'));

function hasWebGL(): boolean {
  try {
    const canvas = document.createElement('canvas');
    return Boolean(canvas.getContext('webgl2') ?? canvas.getContext('webgl'));
  } catch {
    return false;
  }
}

/** The installed regions together, [west, south, east, north]. */
function unionOf(bboxes: Array<[number, number, number, number]>): [number, number, number, number] {
  return [Math.min(...bboxes.map((b) => b[0])), Math.min(...bboxes.map((b) => b[1])), Math.max(...bboxes.map((b) => b[2])), Math.max(...bboxes.map((b) => b[3]))];
}

export function MapPage(): ReactElement {
  const user = useUser();
  const regions = useMapRegions();
  const [webgl] = useState(hasWebGL);
  const [mapProblem, setMapProblem] = useState<string | null>(webgl ? null : 'This browser cannot draw maps (it has no WebGL turned on).');
  const [query, setQuery] = useState('');
  // the results close once one is picked, and open again as soon as the search changes
  const [resultsOpen, setResultsOpen] = useState(true);
  const typed = useDebounced(query, 250);
  // Enter asks the online geocoder too (when an admin set one), never each letter typed
  const [askedOnline, setAskedOnline] = useState<string | null>(null);
  const [centre, setCentre] = useState<LatLon | null>(null);
  const [picked, setPicked] = useState<Picked | null>(null);
  const [routeLine, setRouteLine] = useState<Array<[number, number]> | null>(null);
  const onFail = useCallback((message: string) => setMapProblem(message), []);

  const bounds = useMemo(() => (regions.data?.length ? unionOf(regions.data.map((r) => r.bbox)) : null), [regions.data]);
  const near = centre ?? (bounds ? { lon: (bounds[0] + bounds[2]) / 2, lat: (bounds[1] + bounds[3]) / 2 } : null);
  const pick = (p: Picked | null) => {
    setPicked(p);
    setResultsOpen(false);
    setRouteLine(null);
  };

  const header = <PageHeader titleId="maps-title" title="Map" description="The household’s own maps: search for a place and get directions, even with the internet cut." />;
  if (regions.isPending) {
    return (
      <section className="page" aria-labelledby="maps-title">
        {header}
        <LoadingState label="Loading the maps…" />
      </section>
    );
  }
  if (regions.isError) {
    return (
      <section className="page" aria-labelledby="maps-title">
        {header}
        <ErrorState title="The maps did not load" error={regions.error} onRetry={() => void regions.refetch()} />
      </section>
    );
  }
  if (!bounds) {
    return (
      <section className="page" aria-labelledby="maps-title">
        {header}
        <EmptyState
          icon="map"
          title="No map is installed yet"
          action={
            user.role === 'admin' ? (
              <Link className="btn btn--primary" to="/admin/maps">
                <Icon name="download" size={20} />
                Add a map
              </Link>
            ) : null
          }
        >
          {user.role === 'admin' ? 'Add one in Admin › Maps, and everyone in the household can use it.' : 'An admin adds one in Admin › Maps.'}
        </EmptyState>
      </section>
    );
  }

  return (
    <section className="page maps-page" aria-labelledby="maps-title">
      {header}
      <div className="maps-layout">
        <div className="maps-layout__side">
          <SearchField
            id="maps-search"
            label="Search for a place"
            placeholder="Search for a place or street"
            value={query}
            onChange={(q) => {
              setQuery(q);
              setResultsOpen(true);
            }}
            onSubmit={() => {
              setAskedOnline(query.trim());
              setResultsOpen(true);
            }}
            className="maps-search"
          />
          {typed.trim() && resultsOpen ? <SearchResults query={typed} near={near} online={askedOnline !== null && askedOnline === typed.trim()} onPick={(p) => pick(p)} /> : null}
          {picked ? (
            <div className="maps-card" aria-label={`About ${picked.name}`} role="group">
              <PlaceDetails picked={picked} onClose={() => pick(null)} />
              <Directions key={`${picked.lat},${picked.lon}`} to={picked} onRoute={setRouteLine} />
            </div>
          ) : null}
          <PlacesList onPick={(p) => pick(p)} />
        </div>
        <div className="maps-layout__map">
          {mapProblem ? (
            <div className="maps-nomap" role="note" data-testid="map-unavailable">
              <Icon name="warn" size={24} />
              <p>{mapProblem} Search, directions and your places still work here as lists.</p>
            </div>
          ) : (
            <Suspense fallback={<LoadingState label="Loading the map…" />}>
              <MapView bounds={bounds} picked={picked} route={routeLine} onCentre={setCentre} onFail={onFail} />
            </Suspense>
          )}
        </div>
      </div>
    </section>
  );
}
