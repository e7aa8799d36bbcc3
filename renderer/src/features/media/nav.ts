// Whether the navigation lists Media for the signed-in person: always for admins (they can connect
// the household's Plex from it), for members only once a Plex is connected (nothing would work
// before). While the status is unknown or could not be read, members do not see the entry.
// A member's status is asked for only once the shell's first screen is committed and the browser
// is idle: asked at once, it joined the first round of requests and delayed the page's largest text.
import { useEffect, useState } from 'react';
import type { Role } from '../../api/types';
import { useMediaStatus } from './queries';

function useAfterFirstScreen(enabled: boolean): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(() => setReady(true), { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(() => setReady(true), 200);
    return () => window.clearTimeout(id);
  }, [enabled]);
  return ready;
}

export function useMediaShown(role: Role): boolean {
  const member = role !== 'admin';
  const status = useMediaStatus(useAfterFirstScreen(member) && member);
  return role === 'admin' || status.data?.configured === true;
}
