// /smart-home (issue 37): the household's Home Assistant devices this member may see, room by room,
// as tiles: lights (on/off and brightness), switches, climate (target temperature), covers, media
// players, sensors, and locks and other guarded devices behind a confirm dialog (Tile.tsx); a star
// on each pins it to the member's favourites (the home screen widget). Changes arrive live
// (useLiveEntities). When Home Assistant is not connected or not answering, the page says why
// and what to do, and shows no controls.
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { useUser } from '../../app/session';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { useCameraEvents, useFavourites, useHomeEntities, useLiveEntities, useSetFavourites } from './queries';
import { Tile, type FavouriteStar } from './Tile';
import './smart-home.css';
import { fmt } from '../../ui/locale';

const LABELS: Record<string, string> = { person: 'Someone', car: 'A car' };

/** The recent camera events, for admins and the members an admin chose to tell; nothing for anyone else. */
function CameraEventsList(): ReactElement | null {
  const events = useCameraEvents();
  if (events.isPending || events.isError || !events.data.shared) return null;
  return (
    <section className="ha-area" aria-labelledby="ha-cameras">
      <h2 id="ha-cameras" className="ha-area__title">
        Camera events
      </h2>
      {events.data.events.length === 0 ? (
        <p className="muted">Nothing seen by the cameras lately.</p>
      ) : (
        <ul className="ha-tiles" aria-label="Camera events">
          {events.data.events.slice(0, 12).map((e) => {
            const what = `${LABELS[e.label] ?? `An animal (${e.label})`} at ${e.camera.replace(/_/g, ' ')}`;
            return (
              <li key={e.id} className="card ha-tile">
                {e.snapshotUrl ? <img className="ha-camera__shot" src={e.snapshotUrl} alt={what} loading="lazy" width={320} height={180} /> : null}
                <p className="ha-tile__state">
                  {what}, {fmt().dateTime(e.at)}
                </p>
                {e.clipUrl ? (
                  <a className="btn btn--secondary" href={e.clipUrl} target="_blank" rel="noopener">
                    Watch the clip<span className="visually-hidden"> of {what.toLowerCase()}</span>
                  </a>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** The stars on the tiles: the member's favourites, changed one device at a time (the whole list is saved). */
function useStars(): { star: (id: string) => FavouriteStar | undefined; error: string | null } {
  const favourites = useFavourites();
  const save = useSetFavourites();
  const ids = favourites.data?.status === 'connected' ? favourites.data.entities.map((e) => e.id) : null;
  return {
    star: (id) =>
      ids === null
        ? undefined
        : { on: ids.includes(id), busy: save.isPending, toggle: () => save.mutate(ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]) },
    error: save.error ? errorMessage(save.error) : null,
  };
}

export function SmartHomePage(): ReactElement {
  const user = useUser();
  const entities = useHomeEntities();
  const stars = useStars();
  useLiveEntities();
  const admin = user.role === 'admin';
  const manage = admin ? (
    <Link className="btn btn--secondary" to="/smart-home/manage">
      Set up Home Assistant
    </Link>
  ) : undefined;
  let body: ReactElement;
  if (entities.isPending) body = <LoadingState label="Loading your devices…" />;
  else if (entities.isError) body = <ErrorState error={entities.error} title="Your devices did not load" onRetry={() => void entities.refetch()} />;
  else if (entities.data.status !== 'connected')
    body = (
      <EmptyState icon="warn" title={entities.data.status === 'not_set' ? 'Home Assistant is not connected' : 'Home Assistant is not answering'} action={manage}>
        {entities.data.message}
      </EmptyState>
    );
  else if (entities.data.areas.length === 0)
    body = (
      <EmptyState icon="home" title="No devices for you yet" action={manage}>
        {admin ? 'Choose which devices the household sees on the Smart home admin page.' : 'An admin chooses which devices each member of the household may use.'}
      </EmptyState>
    );
  else
    body = (
      <div className="ha-areas">
        <p className="muted">Star a device (☆) to put it on your home screen’s Smart home widget.</p>
        <FormError message={stars.error} />
        {entities.data.areas.map((a) => (
          <section key={a.id ?? 'other'} className="ha-area" aria-labelledby={`ha-area-${a.id ?? 'other'}`}>
            <h2 id={`ha-area-${a.id ?? 'other'}`} className="ha-area__title">
              {a.name}
            </h2>
            <ul className="ha-tiles" aria-label={a.name}>
              {a.entities.map((e) => (
                <Tile key={e.id} e={e} star={stars.star(e.id)} />
              ))}
            </ul>
          </section>
        ))}
      </div>
    );
  return (
    <section className="page smart-home" aria-labelledby="smart-home-title">
      <PageHeader titleId="smart-home-title" title="Smart home" description="Your household’s lights, heating, blinds and locks, room by room." actions={entities.data?.status === 'connected' ? manage : undefined} />
      {body}
      <CameraEventsList />
    </section>
  );
}
