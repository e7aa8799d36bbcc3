// A video's place kept on this device (issue 35): a PeerTube video, or its saved copy, resumes
// where the member left it. localStorage, by `peertube:<uuid>`, the newest 100; a video watched to
// within 30 s of its end starts from the top next time. No imports: the unit test reads it as is.
const PLACES_KEY = 'hearth:video-places';
const KEEP = 100;
/** Within this many seconds of the end a video counts as watched: it starts again from the top. */
const DONE_WITHIN_SEC = 30;

type Places = Record<string, { at: number; t: number }>;
function readPlaces(): Places {
  try {
    const v = JSON.parse(localStorage.getItem(PLACES_KEY) ?? '{}') as unknown;
    return v && typeof v === 'object' ? (v as Places) : {};
  } catch {
    return {};
  }
}

/** Where to start the video kept under `key` (seconds; 0 from the top). */
export const devicePlace = (key: string): number => readPlaces()[key]?.at ?? 0;

export function keepDevicePlace(key: string, positionSec: number, durationSec: number): void {
  const others = Object.entries(readPlaces()).filter(([k]) => k !== key);
  const done = durationSec > 0 && durationSec - positionSec <= DONE_WITHIN_SEC;
  // newest first (the one just kept first among those of the same millisecond: the sort is stable)
  const kept = [...(done || positionSec < 1 ? [] : [[key, { at: Math.round(positionSec), t: Date.now() }] as const]), ...others]
    .sort((a, b) => b[1].t - a[1].t)
    .slice(0, KEEP);
  try {
    localStorage.setItem(PLACES_KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // storage refused (private mode): the place is not kept
  }
}
