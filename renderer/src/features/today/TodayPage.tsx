// Today (/today): the household's weather (now, the next hours, the week), the headlines of the feeds
// the member did not hide (and the switch to hide one) and Wikipedia's "on this day". Each block
// says when its copy was fetched, marks a copy that is not up to date, and says so in words when its
// source is not available or not set up.
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { useUser } from '../../app/session';
import { PageHeader } from '../../ui/PageHeader';
import { OfflineNotice } from '../connectivity';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import type { OnThisDayItem } from '../../../../server/modules/today/schema.js';
import { fmt } from '../../ui/locale';
import { degrees, hourOf, matchLine, weekdayOf } from './as-of';
import { Freshness } from './Freshness';
import { TeamBadge, TodayMatches } from './Matches';
import { useHideFeed, useNews, useOnThisDay, useSports, useTodaySections, useWeather } from './queries';
import './today.css';

const SECTION_NAMES = { weather: 'Weather', news: 'Headlines', onThisDay: 'On this day', sports: 'Scores' } as const;

export function TodayPage(): ReactElement {
  // a part an admin switched off is left out (shown while the switches load: they are on by default)
  const sections = useTodaySections().data;
  const on = (k: keyof typeof SECTION_NAMES) => !sections || sections[k];
  const off = (Object.keys(SECTION_NAMES) as Array<keyof typeof SECTION_NAMES>).filter((k) => !on(k)).map((k) => SECTION_NAMES[k]);
  return (
    <section className="page today" aria-labelledby="today-title">
      <PageHeader titleId="today-title" title="Today" description="The weather at home, your headlines and what happened on this day." />
      <OfflineNotice what="Today shows the last copies it has; nothing new is fetched until Hearth is online again." />
      {off.length > 0 ? <p className="muted">Switched off by an admin: {off.join(', ')}.</p> : null}
      <div className="today__grid">
        {on('weather') ? <WeatherBlock /> : null}
        {on('news') ? <NewsBlock /> : null}
        {on('onThisDay') ? <OnThisDayBlock /> : null}
        {on('sports') ? <ScoresBlock /> : null}
      </div>
    </section>
  );
}

function WeatherBlock(): ReactElement {
  const weather = useWeather();
  const isAdmin = useUser().role === 'admin';
  const w = weather.data;
  return (
    <section className="card today__block" aria-labelledby="today-weather" data-testid="today-weather">
      <h2 id="today-weather" className="today__h2">
        Weather
      </h2>
      {!w ? (
        weather.error ? (
          <ErrorState title="The forecast is not available" error={weather.error} onRetry={() => void weather.refetch()} />
        ) : (
          <LoadingState label="Looking up the weather…" />
        )
      ) : !w.configured ? (
        <p>{isAdmin ? <>The household’s place is not set yet. <Link to="/admin/today">Set the place</Link> to see the weather.</> : 'The household’s place is not set yet; an admin can set it.'}</p>
      ) : (
        <>
          <p className="today-weather__now">
            <span className="today-weather__temp">{degrees(w.current.temperature, w.units.temperature, true)}</span>
            <span>
              {w.current.description} in {w.location.name}
              <br />
              <span className="muted">
                {w.current.apparentTemperature !== null ? `Feels like ${degrees(w.current.apparentTemperature)} · ` : ''}Wind {w.current.windSpeed === null ? '–' : fmt().number(Math.round(w.current.windSpeed))} {w.units.windSpeed === 'mp/h' ? 'mph' : w.units.windSpeed} · Humidity {w.current.humidity === null ? '–' : fmt().number(w.current.humidity)}%
              </span>
            </span>
          </p>
          <h3 className="today__h3">Next hours</h3>
          <ol className="today-weather__hours" aria-label="Next hours">
            {w.hourly.filter((_, i) => i % 3 === 0).map((h) => (
              <li key={h.time}>
                <span className="muted">{hourOf(h.time)}</span> <strong>{degrees(h.temperature)}</strong>
                {h.precipitationProbability ? <span className="muted"> {h.precipitationProbability}% rain</span> : null}
              </li>
            ))}
          </ol>
          <h3 className="today__h3">This week</h3>
          <ul className="today-weather__days">
            {w.daily.map((d) => (
              <li key={d.date}>
                <span className="today-weather__day">{weekdayOf(d.date)}</span>
                <span>{d.description}</span>
                <span>
                  {degrees(d.min)} / <strong>{degrees(d.max)}</strong>
                </span>
              </li>
            ))}
          </ul>
          <Freshness fetchedAt={w.fetchedAt} ageSeconds={w.ageSeconds} stale={w.stale} lastError={w.lastError} />
          <p className="today__credit muted">{w.credit}</p>
        </>
      )}
    </section>
  );
}

function NewsBlock(): ReactElement {
  const news = useNews();
  const hide = useHideFeed();
  const isAdmin = useUser().role === 'admin';
  const n = news.data;
  return (
    <section className="card today__block" aria-labelledby="today-news" data-testid="today-news">
      <h2 id="today-news" className="today__h2">
        Headlines
      </h2>
      {!n ? (
        news.error ? <ErrorState title="The headlines did not load" error={news.error} onRetry={() => void news.refetch()} /> : <LoadingState label="Loading the headlines…" />
      ) : n.feeds.length === 0 ? (
        <p>{isAdmin ? <>No news feeds yet. <Link to="/admin/today">Add a feed</Link> the household follows.</> : 'No news feeds yet; an admin can add the feeds the household follows.'}</p>
      ) : (
        <>
          {n.items.length === 0 ? <p>No headlines yet from the feeds you follow.</p> : null}
          <ul className="today-news__items">
            {n.items.map((i) => (
              <li key={i.id}>
                {i.url ? (
                  <a href={i.url} target="_blank" rel="noopener noreferrer">
                    {i.title}
                  </a>
                ) : (
                  <strong>{i.title}</strong>
                )}
                <span className="muted today-news__meta">
                  {' '}
                  {i.feedTitle}
                  {i.publishedAt ? ` · ${fmt().dateTime(i.publishedAt)}` : ''}
                </span>
                {i.summary ? <p className="today-news__summary">{i.summary}</p> : null}
              </li>
            ))}
          </ul>
          <Freshness fetchedAt={n.fetchedAt} ageSeconds={n.ageSeconds} stale={n.stale} />
          <h3 className="today__h3">Your feeds</h3>
          <ul className="today-news__feeds">
            {n.feeds.map((f) => (
              <li key={f.id}>
                <span>{f.title}</span>
                <button type="button" className="btn btn--ghost btn--compact" disabled={hide.isPending} onClick={() => hide.mutate({ id: f.id, hidden: !f.hidden })}>
                  {f.hidden ? `Show ${f.title}` : `Hide ${f.title}`}
                </button>
              </li>
            ))}
          </ul>
          {hide.error ? <p role="alert">{errorMessage(hide.error)}</p> : null}
        </>
      )}
    </section>
  );
}

function Items({ title, items }: { title: string; items: OnThisDayItem[] }): ReactElement | null {
  if (items.length === 0) return null;
  return (
    <>
      <h3 className="today__h3">{title}</h3>
      <ul className="today-otd__items">
        {items.slice(0, 10).map((e, idx) => (
          <li key={`${e.year ?? 'x'}-${idx}`}>
            {e.year !== null ? <strong>{e.year < 0 ? `${-e.year} BC` : e.year}</strong> : null} {e.text}{' '}
            {e.pages.slice(0, 1).map((p) =>
              // a page of the household's offline Wikipedia opens in the archive viewer; Wikipedia's own in a new tab
              p.url.startsWith('/') ? (
                <Link key={p.url} to={p.url} className="today-otd__link">
                  {p.title}
                </Link>
              ) : (
                <a key={p.url} href={p.url} target="_blank" rel="noopener noreferrer" className="today-otd__link">
                  {p.title}
                </a>
              ),
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

function OnThisDayBlock(): ReactElement {
  const otd = useOnThisDay();
  const d = otd.data;
  return (
    <section className="card today__block" aria-labelledby="today-otd" data-testid="today-otd">
      <h2 id="today-otd" className="today__h2">
        On this day
      </h2>
      {!d ? (
        otd.error ? <ErrorState title="On this day is not available" error={otd.error} onRetry={() => void otd.refetch()} /> : <LoadingState label="Looking up this day in history…" />
      ) : (
        <>
          <Items title="Selected" items={d.selected} />
          <Items title="Events" items={d.events} />
          <Items title="Born" items={d.births} />
          <Items title="Died" items={d.deaths} />
          <Items title="Holidays and observances" items={d.holidays} />
          <Freshness fetchedAt={d.fetchedAt} ageSeconds={d.ageSeconds} stale={d.stale} lastError={d.lastError} />
          <p className="today__credit muted">{d.credit}</p>
        </>
      )}
    </section>
  );
}

function ScoresBlock(): ReactElement {
  const sports = useSports();
  const isAdmin = useUser().role === 'admin';
  const d = sports.data;
  return (
    <section className="card today__block" aria-labelledby="today-scores" data-testid="today-scores">
      <h2 id="today-scores" className="today__h2">
        Scores
      </h2>
      {!d ? (
        sports.error ? <ErrorState title="The scores did not load" error={sports.error} onRetry={() => void sports.refetch()} /> : <LoadingState label="Looking up the scores…" />
      ) : d.teams.length === 0 ? (
        <p>{isAdmin ? <>The household follows no teams yet. <Link to="/admin/today">Follow a team</Link>.</> : 'The household follows no teams yet; an admin can choose them.'}</p>
      ) : (
        <>
          <h3 className="today__h3">Today’s matches</h3>
          <TodayMatches />
          {d.teams.map((t) => (
            <div key={t.team.id}>
              <h3 className="today__h3">
                <TeamBadge url={t.team.badgeUrl} />
                {t.team.name} {t.stale && !t.error ? <span className="badge badge--warn">Not up to date</span> : null}
              </h3>
              {t.error ? <p>{t.error}</p> : null}
              <ul className="today-otd__items">
                {t.last.slice(0, 3).map((m) => (
                  <li key={m.id}>{matchLine(m)}</li>
                ))}
                {t.next.slice(0, 3).map((m) => (
                  <li key={m.id}>{matchLine(m)}</li>
                ))}
              </ul>
            </div>
          ))}
          <p className="today__credit muted">{d.credit}</p>
        </>
      )}
    </section>
  );
}
