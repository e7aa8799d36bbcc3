// Admin › Maps: the household's places (Home, School…) that every member's places list shows and
// directions start from. Added by searching for the place; removed with a confirm.
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useDebounced } from '../../ui/hooks';
import { Icon, Spinner } from '../../ui/icons';
import { SearchField } from '../../ui/SearchField';
import { FormError } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { useAddPlace, useGeocode, usePlaces, useRemovePlace } from './queries';

export function HouseholdPlaces(): ReactElement {
  const places = usePlaces();
  const add = useAddPlace(true);
  const remove = useRemovePlace(true);
  const [name, setName] = useState('Home');
  const [query, setQuery] = useState('');
  const typed = useDebounced(query, 250);
  const found = useGeocode(typed, null);
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const household = (places.data ?? []).filter((p) => p.household);

  return (
    <section className="maps-household" aria-labelledby="maps-household-title">
      <h2 id="maps-household-title" className="maps-section-title">
        Household places
      </h2>
      <p className="maps-note">Everyone sees these in their places, and directions can start from them.</p>
      {places.isPending ? <p className="maps-note" role="status"><Spinner size={16} /> Loading the places…</p> : null}
      {places.isError ? <FormError message={errorMessage(places.error)} /> : null}
      {places.data && household.length === 0 ? <p className="maps-note">No household places yet: add Home below.</p> : null}
      {household.length > 0 ? (
        <ul className="maps-list" aria-label="Household places">
          {household.map((p) => (
            <li key={p.id} className="maps-place">
              <span className="maps-list__item maps-list__item--static">
                <Icon name="home" size={20} />
                <span className="maps-list__title">{p.name}</span>
              </span>
              <button type="button" className="btn btn--ghost btn--compact" aria-label={`Remove ${p.name}`} onClick={() => setRemoving({ id: p.id, name: p.name })}>
                <Icon name="trash" size={18} />
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="maps-household__add">
        <TextField label="Name of the place" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} hint="For example Home or School." />
        <SearchField id="maps-household-search" label="Search for the place" placeholder="Search for the street or place" value={query} onChange={setQuery} />
        {typed.trim() && found.isPending ? <p className="maps-note" role="status"><Spinner size={16} /> Searching…</p> : null}
        {found.isError ? <FormError message={errorMessage(found.error)} /> : null}
        {typed.trim() && found.data?.results.length === 0 ? <p className="maps-note">Nothing found for “{typed}”.</p> : null}
        {typed.trim() && found.data?.results.length ? (
          <ul className="maps-list" aria-label="Places found">
            {found.data.results.map((r) => (
              <li key={r.id}>
                <button
                  type="button"
                  className="maps-list__item"
                  disabled={add.isPending || !name.trim()}
                  onClick={() => add.mutate({ name: name.trim(), lat: r.lat, lon: r.lon, note: [r.name, r.region, r.country].filter(Boolean).join(', ') }, { onSuccess: () => setQuery('') })}
                >
                  <Icon name="plus" size={20} />
                  <span className="maps-list__text">
                    <span className="maps-list__title">
                      Set {name.trim() || 'the place'} to {r.name}
                    </span>
                    <span className="maps-list__sub">{[r.kind, r.region, r.country].filter(Boolean).join(' · ')}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <FormError message={add.isError ? errorMessage(add.error) : null} />
      </div>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? 'this place'}?`}
        description="It leaves everyone’s places."
        confirmLabel="Remove"
        onConfirm={async () => {
          if (removing) await remove.mutateAsync(removing.id);
          setRemoving(null);
        }}
        onClose={() => setRemoving(null)}
      />
    </section>
  );
}
