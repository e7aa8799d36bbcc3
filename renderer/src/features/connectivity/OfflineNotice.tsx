// The line a page that fetches from the internet shows while offline mode is on (Today, the Reader):
// who switched it on (an admin, or whoever started Hearth) and so what the page cannot do now.
import type { ReactElement } from 'react';
import { Icon } from '../../ui/icons';
import { useOfflineMode } from './queries';
import './connectivity.css';

export function OfflineNotice({ what }: { what: string }): ReactElement | null {
  const state = useOfflineMode();
  const mode = state.data?.offlineMode;
  if (!mode?.on) return null;
  return (
    <p className="banner banner--info offline-notice" role="status" data-testid="offline-notice">
      <Icon name="lock" size={20} />
      <span>
        <strong>Hearth is offline.</strong> {mode.message} {what}
      </span>
    </p>
  );
}
