// Where the member left a video (issue 35), so the <video> player resumes there. A podcast's video
// episode keeps its place on the server with the episode (GET and PUT /api/podcasts/episodes/:id,
// the same place the Listen page shows, the later report winning); a PeerTube video, or a saved
// copy of one, keeps it on this device (video-places.ts).
import { api, apiFetch } from '../../api/client';
import type { Episode } from '../../../../server/modules/podcasts/schema.js';
import { devicePlace, keepDevicePlace } from './video-places';

export type VideoPlace = { kind: 'podcast'; episodeId: string } | { kind: 'device'; key: string };

const episodePath = (id: string) => `/api/podcasts/episodes/${encodeURIComponent(id)}`;

/** Where to start (seconds; 0 from the top). */
export async function placeOf(place: VideoPlace): Promise<number> {
  if (place.kind === 'device') return devicePlace(place.key);
  const { episode } = await api.get<{ episode: Episode }>(episodePath(place.episodeId));
  return episode.finished ? 0 : episode.positionSec;
}

/** Keeps the place (`keepalive`: the page is going away, the request outlives it). */
export async function keepPlace(place: VideoPlace, positionSec: number, durationSec: number, keepalive = false): Promise<void> {
  if (place.kind === 'device') return keepDevicePlace(place.key, positionSec, durationSec);
  const body = { positionSec: Math.max(0, Math.round(positionSec)), durationSec: Math.max(0, Math.round(durationSec)), updatedAt: new Date().toISOString() };
  if (keepalive) await apiFetch(`${episodePath(place.episodeId)}/progress`, { method: 'PUT', keepalive: true, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  else await api.put(`${episodePath(place.episodeId)}/progress`, body);
}
