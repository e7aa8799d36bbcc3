// Pieces both Shows pages draw: a show's poster (Hearth's own copy), and TVmaze's credit.
import type { ReactElement } from 'react';
import { Icon } from '../../ui/icons';

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
