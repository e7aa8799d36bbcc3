// The member's favourite devices as compact tiles (issue 37), for the home screen's Smart home
// widget: live state, a switch for ordinary devices and the same confirm dialog as the page for
// guarded ones. Honest states: loading, did not load (Try again), Home Assistant not connected or
// not answering (its sentence), and no favourites yet (how to add them).
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { useFavourites, useLiveEntities } from './queries';
import { Tile } from './Tile';

export function FavouriteTiles(): ReactElement {
  const favourites = useFavourites();
  useLiveEntities('favourites');
  const data = favourites.data;
  if (data === undefined && favourites.isError)
    return (
      <p className="widget__text" role="status">
        Your devices did not load.{' '}
        <button type="button" className="btn btn--ghost btn--compact" onClick={() => void favourites.refetch()}>
          Try again
        </button>
      </p>
    );
  if (data === undefined) return <p className="widget__text muted">Looking at your devices…</p>;
  if (data.status !== 'connected')
    return (
      <p className="widget__text" data-testid="widget-unavailable">
        {data.message}
      </p>
    );
  if (data.entities.length === 0)
    return (
      <p className="widget__text">
        No favourites yet. On the <Link to="/smart-home">Smart home</Link> page, press the star (☆) on a device to show it here.
      </p>
    );
  return (
    <ul className="ha-tiles ha-tiles--widget" aria-label="Favourite devices">
      {data.entities.map((e) => (
        <Tile key={e.id} e={e} compact />
      ))}
    </ul>
  );
}
