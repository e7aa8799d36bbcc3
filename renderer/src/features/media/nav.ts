// Whether the navigation lists Media for the signed-in person: always for admins (they can connect
// the household's Plex from it), for members only once a Plex is connected (nothing would work
// before). While the status is unknown or could not be read, members do not see the entry.
import type { Role } from '../../api/types';
import { useMediaStatus } from './queries';

export function useMediaShown(role: Role): boolean {
  const status = useMediaStatus(role !== 'admin');
  return role === 'admin' || status.data?.configured === true;
}
