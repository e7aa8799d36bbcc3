// The Map page's lists: search results, the picked place's details, directions to it with the
// steps, and the saved places (the caller's, which they rename and delete, then the household's).
import { useEffect, useId, useState, type ReactElement } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { useAction } from '../../api/useAction';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { formatDuration } from '../../ui/format';
import { Icon, Spinner } from '../../ui/icons';
import { SegmentedControl } from '../../ui/SegmentedControl';
import { FormError } from '../../ui/StateViews';
import { PLACES_KEY, useAddPlace, useGeocode, usePlaces, useRemovePlace, useRenamePlace, useRoute, type LatLon, type TravelMode } from './queries';
import { fmt } from '../../ui/locale';

/** A place on the map: a search result or a saved place. */
export interface Picked extends LatLon {
  name: string;
  /** What it is (street, cafe, city…), for a search result. */
  kind?: string;
  /** The map region or state it is in. */
  area?: string | null;
  /** A saved place's id (it is saved already). */
  placeId?: string;
}

export function formatDistance(metres: number): string {
  return fmt().distance(metres);
}

export function SearchResults({ query, near, online, onPick }: { query: string; near: LatLon | null; online: boolean; onPick: (p: Picked) => void }): ReactElement {
  const found = useGeocode(query, near, online);
  if (found.isPending) return <p className="maps-note" role="status"><Spinner size={16} /> Searching…</p>;
  if (found.isError) return <FormError message={errorMessage(found.error)} />;
  const notice = found.data.notice ? <p className="maps-note" role="status">{found.data.notice}</p> : null;
  if (found.data.results.length === 0) {
    return (
      <>
        {notice}
        <p className="maps-note" role="status">Nothing found for “{query}”. Try fewer letters or another spelling.</p>
      </>
    );
  }
  return (
    <>
      {notice}
      <ul className="maps-list" aria-label="Search results">
        {found.data.results.map((r) => (
          <li key={r.id}>
            <button type="button" className="maps-list__item" onClick={() => onPick({ name: r.name, lat: r.lat, lon: r.lon, kind: r.kind, area: [r.region, r.country].filter(Boolean).join(', ') || null })}>
              <Icon name="pin" size={20} />
              <span className="maps-list__text">
                <span className="maps-list__title">{r.name}</span>
                <span className="maps-list__sub">{[r.kind, r.region, r.country, r.source === 'online' ? 'found online' : null].filter(Boolean).join(' · ')}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

export function PlaceDetails({ picked, onClose }: { picked: Picked; onClose: () => void }): ReactElement {
  const add = useAddPlace();
  const [saved, setSaved] = useState(Boolean(picked.placeId));
  return (
    <div className="maps-details">
      <div className="maps-details__head">
        <h2 className="maps-details__title">{picked.name}</h2>
        <button type="button" className="btn btn--ghost btn--compact" onClick={onClose}>
          <Icon name="close" size={18} />
          Close
        </button>
      </div>
      <p className="maps-list__sub">
        {[picked.kind, picked.area].filter(Boolean).join(' · ')}
        {picked.kind || picked.area ? ' · ' : ''}
        {picked.lat.toFixed(5)}, {picked.lon.toFixed(5)}
      </p>
      {saved ? (
        <p className="maps-note">
          <Icon name="check" size={16} /> In your places
        </p>
      ) : (
        <button type="button" className="btn btn--secondary btn--compact" disabled={add.isPending} onClick={() => add.mutate({ name: picked.name, lat: picked.lat, lon: picked.lon }, { onSuccess: () => setSaved(true) })}>
          <Icon name="bookmark" size={18} />
          Save place
        </button>
      )}
      <FormError message={add.isError ? errorMessage(add.error) : null} />
    </div>
  );
}

const MODES = [
  { value: 'car' as const, label: 'Car' },
  { value: 'bike' as const, label: 'Bike' },
  { value: 'foot' as const, label: 'On foot' },
];
const HERE = 'here';

/** Directions to `to`: from "my location" on a secure page, or from a saved or household place. */
export function Directions({ to, onRoute }: { to: Picked; onRoute: (line: Array<[number, number]> | null) => void }): ReactElement {
  const places = usePlaces();
  const selectId = useId();
  const canLocate = window.isSecureContext && 'geolocation' in navigator;
  const sources = (places.data ?? []).filter((p) => !(p.lat === to.lat && p.lon === to.lon));
  const home = sources.find((p) => p.household && /^home$/i.test(p.name)) ?? sources.find((p) => p.household) ?? sources[0];
  const [fromChoice, setFromChoice] = useState<string | null>(null);
  const chosen = fromChoice ?? (home?.id ?? (canLocate ? HERE : ''));
  const [mode, setMode] = useState<TravelMode>('car');
  const [from, setFrom] = useState<LatLon | null>(null);
  const [locating, setLocating] = useState<string | null>(null);
  const route = useRoute(from, to, mode);

  useEffect(() => onRoute(route.data ? route.data.geometry.coordinates : null), [route.data, onRoute]);

  const ask = () => {
    setLocating(null);
    if (chosen === HERE) {
      setLocating('Finding where you are…');
      navigator.geolocation.getCurrentPosition(
        (pos) => {
          setLocating(null);
          setFrom({ lat: pos.coords.latitude, lon: pos.coords.longitude });
        },
        () => setLocating('This device did not say where you are. Choose a place to start from instead.'),
        { timeout: 15_000 },
      );
      return;
    }
    const start = sources.find((p) => p.id === chosen);
    if (start) setFrom({ lat: start.lat, lon: start.lon });
  };

  if (places.isPending) return <p className="maps-note" role="status"><Spinner size={16} /> Loading your places…</p>;
  if (sources.length === 0 && !canLocate) {
    return (
      <p className="maps-note">
        Directions start from a saved place or the household’s Home: save a place first (or ask an admin to set Home in Admin › Maps). Starting from where you are needs Hearth opened over a secure (https) address.
      </p>
    );
  }
  return (
    <div className="maps-directions">
      <div className="maps-directions__form">
        <label htmlFor={selectId} className="maps-directions__label">
          From
        </label>
        <select id={selectId} className="input" value={chosen} onChange={(e) => setFromChoice(e.target.value)}>
          {canLocate ? <option value={HERE}>My location</option> : null}
          {sources.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
              {p.household ? ' (household)' : ''}
            </option>
          ))}
        </select>
        <SegmentedControl label="Travel by" options={MODES} value={mode} onChange={setMode} />
        <button type="button" className="btn btn--primary" onClick={ask} disabled={route.isFetching}>
          <Icon name="forward" size={20} />
          Directions
        </button>
      </div>
      {!canLocate ? <p className="maps-note">Starting from where you are needs Hearth opened over a secure (https) address.</p> : null}
      {locating ? <p className="maps-note" role="status">{locating}</p> : null}
      {route.isFetching ? <p className="maps-note" role="status"><Spinner size={16} /> Finding the way…</p> : null}
      {route.isError ? <FormError message={routeProblem(route.error)} /> : null}
      {route.data && !route.isFetching ? (
        <div className="maps-route" aria-label="Route" role="group">
          <p className="maps-route__summary">
            {formatDistance(route.data.distance)}, about {formatDuration(route.data.duration)}
          </p>
          <ol className="maps-steps" aria-label="Steps">
            {route.data.steps.map((s, i) => (
              <li key={i}>
                <span>{s.instruction}</span>
                {s.distance > 0 ? <span className="maps-list__sub"> {formatDistance(s.distance)}</span> : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </div>
  );
}

function routeProblem(err: unknown): string {
  if (err instanceof ApiError && err.code === 'routing_not_installed') return `${err.message} Directions work inside a region an admin installed with its roads.`;
  return errorMessage(err);
}

/** The caller's places (rename, delete) and the household's (shown, changed only by admins). */
export function PlacesList({ onPick }: { onPick: (p: Picked) => void }): ReactElement {
  const places = usePlaces();
  const rename = useRenamePlace();
  const remove = useRemovePlace();
  const action = useAction({ invalidates: [PLACES_KEY] });
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const inputId = useId();

  return (
    <section className="maps-places" aria-labelledby="maps-places-title">
      <h2 id="maps-places-title" className="maps-section-title">
        Places
      </h2>
      {places.isPending ? <p className="maps-note" role="status"><Spinner size={16} /> Loading your places…</p> : null}
      {places.isError ? <FormError message={errorMessage(places.error)} /> : null}
      {places.data?.length === 0 ? <p className="maps-note">No places yet. Search for one and choose Save place.</p> : null}
      {places.data?.length ? (
        <ul className="maps-list" aria-label="Your places">
          {places.data.map((p) => (
            <li key={p.id} className="maps-place">
              {editing?.id === p.id ? (
                <form
                  className="maps-place__rename"
                  onSubmit={(e) => {
                    e.preventDefault();
                    void action.act(`rename-${p.id}`, async () => {
                      await rename.mutateAsync({ id: p.id, name: editing.name });
                      setEditing(null);
                      return null;
                    });
                  }}
                >
                  <label htmlFor={inputId} className="visually-hidden">
                    New name for {p.name}
                  </label>
                  <input id={inputId} className="input" value={editing.name} onChange={(e) => setEditing({ id: p.id, name: e.target.value })} maxLength={100} />
                  <button type="submit" className="btn btn--primary btn--compact" disabled={action.busy !== null}>
                    Save
                  </button>
                  <button type="button" className="btn btn--ghost btn--compact" onClick={() => setEditing(null)}>
                    Cancel
                  </button>
                </form>
              ) : (
                <>
                  <button type="button" className="maps-list__item" onClick={() => onPick({ name: p.name, lat: p.lat, lon: p.lon, placeId: p.id, area: p.household ? 'Household place' : null })}>
                    <Icon name={p.household ? 'home' : 'bookmark'} size={20} />
                    <span className="maps-list__text">
                      <span className="maps-list__title">{p.name}</span>
                      {p.household ? <span className="maps-list__sub">Household place</span> : null}
                    </span>
                  </button>
                  {p.household ? null : (
                    <span className="maps-place__actions">
                      <button type="button" className="btn btn--ghost btn--compact" aria-label={`Rename ${p.name}`} onClick={() => setEditing({ id: p.id, name: p.name })}>
                        <Icon name="edit" size={18} />
                      </button>
                      <button type="button" className="btn btn--ghost btn--compact" aria-label={`Delete ${p.name}`} onClick={() => setRemoving({ id: p.id, name: p.name })}>
                        <Icon name="trash" size={18} />
                      </button>
                    </span>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <FormError message={action.error?.message} />
      <ConfirmDialog
        open={removing !== null}
        title={`Delete ${removing?.name ?? 'this place'}?`}
        description="It leaves your places; the map itself keeps it."
        confirmLabel="Delete"
        onConfirm={async () => {
          if (removing) await remove.mutateAsync(removing.id);
          setRemoving(null);
        }}
        onClose={() => setRemoving(null)}
      />
    </section>
  );
}
