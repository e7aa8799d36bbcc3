// A stand-in for Wikipedia's "on this day" feed (reference/briefing.md §2), served under
// /{lang}/api/rest_v1/feed/onthisday/{type}/{MM}/{DD} (tests set WIKIPEDIA_BASE to `<url>/{lang}`).
// Like the real one: en and de only here, 404 problem JSON for another language or a day that does
// not exist, 403 for a request without a descriptive User-Agent, a fresh ETag per render, year-less
// holidays and a negative (BC) year. Modes: ok, limited (429 + Retry-After in seconds), garbage.
import { randomUUID } from 'node:crypto';
import { sendJson, startFakeHttp, type FakeHttp } from './today-http.js';

export type FakeWikimediaMode = 'ok' | 'limited' | 'garbage';

export interface FakeWikimedia extends FakeHttp {
  mode: FakeWikimediaMode;
}

const page = (lang: string, title: string) => ({
  title: title.replace(/ /g, '_'),
  titles: { normalized: title },
  extract: `${title} is an invented page.`,
  content_urls: { desktop: { page: `https://${lang}.wikipedia.org/wiki/${title.replace(/ /g, '_')}` } },
});

function day(lang: string, mm: string, dd: string) {
  const label = lang === 'de' ? 'Eine Fähre' : 'A ferry line';
  return {
    selected: [{ text: `${label} opens between two island towns (${mm}/${dd}).`, year: 1931, pages: [page(lang, 'Example Ferry')] }],
    events: [
      { text: 'The harbour bridge is finished.', year: 1902, pages: [page(lang, 'Harbour Bridge'), page(lang, 'Harbourton')] },
      { text: 'A city wall is begun.', year: -44, pages: [] },
    ],
    births: [{ text: 'Ada Example, lighthouse keeper', year: 1850, pages: [page(lang, 'Ada Example')] }],
    deaths: [{ text: 'Bo Example, ferry captain', year: 1960, pages: [] }],
    holidays: [{ text: 'Harbour Day', pages: [] }],
  };
}

export async function startFakeWikimedia(): Promise<FakeWikimedia> {
  const state = { mode: 'ok' as FakeWikimediaMode };
  const problem = (status: number, title: string) => ({ type: 'https://mediawiki.org/wiki/HyperSwitch/errors/not_found', title, status });
  const http = await startFakeHttp((req, res, url) => {
    const ua = req.headers['user-agent'] ?? '';
    if (!/Hearth\/\S+ \(/.test(ua)) return sendJson(res, 403, problem(403, 'Please set a user-agent and respect our robot policy'));
    if (state.mode === 'limited') return sendJson(res, 429, problem(429, 'Too many requests'), { 'retry-after': '90' });
    if (state.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end('{"selected": [{"text": "cut off');
    }
    const m = /^\/([a-z]{2,3})\/api\/rest_v1\/feed\/onthisday\/(all|selected|births|deaths|events|holidays)\/(\d{2})\/(\d{2})$/.exec(url.pathname);
    if (!m) return sendJson(res, 404, problem(404, 'Not found.'));
    const [, lang, type, mm, dd] = m as unknown as [string, string, string, string, string];
    const valid = new Date(`2024-${mm}-${dd}T00:00:00Z`);
    if (!['en', 'de'].includes(lang) || Number.isNaN(valid.getTime()) || valid.toISOString().slice(5, 10) !== `${mm}-${dd}`) return sendJson(res, 404, problem(404, 'Not found.'));
    const all = day(lang, mm, dd);
    const body = type === 'all' ? all : { [type]: all[type as keyof typeof all] };
    sendJson(res, 200, body, { etag: `"1234/${randomUUID()}"`, 'cache-control': 's-maxage=300, max-age=60' });
  });
  return {
    ...http,
    get mode() {
      return state.mode;
    },
    set mode(m: FakeWikimediaMode) {
      state.mode = m;
    },
  };
}
