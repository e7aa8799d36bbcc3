// Pieces the Watch pages draw: a poster (Hearth's own copy), TVmaze's credit, the "In your Plex"
// line and a title's watchlist button.
import type { ReactElement, ReactNode } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { Icon } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { playHref, titleHref } from '../media';

/** The poster Hearth keeps (decorative: the show's name is beside it), or a plain tile when TVmaze has none. */
export function Poster({ url, size = 'small' }: { url: string | null; size?: 'small' | 'large' }): ReactElement {
  const cls = `show-poster show-poster--${size}`;
  return url ? <img className={cls} src={url} alt="" loading="lazy" decoding="async" /> : <span className={`${cls} show-poster--none`}><Icon name="tv" size={size === 'large' ? 40 : 24} /></span>;
}

/** TVmaze's data is CC BY-SA: credited once per page, with a link. */
export function TvmazeCredit(): ReactElement {
  return (
    <p className="shows-credit muted">
      TV guide data from{' '}
      <a href="https://www.tvmaze.com" target="_blank" rel="noreferrer">
        TVmaze
      </a>
      , shared under{' '}
      <a href="https://creativecommons.org/licenses/by-sa/4.0/" target="_blank" rel="noreferrer">
        CC BY-SA
      </a>
      .
    </p>
  );
}

/** The household's Plex has the title: Play (a film: Hearth's Media player) and its Media page. */
function InPlex({ ratingKey, playable }: { ratingKey: string; playable: boolean }): ReactElement {
  return (
    <p className="show-head__plex">
      <span className="badge badge--accent">
        <Icon name="check" size={16} />
        In your Plex
      </span>{' '}
      {playable ? (
        <>
          <Link className="btn btn--primary btn--compact" to={playHref(ratingKey)}>
            <Icon name="play" size={20} />
            Play
          </Link>{' '}
        </>
      ) : null}
      <Link to={titleHref(ratingKey)}>Open it in Media</Link>
    </p>
  );
}

/** Adds the title to the member's watchlist or takes it off, with what just changed said beside it. */
function WatchlistButton({ on, busy, onToggle, status }: { on: boolean; busy: boolean; onToggle: () => void; status: string }): ReactElement {
  return (
    <div className="show-head__actions">
      <button type="button" className={on ? 'btn btn--secondary' : 'btn btn--primary'} onClick={onToggle} disabled={busy}>
        <Icon name={on ? 'check' : 'plus'} size={20} />
        {on ? 'On your watchlist' : 'Add to watchlist'}
      </button>
      <span role="status" className="muted">
        {status}
      </span>
    </div>
  );
}

export interface TitleHeadProps {
  posterUrl: string | null;
  facts: string;
  /** The household's Plex has it (its ratingKey); a film can be played from there. */
  inPlex: { ratingKey: string; playable: boolean } | null;
  watchlist: { on: boolean; busy: boolean; onToggle: () => void; status: string };
  /** The watchlist change that failed, if one did. */
  failed: unknown;
  summary: string;
  /** Said below the watchlist button (what became of a copy on Plex's watchlist). */
  children?: ReactNode;
}

/** The head of a show's or a film's page: poster, facts, "In your Plex", the watchlist button, the summary. */
export function TitleHead({ posterUrl, facts, inPlex, watchlist, failed, summary, children }: TitleHeadProps): ReactElement {
  return (
    <div className="show-head">
      <Poster url={posterUrl} size="large" />
      <div className="show-head__words">
        {facts ? <p className="show-head__facts muted">{facts}</p> : null}
        {inPlex ? <InPlex ratingKey={inPlex.ratingKey} playable={inPlex.playable} /> : null}
        <WatchlistButton {...watchlist} />
        {children}
        <FormError message={failed ? `That did not change. ${errorMessage(failed)}` : null} />
        {summary ? <p className="show-head__summary">{summary}</p> : null}
      </div>
    </div>
  );
}
