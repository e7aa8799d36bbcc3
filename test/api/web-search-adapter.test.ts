// The SearXNG adapter against the search fake: the JSON API's shape, categories, and every way a
// search server fails becoming a WebSearchError with a sentence; the household's own search server
// on the LAN is reached only through a guard that lets exactly its origin through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebSearchClient, searchEndpoint, WebSearchError } from '../../server/adapters/web-search/searxng.js';
import { createSsrfGuard, type SsrfGuard } from '../../server/platform/ssrf.js';
import { startFakeWebSearch, type FakeWebSearch } from '../fakes/web-search.js';

describe('web search adapter (SearXNG JSON API)', () => {
  let fake: FakeWebSearch;
  let guard: SsrfGuard;
  beforeAll(async () => {
    fake = await startFakeWebSearch();
    guard = createSsrfGuard({ allowOrigins: [fake.url] });
  });
  afterAll(async () => {
    await guard.close();
    await fake.close();
  });

  const failureOf = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(WebSearchError);
    expect((err as Error).message).toMatch(/^The web search/);
    return (err as WebSearchError).failure;
  };

  it('asks /search with format=json and the category, and reads url, title, content and pictures', async () => {
    fake.answer = (q, category) => [
      { url: 'https://maker.example/manual.pdf', title: `${q} (${category})`, content: 'The manual' },
      { url: 'https://maker.example/p', title: 'Photo', img_src: '/img/1.jpg', thumbnail: 'https://maker.example/t.jpg' },
      { url: 'javascript:alert(1)', title: 'not a web address' },
    ];
    const client = createWebSearchClient({ baseUrl: fake.url, guard });
    const results = await client.search('Brewtide CM-4200 manual filetype:pdf', { category: 'images' });
    expect(fake.requests.at(-1)).toEqual({ q: 'Brewtide CM-4200 manual filetype:pdf', category: 'images', format: 'json' });
    expect(results).toEqual([
      { url: 'https://maker.example/manual.pdf', title: 'Brewtide CM-4200 manual filetype:pdf (images)', content: 'The manual', imgSrc: null, thumbnail: null },
      { url: 'https://maker.example/p', title: 'Photo', content: '', imgSrc: 'https://maker.example/img/1.jpg', thumbnail: 'https://maker.example/t.jpg' },
    ]);
    await client.search('plain');
    expect(fake.requests.at(-1)!.category).toBe('general');
  });

  it('takes WEB_SEARCH_URL as the server or as its /search endpoint', () => {
    expect(searchEndpoint('http://searx.lan:8080').href).toBe('http://searx.lan:8080/search');
    expect(searchEndpoint('http://searx.lan:8080/searx/').href).toBe('http://searx.lan:8080/searx/search');
    expect(searchEndpoint('https://search.example/search?q=x').href).toBe('https://search.example/search');
  });

  it('says what went wrong: down, 404, garbage, slow, too large', async () => {
    fake.answer = () => [{ url: 'https://maker.example/', title: 'x'.repeat(5000) }];
    const client = createWebSearchClient({ baseUrl: fake.url, guard, timeoutMs: 300 });
    await fake.setMode('not-found');
    expect(await failureOf(client.search('q'))).toBe('http_error');
    for (const mode of ['garbage', 'bad-json', 'wrong-shape'] as const) {
      await fake.setMode(mode);
      expect(await failureOf(client.search('q')), mode).toBe('bad_response');
    }
    await fake.setMode('slow', { slowMs: 1_000 });
    expect(await failureOf(client.search('q'))).toBe('timeout');
    await fake.setMode('ok');
    expect(await failureOf(createWebSearchClient({ baseUrl: fake.url, guard, maxBytes: 1000 }).search('q'))).toBe('too_large');
    await fake.setMode('down');
    expect(await failureOf(client.search('q'))).toBe('unreachable');
    await fake.setMode('ok');
  });

  it('reaches a search server on a local address only through a guard that names its origin', async () => {
    const plain = createSsrfGuard();
    try {
      expect(await failureOf(createWebSearchClient({ baseUrl: fake.url, guard: plain }).search('q'))).toBe('blocked');
    } finally {
      await plain.close();
    }
  });
});
