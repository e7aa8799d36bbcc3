// Home widgets for Today: Weather (now, today's range, the next hours), Headlines (the newest items
// of the feeds the member follows) and On this day (a few events). Each says when its copy was
// fetched and marks one that is not up to date; says in words when its source is not set up or
// not available (with Try again); and leads to the Today page.
import type { ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { useUser } from '../../app/session';
import { degrees, Freshness, hourOf, matchLine, TeamBadge, TodayMatches, useBriefing, useNews, useOnThisDay, useSports, useTodaySections, useWeather } from '../today';
import { ToolCard, type WidgetProps } from './widget-card';

export const TODAY_DEFS = {
  weather: { toolId: 'weather', name: 'Weather', icon: '⛅' },
  news: { toolId: 'news', name: 'Headlines', icon: '📰' },
  'on-this-day': { toolId: 'on-this-day', name: 'On this day', icon: '📅' },
  scores: { toolId: 'scores', name: 'Scores', icon: '🏆' },
  briefing: { toolId: 'briefing', name: 'Briefing', icon: '☀️' },
} as const;

const TODAY_LINK = { to: '/today', label: 'Open Today' };

function Failed({ error, retry }: { error: unknown; retry: () => unknown }): ReactElement {
  return (
    <p className="widget__text" role="status">
      {errorMessage(error)}{' '}
      <button type="button" className="btn btn--ghost btn--compact" onClick={() => void retry()}>
        Try again
      </button>
    </p>
  );
}

export function WeatherWidget({ tool }: WidgetProps): ReactElement {
  const weather = useWeather();
  const isAdmin = useUser().role === 'admin';
  const w = weather.data;
  const text = !w ? (weather.error ? 'The forecast is not available.' : 'Looking up the weather…') : !w.configured ? 'The household’s place is not set yet.' : `${degrees(w.current.temperature)} · ${w.current.description} in ${w.location.name}`;
  return (
    <ToolCard tool={tool} def={TODAY_DEFS.weather} text={text} link={w && !w.configured ? (isAdmin ? { to: '/admin/today', label: 'Set the place' } : null) : TODAY_LINK}>
      {!w && weather.error ? <Failed error={weather.error} retry={weather.refetch} /> : null}
      {w && !w.configured && !isAdmin ? <p className="widget__text muted">An admin can set it in Admin, Today.</p> : null}
      {w?.configured ? (
        <>
          <p className="widget__text muted">
            Today {degrees(w.daily[0]?.min ?? null)} to {degrees(w.daily[0]?.max ?? null)}
            {w.current.apparentTemperature !== null ? ` · Feels like ${degrees(w.current.apparentTemperature)}` : ''}
          </p>
          <ul className="widget__items widget__items--row" aria-label="Next hours">
            {w.hourly
              .filter((_, i) => i > 0 && i % 3 === 0)
              .slice(0, 4)
              .map((h) => (
                <li key={h.time}>
                  {hourOf(h.time)} <strong>{degrees(h.temperature)}</strong>
                </li>
              ))}
          </ul>
          <Freshness fetchedAt={w.fetchedAt} ageSeconds={w.ageSeconds} stale={w.stale} lastError={w.lastError} />
        </>
      ) : null}
    </ToolCard>
  );
}

export function NewsWidget({ tool, span }: WidgetProps): ReactElement {
  const news = useNews();
  const isAdmin = useUser().role === 'admin';
  const n = news.data;
  const text = !n ? (news.error ? 'The headlines did not load.' : 'Loading the headlines…') : n.feeds.length === 0 ? 'No news feeds yet.' : n.items.length === 0 ? 'No headlines yet from the feeds you follow.' : 'The newest from the feeds you follow.';
  return (
    <ToolCard tool={tool} def={TODAY_DEFS.news} text={text} link={n && n.feeds.length === 0 ? (isAdmin ? { to: '/admin/today', label: 'Add a feed' } : null) : TODAY_LINK}>
      {!n && news.error ? <Failed error={news.error} retry={news.refetch} /> : null}
      {n && n.feeds.length === 0 && !isAdmin ? <p className="widget__text muted">An admin can add the feeds the household follows.</p> : null}
      {n && n.items.length > 0 ? (
        <>
          <ul className="widget__items">
            {n.items.slice(0, span === 2 ? 6 : 4).map((i) => (
              <li key={i.id}>
                {i.url ? (
                  <a href={i.url} target="_blank" rel="noopener noreferrer">
                    {i.title}
                  </a>
                ) : (
                  i.title
                )}{' '}
                <span className="muted">{i.feedTitle}</span>
              </li>
            ))}
          </ul>
          <Freshness fetchedAt={n.fetchedAt} ageSeconds={n.ageSeconds} stale={n.stale} />
        </>
      ) : null}
    </ToolCard>
  );
}

export function OnThisDayWidget({ tool }: WidgetProps): ReactElement {
  const otd = useOnThisDay();
  const d = otd.data;
  const items = d ? [...d.selected, ...d.events].slice(0, 3) : [];
  const text = !d ? (otd.error ? 'On this day is not available.' : 'Looking up this day in history…') : items.length === 0 ? 'Nothing recorded for this day.' : d.origin === 'archive' ? 'From the household’s offline Wikipedia.' : 'From Wikipedia.';
  return (
    <ToolCard tool={tool} def={TODAY_DEFS['on-this-day']} text={text} link={TODAY_LINK}>
      {!d && otd.error ? <Failed error={otd.error} retry={otd.refetch} /> : null}
      {d && items.length > 0 ? (
        <>
          <ul className="widget__items">
            {items.map((e, idx) => (
              <li key={`${e.year ?? 'x'}-${idx}`}>
                {e.year !== null ? <strong>{e.year < 0 ? `${-e.year} BC` : e.year}</strong> : null} {e.text}
              </li>
            ))}
          </ul>
          <Freshness fetchedAt={d.fetchedAt} ageSeconds={d.ageSeconds} stale={d.stale} lastError={d.lastError} />
        </>
      ) : null}
    </ToolCard>
  );
}


export function ScoresWidget({ tool }: WidgetProps): ReactElement {
  const sports = useSports();
  const isAdmin = useUser().role === 'admin';
  const data = sports.data;
  const text = !data ? (sports.error ? 'The scores did not load.' : 'Looking up the scores…') : data.teams.length === 0 ? 'The household follows no teams yet.' : 'The teams the household follows.';
  return (
    <ToolCard tool={tool} def={TODAY_DEFS.scores} text={text} link={data && data.teams.length === 0 ? (isAdmin ? { to: '/admin/today', label: 'Follow a team' } : null) : TODAY_LINK}>
      {!data && sports.error ? <Failed error={sports.error} retry={sports.refetch} /> : null}
      {data && data.teams.length === 0 && !isAdmin ? <p className="widget__text muted">An admin can choose the teams the household follows.</p> : null}
      {data && data.teams.length > 0 ? <TodayMatches compact /> : null}
      {data && data.teams.length > 0 ? (
        <ul className="widget__items">
          {data.teams.map((t) => (
            <li key={t.team.id}>
              <TeamBadge url={t.team.badgeUrl} />
              <strong>{t.team.name}</strong>
              {t.error ? <span className="muted"> {t.error}</span> : null}
              {t.last[0] ? <span> · Last: {matchLine(t.last[0])}</span> : null}
              {t.next[0] ? <span> · Next: {matchLine(t.next[0])}</span> : null}
              {t.stale && !t.error ? <span className="badge badge--warn"> Not up to date</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </ToolCard>
  );
}

/** The morning briefing: the chat model's summary in words when there is one, else the facts' own sentences (and why there is no summary). */
export function BriefingWidget({ tool }: WidgetProps): ReactElement {
  const briefing = useBriefing();
  const b = briefing.data;
  const text = !b ? (briefing.error ? 'The briefing did not load.' : 'Putting your briefing together…') : b.summary ? 'Your morning in a few words.' : b.sentences.length === 0 ? 'Nothing to tell yet: Today has no weather, headlines or events cached.' : 'Your morning, from what Hearth has.';
  return (
    <ToolCard tool={tool} def={TODAY_DEFS.briefing} text={text} link={TODAY_LINK}>
      {!b && briefing.error ? <Failed error={briefing.error} retry={briefing.refetch} /> : null}
      {b?.summary ? (
        <p className="widget__text" data-testid="briefing-summary">
          {b.summary}
        </p>
      ) : null}
      {b && !b.summary && b.sentences.length > 0 ? (
        <>
          <ul className="widget__items">
            {b.sentences.map((sentence) => (
              <li key={sentence}>{sentence}</li>
            ))}
          </ul>
          {b.summaryNote ? <p className="widget__text muted">{b.summaryNote}</p> : null}
        </>
      ) : null}
    </ToolCard>
  );
}

type SectionKey = 'weather' | 'news' | 'onThisDay' | 'sports';
const SECTION_OF: Record<SectionKey, { def: (typeof TODAY_DEFS)[keyof typeof TODAY_DEFS]; off: string }> = {
  weather: { def: TODAY_DEFS.weather, off: 'An admin switched the weather off.' },
  news: { def: TODAY_DEFS.news, off: 'An admin switched the headlines off.' },
  onThisDay: { def: TODAY_DEFS['on-this-day'], off: 'An admin switched On this day off.' },
  sports: { def: TODAY_DEFS.scores, off: 'An admin switched the scores off.' },
};

/** A Today widget that says so (and asks nothing of its source) while an admin has its section switched off. */
export function followsSection(section: SectionKey, Widget: (props: WidgetProps) => ReactElement): (props: WidgetProps) => ReactElement {
  function SectionWidget(props: WidgetProps): ReactElement {
    const sections = useTodaySections();
    const isAdmin = useUser().role === 'admin';
    if (sections.data && !sections.data[section]) {
      return <ToolCard tool={props.tool} def={SECTION_OF[section].def} text={SECTION_OF[section].off} link={isAdmin ? { to: '/admin/today', label: 'Today settings' } : null} />;
    }
    return <Widget {...props} />;
  }
  return SectionWidget;
}
