// Today's admin page (/admin/today): the household's place for the weather (searched by town name,
// asked of the geocoder only when the admin presses Search; saved rounded to about 1 km), the news
// feeds the household follows (add by address, remove), and each source's status: its last fetch,
// last error, next poll and what it is sent.
import { useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { fmt } from '../../ui/locale';
import { PageHeader } from '../../ui/PageHeader';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { Freshness } from './Freshness';
import type { Sections, UnitSystem, WeatherSource } from '../../../../server/modules/today/schema.js';
import { TeamBadge } from './Matches';
import { useAddFeed, useBriefingAdmin, useFollowTeam, useImportOpml, useNewsFeeds, useRemoveFeed, useSaveLocation, useSearchPlace, useSearchTeam, useSetLanguage, useSetSections, useSetWeatherSource, useSports, useUnfollowTeam } from './queries';
import './today.css';

const SOURCE_NAMES: Record<string, string> = { weather: 'Weather', news: 'News', 'on-this-day': 'On this day', sports: 'Sports' };
const when = (iso: string | null) => (iso ? fmt().dateTime(iso) : 'Not yet');

export function TodayAdminPage(): ReactElement {
  const settings = useBriefingAdmin();
  return (
    <section className="page today-admin" aria-labelledby="today-admin-title">
      <PageHeader titleId="today-admin-title" title="Today" description="Where the household is for the weather, the news feeds it follows, and what each source is sent." />
      {!settings.data ? (
        settings.error ? <ErrorState title="The Today settings did not load" error={settings.error} onRetry={() => void settings.refetch()} /> : <LoadingState label="Loading the Today settings…" />
      ) : (
        <>
          {settings.data.offline ? (
            <p className="banner banner--warn" role="status">
              Hearth is in offline mode: nothing is fetched, and the last copies are shown. Admin › Connectivity says who switched it on and how to go online.
            </p>
          ) : null}
          <Place current={settings.data.location} offline={settings.data.offline} />
          <Language current={settings.data.language} />
          <SectionsAndUnits sections={settings.data.sections} units={settings.data.units} weatherSource={settings.data.weatherSource} />
          <Feeds offline={settings.data.offline} />
          <Teams offline={settings.data.offline} />
          <section className="card today__block" aria-labelledby="today-sources">
            <h2 id="today-sources" className="today__h2">
              Sources
            </h2>
            <ul className="today-admin__sources">
              {settings.data.sources.map((s) => (
                <li key={s.source} data-testid={`source-${s.source}`}>
                  <strong>{SOURCE_NAMES[s.source] ?? s.source}</strong> <span className="muted">({s.host})</span>
                  <br />
                  Sent: {s.sends}
                  <br />
                  Last fetch: {when(s.lastFetch)} · Next: {when(s.nextPoll)}
                  {s.lastError ? <span className="today-admin__error"> · Last problem: {s.lastError}</span> : null}
                </li>
              ))}
            </ul>
          </section>
        </>
      )}
    </section>
  );
}

function Place({ current, offline }: { current: { name: string; lat: number; lon: number } | null; offline: boolean }): ReactElement {
  const [q, setQ] = useState('');
  const search = useSearchPlace();
  const save = useSaveLocation();
  const toast = useToast();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (q.trim().length >= 2) search.mutate(q.trim());
  };
  return (
    <section className="card today__block" aria-labelledby="today-place">
      <h2 id="today-place" className="today__h2">
        Place for the weather
      </h2>
      <p data-testid="current-place">
        {current ? `${current.name} (${current.lat.toFixed(2)}, ${current.lon.toFixed(2)})` : 'Not set yet. Search for the household’s town.'}
      </p>
      <form className="today-admin__search" onSubmit={submit} role="search" aria-label="Search for a town">
        <TextField label="Town" name="town" value={q} onChange={(e) => setQ(e.target.value)} hint={offline ? 'The town search needs the internet; Hearth is in offline mode.' : 'Only the town’s name is sent to Open-Meteo’s geocoder.'} disabled={offline} />
        <button type="submit" className="btn" disabled={offline || q.trim().length < 2 || search.isPending}>
          {search.isPending ? 'Searching…' : 'Search'}
        </button>
      </form>
      <FormError message={search.error ? errorMessage(search.error) : save.error ? errorMessage(save.error) : null} />
      {search.data ? (
        search.data.results.length === 0 ? (
          <p role="status">No town by that name. Try another spelling or a nearby town.</p>
        ) : (
          <ul className="today-admin__places" aria-label="Towns found">
            {search.data.results.map((p) => (
              <li key={`${p.lat},${p.lon}`}>
                <span>
                  {p.name}
                  <span className="muted"> {[p.region, p.country].filter(Boolean).join(', ')}</span>
                </span>
                <button
                  type="button"
                  className="btn btn--compact"
                  disabled={save.isPending}
                  onClick={() =>
                    save.mutate({ name: p.name, lat: p.lat, lon: p.lon }, { onSuccess: (saved) => { toast(`The weather is now for ${saved.name}.`); search.reset(); setQ(''); } })
                  }
                >
                  Use {p.name}
                  <span className="visually-hidden"> {[p.region, p.country].filter(Boolean).join(', ')}</span>
                </button>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </section>
  );
}

function Feeds({ offline }: { offline: boolean }): ReactElement {
  const feeds = useNewsFeeds();
  const add = useAddFeed();
  const remove = useRemoveFeed();
  const [url, setUrl] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(url.trim(), { onSuccess: () => setUrl('') });
  };
  return (
    <section className="card today__block" aria-labelledby="today-feeds">
      <h2 id="today-feeds" className="today__h2">
        News feeds
      </h2>
      <form className="today-admin__search" onSubmit={submit}>
        <TextField label="Feed or site address" name="feed" type="url" value={url} onChange={(e) => setUrl(e.target.value)} hint={offline ? 'Adding a feed needs the internet; Hearth is in offline mode.' : 'An RSS, Atom or JSON feed, or a site that names one.'} disabled={offline} />
        <button type="submit" className="btn" disabled={offline || !url.trim() || add.isPending}>
          {add.isPending ? 'Adding…' : 'Add feed'}
        </button>
      </form>
      <FormError message={add.error ? errorMessage(add.error) : remove.error ? errorMessage(remove.error) : null} />
      <OpmlImport />
      {!feeds.data ? (
        feeds.error ? <ErrorState title="The feeds did not load" error={feeds.error} onRetry={() => void feeds.refetch()} /> : <LoadingState label="Loading the feeds…" />
      ) : feeds.data.feeds.length === 0 ? (
        <p>The household follows no feeds yet.</p>
      ) : (
        <ul className="today-admin__feeds">
          {feeds.data.feeds.map((f) => (
            <li key={f.id}>
              <span>
                <strong>{f.title}</strong> <span className="muted">{f.itemCount} items</span>
                {f.state === 'gone' ? <span className="badge badge--error"> Stopped: the site removed it</span> : null}
                <Freshness fetchedAt={f.lastFetch} ageSeconds={f.lastFetch ? Math.max(0, Math.floor((Date.now() - Date.parse(f.lastFetch)) / 1000)) : null} stale={f.lastError !== null} lastError={f.lastError} />
                {f.lastError ? <span className="today-admin__error">{f.lastError}</span> : null}
              </span>
              <button type="button" className="btn btn--ghost btn--compact" disabled={remove.isPending} onClick={() => remove.mutate(f.id)}>
                Remove {f.title}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Teams({ offline }: { offline: boolean }): ReactElement {
  const sports = useSports();
  const search = useSearchTeam();
  const follow = useFollowTeam();
  const unfollow = useUnfollowTeam();
  const [q, setQ] = useState('');
  const followed = new Set(sports.data?.teams.map((t) => t.team.id) ?? []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (q.trim().length >= 2) search.mutate(q.trim());
  };
  return (
    <section className="card today__block" aria-labelledby="today-teams">
      <h2 id="today-teams" className="today__h2">
        Teams for the scores
      </h2>
      <form className="today-admin__search" onSubmit={submit} aria-label="Search for a team">
        <TextField label="Team" name="team" value={q} onChange={(e) => setQ(e.target.value)} hint={offline ? 'The team search needs the internet; Hearth is in offline mode.' : 'Searched on TheSportsDB.'} disabled={offline} />
        <button type="submit" className="btn" disabled={offline || q.trim().length < 2 || search.isPending}>
          {search.isPending ? 'Searching…' : 'Search teams'}
        </button>
      </form>
      <FormError message={search.error ? errorMessage(search.error) : follow.error ? errorMessage(follow.error) : unfollow.error ? errorMessage(unfollow.error) : null} />
      {search.data ? (
        search.data.results.length === 0 ? (
          <p role="status">No team by that name.</p>
        ) : (
          <ul className="today-admin__places" aria-label="Teams found">
            {search.data.results.map((t) => (
              <li key={t.id}>
                <span>
                  {t.name} <span className="muted">{[t.sport, t.league].filter(Boolean).join(', ')}</span>
                </span>
                <button type="button" className="btn btn--compact" disabled={follow.isPending || followed.has(t.id)} onClick={() => follow.mutate(t.id, { onSuccess: () => search.reset() })}>
                  {followed.has(t.id) ? `Following ${t.name}` : `Follow ${t.name}`}
                </button>
              </li>
            ))}
          </ul>
        )
      ) : null}
      {!sports.data ? (
        sports.error ? <ErrorState title="The followed teams did not load" error={sports.error} onRetry={() => void sports.refetch()} /> : <LoadingState label="Loading the followed teams…" />
      ) : sports.data.teams.length === 0 ? (
        <p>The household follows no teams yet.</p>
      ) : (
        <ul className="today-admin__feeds">
          {sports.data.teams.map((t) => (
            <li key={t.team.id}>
              <span>
                <TeamBadge url={t.team.badgeUrl} />
                <strong>{t.team.name}</strong>
              </span>
              <button type="button" className="btn btn--ghost btn--compact" disabled={unfollow.isPending} onClick={() => unfollow.mutate(t.team.id)}>
                Stop following {t.team.name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

// the languages Wikipedia's "on this day" feed exists in (the server refuses others)
const LANGUAGE_NAMES: Record<string, string> = { en: 'English', de: 'Deutsch', fr: 'Français', sv: 'Svenska', pt: 'Português', ru: 'Русский', es: 'Español', ar: 'العربية', bs: 'Bosanski', uk: 'Українська', it: 'Italiano', tr: 'Türkçe', zh: '中文', cs: 'Čeština' };

function Language({ current }: { current: string }): ReactElement {
  const set = useSetLanguage();
  return (
    <section className="card today__block" aria-labelledby="today-language">
      <h2 id="today-language" className="today__h2">
        Language of On this day
      </h2>
      <div className="field">
        <label htmlFor="today-language-select" className="field__label">
          Wikipedia language
        </label>
        <select id="today-language-select" className="input" value={current} disabled={set.isPending} onChange={(e) => set.mutate(e.target.value)}>
          {Object.keys(LANGUAGE_NAMES).map((l) => (
            <option key={l} value={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
      </div>
      <FormError message={set.error ? errorMessage(set.error) : null} />
    </section>
  );
}

const SECTION_LABELS: Array<[keyof Sections, string]> = [
  ['weather', 'Weather'],
  ['news', 'Headlines'],
  ['onThisDay', 'On this day'],
  ['sports', 'Scores'],
];

/** The units of the weather, and which parts of Today are on (the briefing, the widgets and the background refreshes follow them). */
function SectionsAndUnits({ sections, units, weatherSource }: { sections: Sections; units: UnitSystem; weatherSource: WeatherSource }): ReactElement {
  const setSections = useSetSections();
  const setSource = useSetWeatherSource();
  return (
    <section className="card today__block" aria-labelledby="today-sections">
      <h2 id="today-sections" className="today__h2">
        Sections, units and weather source
      </h2>
      <fieldset className="today-admin__switches">
        <legend>Parts of Today that are on</legend>
        {SECTION_LABELS.map(([key, label]) => (
          <label key={key} className="today-admin__switch">
            <input type="checkbox" checked={sections[key]} disabled={setSections.isPending} onChange={(e) => setSections.mutate({ [key]: e.target.checked })} /> {label}
          </label>
        ))}
      </fieldset>
      <p className="muted">A part switched off leaves the briefing and the home screen, and Hearth stops refreshing it.</p>
      <p>
        Units: {units === 'imperial' ? '°F and mph' : '°C and km/h'}, as the household’s <Link to="/admin/locale">language and region</Link> say (a member may choose their own in their profile).
      </p>
      <div className="field">
        <label htmlFor="today-weather-source" className="field__label">
          Weather source
        </label>
        <select id="today-weather-source" className="input" aria-describedby="today-weather-source-hint" value={weatherSource} disabled={setSource.isPending} onChange={(e) => setSource.mutate(e.target.value as WeatherSource)}>
          <option value="open-meteo">Open-Meteo (api.open-meteo.com)</option>
          <option value="met-norway">MET Norway (api.met.no)</option>
        </select>
        <p id="today-weather-source-hint" className="field__hint muted">Either is sent the household’s coordinates rounded to about 1 km. MET Norway gives no rain chance, sunrise or “feels like”; the town search always uses Open-Meteo.</p>
      </div>
      <FormError message={setSections.error ? errorMessage(setSections.error) : setSource.error ? errorMessage(setSource.error) : null} />
    </section>
  );
}

/** Imports a feed list (OPML) from a file or pasted text; says how many were added, already there, or skipped. */
function OpmlImport(): ReactElement {
  const importOpml = useImportOpml();
  const [pasted, setPasted] = useState('');
  const [fileError, setFileError] = useState<string | null>(null);
  const result = importOpml.data;
  const fromFile = (file: File | undefined) => {
    setFileError(null);
    if (!file) return;
    if (file.size > 1024 * 1024) return setFileError('That file is larger than 1 MB.');
    void file.text().then((text) => importOpml.mutate(text), () => setFileError('That file could not be read.'));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    importOpml.mutate(pasted, { onSuccess: () => setPasted('') });
  };
  return (
    <details className="today-admin__opml">
      <summary>Import a feed list (OPML)</summary>
      <div className="field">
        <label htmlFor="today-opml-file" className="field__label">
          OPML file
        </label>
        <input id="today-opml-file" className="input" type="file" accept=".opml,.xml,text/xml,text/x-opml" disabled={importOpml.isPending} onChange={(e) => fromFile(e.target.files?.[0])} />
      </div>
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="today-opml-text" className="field__label">
            Or paste the OPML
          </label>
          <textarea id="today-opml-text" className="input" rows={4} value={pasted} onChange={(e) => setPasted(e.target.value)} />
        </div>
        <button type="submit" className="btn" disabled={!pasted.trim() || importOpml.isPending}>
          {importOpml.isPending ? 'Importing…' : 'Import'}
        </button>
      </form>
      <FormError message={fileError ?? (importOpml.error ? errorMessage(importOpml.error) : null)} />
      {result ? (
        <p role="status">
          {result.added.length} {result.added.length === 1 ? 'feed' : 'feeds'} added, {result.existing} already followed, {result.skipped} skipped (no http or https feed address).
        </p>
      ) : null}
    </details>
  );
}
