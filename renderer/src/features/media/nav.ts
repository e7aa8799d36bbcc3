// Whether the navigation lists the media pages for the signed-in person.
//  - Media: always for admins (they can connect the household's Plex from it), for members only
//    once a Plex is connected (nothing would work before).
//  - My home videos: only for someone whose own `mine` library is set up or being set up (GET
//    /me/library-sections); a failed one, or none, is not listed (the page, opened directly, says
//    why and that an admin sets it up). A member's sections are asked for only once Plex is
//    connected, so a household without Plex costs one request.
// While an answer is unknown or could not be read, the entry is not listed. Both are asked for
// only once the shell's first screen is committed and the browser is idle: asked at once, they
// joined the first round of requests and delayed the page's largest text.
import { useEffect, useState } from 'react';
import type { Role } from '../../api/types';
import { useMySections } from './home-videos-queries';
import { useMediaStatus } from './queries';

function useAfterFirstScreen(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(() => setReady(true), { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(() => setReady(true), 200);
    return () => window.clearTimeout(id);
  }, []);
  return ready;
}

/** The pages' `shownWhen` conditions (pages.tsx) and whether each holds now. */
export type MediaNav = Record<'media' | 'home-videos', boolean>;

export function useMediaNav(role: Role): MediaNav {
  const admin = role === 'admin';
  const idle = useAfterFirstScreen();
  const status = useMediaStatus(idle && !admin);
  const media = admin || status.data?.configured === true;
  const sections = useMySections(idle && media);
  const mine = sections.data?.sections.find((s) => s.contentType === 'mine')?.section ?? null;
  return { media, 'home-videos': mine !== null && mine.status !== 'failed' };
}
