// A stand-in for TVmaze's API (reference/media-hubs.md §3.1, "fake-tvmaze"): `/search/shows?q=`
// (`[{score, show}]`, fuzzy by words, best first), `/shows/:id` with `embed[]=episodes|seasons|
// nextepisode` under `_embedded` (a running show with a next episode, an ended one without it),
// 404 in TVmaze's shape for an unknown show, 429 after `limitPer10s` calls in ten seconds (TVmaze's
// documented floor is 20), posters at /images/<id>.jpg on the fake's own origin. Episodes air
// relative to `now` (tests give their clock's time). Modes: 'ok', 'garbage' (an HTML page with a
// 200), 'slow' (no answer). Every request is recorded (FakeHttp).
import { TINY_JPEG } from './images.js';
import { sendJson, startFakeHttp, type FakeHttp } from './today-http.js';

/** The poster every show with a picture has. */
export const POSTER_JPEG = TINY_JPEG;

export interface FakeTvmaze extends FakeHttp {
  mode: 'ok' | 'garbage' | 'slow';
  limitPer10s: number;
  reset(): void;
}

const DAY = 24 * 60 * 60_000;

interface FakeShow {
  id: number;
  name: string;
  status: string;
  premiered: string;
  ended: string | null;
  network: string | null;
  webChannel: string | null;
  thetvdb: number | null;
  imdb: string | null;
  image: boolean;
  summary: string;
  /** Per season, each episode's air day relative to `now` (negative: already aired). */
  seasons: number[][];
}

/** Harbor Lights has the same ids as the media-server fake's show 201 (so the household's Plex has it). */
export const SHOWS: FakeShow[] = [
  { id: 9901, name: 'Harbor Lights', status: 'Running', premiered: '2018-02-06', ended: null, network: 'Example One', webChannel: null, thetvdb: 300201, imdb: 'tt7200201', image: true, summary: '<p>A lighthouse keeper’s family on a <b>stormy</b> coast.</p>', seasons: [[-400, -393, -386], [-20, -13, 2, 9]] },
  { id: 9902, name: 'The Quiet Orchard', status: 'Ended', premiered: '2015-04-01', ended: '2016-06-30', network: null, webChannel: 'Example Stream', thetvdb: 999001, imdb: null, image: false, summary: '', seasons: [[-3000, -2993]] },
  { id: 9903, name: 'Harbor Patrol', status: 'Running', premiered: '2024-09-01', ended: null, network: 'Example Two', webChannel: null, thetvdb: null, imdb: null, image: true, summary: '<p>Boats, rescues and one very patient dog.</p>', seasons: [[-30, 5, 40, 75]] },
];

function showJson(s: FakeShow, origin: string) {
  return {
    id: s.id,
    url: `${origin}/shows/${s.id}`,
    name: s.name,
    type: 'Scripted',
    language: 'English',
    genres: ['Drama'],
    status: s.status,
    runtime: 60,
    averageRuntime: 60,
    premiered: s.premiered,
    ended: s.ended,
    officialSite: null,
    schedule: { time: '21:00', days: ['Tuesday'] },
    rating: { average: 7.4 },
    weight: 80,
    network: s.network ? { id: 1, name: s.network, country: { name: 'United Kingdom', code: 'GB', timezone: 'Europe/London' } } : null,
    webChannel: s.webChannel ? { id: 2, name: s.webChannel, country: null } : null,
    externals: { tvrage: null, thetvdb: s.thetvdb, imdb: s.imdb },
    image: s.image ? { medium: `${origin}/images/${s.id}-m.jpg`, original: `${origin}/images/${s.id}-o.jpg` } : null,
    summary: s.summary,
    updated: 1778630000,
    _links: { self: { href: `${origin}/shows/${s.id}` } },
  };
}

function episodesOf(s: FakeShow, now: number) {
  return s.seasons.flatMap((days, si) =>
    days.map((d, ei) => {
      const at = new Date(now + d * DAY);
      return {
        id: s.id * 100 + (si + 1) * 10 + ei + 1,
        url: '',
        name: `${s.name} ${si + 1}.${ei + 1}`,
        season: si + 1,
        number: ei + 1,
        type: 'regular',
        airdate: at.toISOString().slice(0, 10),
        airtime: '21:00',
        airstamp: at.toISOString().replace('.000Z', '+00:00'),
        runtime: 60,
        rating: { average: null },
        image: null,
        summary: '<p>An episode.</p>',
      };
    }),
  );
}

export async function startFakeTvmaze(opts: { now: () => Date }): Promise<FakeTvmaze> {
  let calls: number[] = [];
  const state: Pick<FakeTvmaze, 'mode' | 'limitPer10s'> = { mode: 'ok', limitPer10s: 20 };
  const fake = await startFakeHttp((req, res, url) => {
    if (state.mode === 'slow') return; // never answers
    const t = Date.now();
    calls = calls.filter((c) => t - c < 10_000);
    calls.push(t);
    if (calls.length > state.limitPer10s) return sendJson(res, 429, { name: 'Too Many Requests', message: '', code: 0, status: 429 });
    if (state.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Maintenance</body></html>');
      return;
    }
    const origin = `http://${req.headers.host}`;
    const image = /^\/images\/(\d+)-[mo]\.jpg$/.exec(url.pathname);
    if (image) {
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': POSTER_JPEG.length }).end(POSTER_JPEG);
      return;
    }
    if (url.pathname === '/search/shows') {
      const words = (url.searchParams.get('q') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const hits = SHOWS.map((s) => ({ s, score: words.filter((w) => s.name.toLowerCase().includes(w)).length / Math.max(1, words.length) }))
        .filter((h) => h.score > 0)
        .sort((a, b) => b.score - a.score);
      return sendJson(res, 200, hits.map((h) => ({ score: h.score, show: showJson(h.s, origin) })));
    }
    const show = /^\/shows\/(\d+)$/.exec(url.pathname);
    const found = show ? SHOWS.find((s) => s.id === Number(show[1])) : undefined;
    if (!found) return sendJson(res, 404, { name: 'Not Found', message: '', code: 0, status: 404 });
    const embeds = url.searchParams.getAll('embed[]');
    const now = opts.now().getTime();
    const episodes = episodesOf(found, now);
    const next = episodes.find((e) => Date.parse(e.airstamp) > now);
    const embedded: Record<string, unknown> = {};
    if (embeds.includes('episodes')) embedded.episodes = episodes;
    if (embeds.includes('seasons')) embedded.seasons = found.seasons.map((days, i) => ({ id: found.id * 10 + i + 1, number: i + 1, episodeOrder: days.length, premiereDate: episodes.find((e) => e.season === i + 1)?.airdate ?? null, endDate: null }));
    if (embeds.includes('nextepisode') && next) embedded.nextepisode = next;
    return sendJson(res, 200, { ...showJson(found, origin), ...(Object.keys(embedded).length ? { _embedded: embedded } : {}) });
  });
  const self = Object.defineProperties(fake, {
    mode: { get: () => state.mode, set: (m: FakeTvmaze['mode']) => void (state.mode = m), enumerable: true },
    limitPer10s: { get: () => state.limitPer10s, set: (n: number) => void (state.limitPer10s = n), enumerable: true },
  }) as FakeTvmaze;
  self.reset = () => {
    calls = [];
    state.mode = 'ok';
    state.limitPer10s = 20;
    fake.requests.length = 0;
  };
  return self;
}
