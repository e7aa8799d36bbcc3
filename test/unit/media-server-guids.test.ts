// GUID resolution (spec rule 4) over every form in reference/plex.md §8: plex://, the Guid array's
// imdb/tmdb/tvdb, the legacy agents, hama, local:// and personal media, and the title-plus-year
// fallback.
import { describe, expect, it } from 'vitest';
import { discoverKeyOf, externalIds, parseGuid, resolveMedia, titleYearKey } from '../../server/modules/media-server/guids.js';

describe('parseGuid', () => {
  it('reads every form of §8', () => {
    expect(parseGuid('plex://show/5d9c086c46115600200aa2fe')).toEqual({ source: 'plex', id: '5d9c086c46115600200aa2fe', plexType: 'show', legacy: false });
    expect(parseGuid('plex://movie/5d776c2296b655001fe27228')).toMatchObject({ source: 'plex', plexType: 'movie' });
    expect(parseGuid('plex://episode/5d9c1276e9d5a1001f4ff1a9')).toMatchObject({ source: 'plex', plexType: 'episode' });
    expect(parseGuid('imdb://tt0944947')).toEqual({ source: 'imdb', id: 'tt0944947', legacy: false });
    expect(parseGuid('tmdb://1399')).toEqual({ source: 'tmdb', id: '1399', legacy: false });
    expect(parseGuid('tvdb://121361')).toEqual({ source: 'tvdb', id: '121361', legacy: false });
    expect(parseGuid('com.plexapp.agents.imdb://tt0310106?lang=en')).toEqual({ source: 'imdb', id: 'tt0310106', legacy: true });
    expect(parseGuid('com.plexapp.agents.thetvdb://400202?lang=en')).toEqual({ source: 'tvdb', id: '400202', legacy: true });
    expect(parseGuid('com.plexapp.agents.thetvdb://400202/1/2?lang=en')).toEqual({ source: 'tvdb', id: '400202', season: 1, episode: 2, legacy: true });
    expect(parseGuid('com.plexapp.agents.themoviedb://510101?lang=en')).toEqual({ source: 'tmdb', id: '510101', legacy: true });
    expect(parseGuid('com.plexapp.agents.themoviedb://1399/3/4?lang=en')).toMatchObject({ source: 'tmdb', id: '1399', season: 3, episode: 4 });
    expect(parseGuid('hama://tvdb-81797')).toEqual({ source: 'tvdb', id: '81797', legacy: true });
    expect(parseGuid('hama://anidb-1234')).toEqual({ source: 'anidb', id: '1234', legacy: true });
    expect(parseGuid('local://4521')).toEqual({ source: 'local', id: '4521', legacy: false });
    expect(parseGuid('com.plexapp.agents.none://9f1c2b?lang=xn')).toEqual({ source: 'none', id: '9f1c2b', legacy: true });
  });

  it('calls anything else unknown rather than guessing', () => {
    for (const bad of [null, undefined, '', 'tt0944947', 'plex://movie/nothex', 'plex://artist/5d9c086c46115600200aa2fe', 'imdb://0944947', 'tvdb://abc', 'com.plexapp.agents.lastfm://x', 'https://plex.tv/x']) {
      expect(parseGuid(bad).source, String(bad)).toBe('unknown');
    }
  });
});

describe('externalIds and discoverKeyOf', () => {
  it('takes the Guid array first, then the legacy GUID', () => {
    expect(externalIds('plex://show/5d9c086c46115600200aa2fe', ['imdb://tt0944947', 'tmdb://1399', 'tvdb://121361'])).toEqual({ imdb: 'tt0944947', tmdb: '1399', tvdb: '121361' });
    expect(externalIds('com.plexapp.agents.imdb://tt0310106?lang=en')).toEqual({ imdb: 'tt0310106', tmdb: null, tvdb: null });
    expect(externalIds('plex://movie/5d776c2296b655001fe27228')).toEqual({ imdb: null, tmdb: null, tvdb: null });
  });

  it('gives the discover key only for plex:// GUIDs (a PMS ratingKey is not one)', () => {
    expect(discoverKeyOf('plex://movie/5d776c2296b655001fe27228')).toBe('5d776c2296b655001fe27228');
    expect(discoverKeyOf('com.plexapp.agents.imdb://tt0310106?lang=en')).toBeNull();
    expect(discoverKeyOf('local://101')).toBeNull();
  });
});

describe('resolveMedia (rule 4)', () => {
  it('keys a movie on title plus year, whatever its agent', () => {
    const plex = resolveMedia({ type: 'movie', title: 'The Night Harbor', year: 2019, guid: 'plex://movie/5d776c2296b655001fe20101', guids: ['imdb://tt7200101', 'tmdb://510101'] });
    expect(plex).toEqual({ kind: 'movie', title: 'The Night Harbor', year: 2019, key: 'movie:the night harbor|2019', ids: { imdb: 'tt7200101', tmdb: '510101', tvdb: null }, discoverKey: '5d776c2296b655001fe20101' });
    const legacy = resolveMedia({ type: 'movie', title: "Grandma's Tapes", year: 2003, guid: 'com.plexapp.agents.imdb://tt0310106?lang=en' });
    expect(legacy).toMatchObject({ kind: 'movie', key: 'movie:grandmas tapes|2003', ids: { imdb: 'tt0310106' }, discoverKey: null });
    // two films of one title stay apart by their year
    expect(resolveMedia({ type: 'movie', title: 'Northbound', year: 1987, guid: 'local://105' }).key).not.toBe(resolveMedia({ type: 'movie', title: 'Northbound', year: 2008, guid: 'local://104' }).key);
  });

  it('keys a show on its show-database id from the Guid array, or from the legacy TV agent', () => {
    expect(resolveMedia({ type: 'show', title: 'Harbor Lights', year: 2018, guid: 'plex://show/5d9c086c46115600200a0201', guids: ['imdb://tt7200201', 'tmdb://510201', 'tvdb://300201'] })).toMatchObject({
      kind: 'show',
      showId: { source: 'tvdb', id: '300201' },
      key: 'show:tvdb:300201',
      discoverKey: '5d9c086c46115600200a0201',
    });
    expect(resolveMedia({ type: 'show', title: 'Quiet Planet', year: 2022, guid: 'com.plexapp.agents.thetvdb://400202?lang=en' })).toMatchObject({ key: 'show:tvdb:400202', discoverKey: null });
    expect(resolveMedia({ type: 'show', title: 'Old Times', year: 1999, guid: 'com.plexapp.agents.themoviedb://1399?lang=en' })).toMatchObject({ showId: { source: 'tmdb', id: '1399' }, key: 'show:tmdb:1399' });
    expect(resolveMedia({ type: 'show', title: 'Anime', year: 2001, guid: 'hama://tvdb-81797' })).toMatchObject({ key: 'show:tvdb:81797' });
  });

  it('resolves an episode through its show: the fetched show, else a legacy episode GUID', () => {
    const ep = { type: 'episode', title: 'Harbor Lights 1.3', year: 2018, guid: 'plex://episode/5d776c2296b655001fe20113', guids: ['imdb://tt920113'], grandparentGuid: 'plex://show/5d9c086c46115600200a0201', grandparentTitle: 'Harbor Lights', parentIndex: 1, index: 3 };
    expect(resolveMedia(ep, { title: 'Harbor Lights', year: 2018, guid: 'plex://show/5d9c086c46115600200a0201', guids: ['tvdb://300201'] })).toMatchObject({
      kind: 'show',
      title: 'Harbor Lights',
      key: 'show:tvdb:300201',
      season: 1,
      episode: 3,
      discoverKey: '5d9c086c46115600200a0201',
    });
    // without the show's Guid array the episode's own imdb id is not the show's: fall back to title plus year
    expect(resolveMedia({ ...ep, guids: [] })).toMatchObject({ showId: null, key: 'show:title:harbor lights|2018' });
    expect(resolveMedia({ type: 'episode', title: 'Quiet Planet 1.2', year: 2022, guid: 'com.plexapp.agents.thetvdb://400202/1/2?lang=en', grandparentTitle: 'Quiet Planet', grandparentGuid: 'com.plexapp.agents.thetvdb://400202?lang=en' })).toMatchObject({
      key: 'show:tvdb:400202',
      season: 1,
      episode: 2,
    });
    expect(resolveMedia({ type: 'episode', title: 'Quiet Planet 1.2', year: 2022, guid: 'com.plexapp.agents.thetvdb://400202/1/2?lang=en' })).toMatchObject({ key: 'show:tvdb:400202', season: 1, episode: 2 });
  });

  it('falls back to title plus year for a show without GUIDs (local://), and resolves personal media to nothing', () => {
    expect(resolveMedia({ type: 'show', title: 'Café Stories!', year: 2020, guid: 'local://3001' })).toMatchObject({ showId: null, key: 'show:title:cafe stories|2020' });
    expect(resolveMedia({ type: 'movie', title: 'Beach Day', year: 2024, guid: 'com.plexapp.agents.none://1001?lang=xn' })).toEqual({ kind: 'personal', title: 'Beach Day', year: 2024, key: null, ids: { imdb: null, tmdb: null, tvdb: null }, discoverKey: null });
    expect(resolveMedia({ type: 'artist', title: 'A band', year: null, guid: 'plex://artist/5d9c086c46115600200aa2fe' }).kind).toBe('personal');
  });

  it('normalizes titles for the movie key: case, accents, apostrophes, punctuation and ampersands', () => {
    expect(titleYearKey('  Amélie & Friends: Part II ', 2001)).toBe('amelie and friends part ii|2001');
    expect(titleYearKey('Grandma’s Tapes', null)).toBe('grandmas tapes|');
  });
});
