// Where the member left a video (issue 35), so the <video> player resumes there. A podcast's video
// episode keeps its place on the server with the episode (GET and PUT /api/podcasts/episodes/:id,
// the same place the Listen page shows, the later report winning); a PeerTube video, or a saved
// copy of one, keeps it on this device (localStorage, by source and id, the last 100).
import { api, apiFetch } from '../../api/client';
import type { Episode } from '../../../../server/modules/podcasts/schema.js';

export type VideoPlace = { kind: 'podcast'; episodeId: string } | { kind: 'device'; key: string };

const PLACES_KEY = 'hearth:video-places';
const KEEP = 100;
/** Within this many seconds of the end a video counts as watched: it starts again from the top. */
const DONE_WITHIN_SEC = 30;
const episodePath = (id: string) => `/api/podcasts/episodes/${encodeURIComponent(id)}`;

type Places = Record<string, { at: number; t: number }>;
function readPlaces(): Places {
  try {
    const v = JSON.parse(localStorage.getItem(PLACES_KEY) ?? '{}') as unknown;
    return v && typeof v === 'object' ? (v as Places) : {};
  } catch {
    return {};
  }
}

/** Where to start (seconds; 0 from the top). */
export async function placeOf(place: VideoPlace): Promise<number> {
  if (place.kind === 'device') return readPlaces()[place.key]?.at ?? 0;
  const { episode } = await api.get<{ episode: Episode }>(episodePath(place.episodeId));
  return episode.finished ? 0 : episode.positionSec;
}

/** Keeps the place (`keepalive`: the page is going away, the request outlives it). */
export async function keepPlace(place: VideoPlace, positionSec: number, durationSec: number, keepalive = false): Promise<void> {
  if (place.kind === 'podcast') {
    const body = { positionSec: Math.max(0, Math.round(positionSec)), durationSec: Math.max(0, Math.round(durationSec)), updatedAt: new Date().toISOString() };
    if (keepalive) await apiFetch(`${episodePath(place.episodeId)}/progress`, { method: 'PUT', keepalive: true, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    else await api.put(`${episodePath(place.episodeId)}/progress`, body);
    return;
  }
  const places = readPlaces();
  delete places[place.key];
  const done = durationSec > 0 && durationSec - positionSec <= DONE_WITHIN_SEC;
  if (!done && positionSec >= 1) places[place.key] = { at: Math.round(positionSec), t: Date.now() };
  const kept = Object.entries(places)
    .sort((a, b) => b[1].t - a[1].t)
    .slice(0, KEEP);
  try {
    localStorage.setItem(PLACES_KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // storage refused (private mode): the place is not kept
  }
}
