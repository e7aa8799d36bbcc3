// /admin/locale: the household's language and region. The language, the time zone (searchable),
// the units, the first day of the week and the date and time formats, with a live preview of how
// dates, times, numbers and measures will read; fields an admin never set follow this computer and
// say so. Saving draws every screen again in the new locale and asks every answer again.
import { useMemo, useState, type FormEvent, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import type { HouseholdLocale, LocaleSettingsResponse } from '../../api/types';
import { createFormat } from '../../ui/locale';
import { PageHeader } from '../../ui/PageHeader';
import { SegmentedControl } from '../../ui/SegmentedControl';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import { languageChoices, languageName, timeZones, UNIT_OPTIONS, WEEKDAY_NAMES } from './choices';
import { useLocaleSettings, useSaveLocale } from './queries';
import './locale.css';

export function LocaleAdminPage(): ReactElement {
  const settings = useLocaleSettings();
  let body: ReactElement;
  if (settings.error) body = <ErrorState title="The language and region did not load" error={settings.error} onRetry={() => void settings.refetch()} />;
  else if (!settings.data) body = <LoadingState label="Loading the language and region…" />;
  else body = <LocaleForm key={JSON.stringify(settings.data.locale)} settings={settings.data} />;
  return (
    <section className="page locale-admin" aria-labelledby="locale-admin-title">
      <PageHeader titleId="locale-admin-title" title="Language and region" description="How every screen and answer writes dates, times, numbers and measures. Each member may choose their own language and units in their profile." />
      {body}
    </section>
  );
}

function LocaleForm({ settings }: { settings: LocaleSettingsResponse }): ReactElement {
  const [draft, setDraft] = useState<HouseholdLocale>(settings.locale);
  const [zoneQuery, setZoneQuery] = useState('');
  const toast = useToast();
  const save = useSaveLocale(() => toast('The household’s language and region are saved.'));
  const set = <K extends keyof HouseholdLocale>(key: K, value: HouseholdLocale[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const machineNote = (key: keyof HouseholdLocale) => (settings.fromMachine.includes(key) ? 'Follows this computer until you choose.' : undefined);

  const { zones, found } = useMemo(() => {
    const q = zoneQuery.trim().toLowerCase().replace(/\s+/g, '_');
    const all = timeZones();
    const matches = q ? all.filter((z) => z.toLowerCase().includes(q)) : all;
    // the chosen zone stays in the list whatever is searched
    return { zones: matches.includes(draft.timeZone) ? matches : [draft.timeZone, ...matches], found: matches.length };
  }, [zoneQuery, draft.timeZone]);
  const languages = useMemo(() => languageChoices(draft.language), [draft.language]);
  const changed = (Object.keys(draft) as Array<keyof HouseholdLocale>).filter((k) => draft[k] !== settings.locale[k]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (changed.length === 0) return;
    const body = Object.fromEntries(changed.map((k) => [k, draft[k]]));
    save.mutate(body);
  };

  return (
    <form className="locale-admin__grid" onSubmit={submit} aria-label="Language and region">
      <div className="card locale-admin__card">
        <div className="field">
          <label htmlFor="locale-language" className="field__label">
            Language
          </label>
          <select id="locale-language" className="input" value={draft.language} onChange={(e) => set('language', e.target.value)} aria-describedby="locale-language-hint">
            {languages.map((tag) => (
              <option key={tag} value={tag}>
                {languageName(tag)} ({tag})
              </option>
            ))}
          </select>
          <span id="locale-language-hint" className="field__hint">
            {machineNote('language') ?? 'Names of months and days, and how numbers are written.'}
          </span>
        </div>

        <div className="field">
          <label htmlFor="locale-zone" className="field__label">
            Time zone
          </label>
          <input className="input" type="search" placeholder="Search, e.g. Chicago" value={zoneQuery} onChange={(e) => setZoneQuery(e.target.value)} aria-label="Search time zones" aria-controls="locale-zone" />
          <select id="locale-zone" className="input locale-admin__zones" size={5} value={draft.timeZone} onChange={(e) => set('timeZone', e.target.value)} aria-describedby="locale-zone-hint">
            {zones.map((z) => (
              <option key={z} value={z}>
                {z.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
          <span id="locale-zone-hint" className="field__hint">
            {found === 0 ? 'No time zone has that name; try a city such as Chicago or Berlin. ' : ''}
            {machineNote('timeZone') ?? 'Today’s day, the briefing, match and air times are the household’s time in this zone.'}
          </span>
        </div>

        <div className="field">
          <span className="field__label">Units</span>
          <SegmentedControl label="Units" value={draft.units} onChange={(u) => set('units', u)} options={UNIT_OPTIONS} />
          <span className="field__hint">
            {draft.units === 'imperial' ? '°F, mph and miles' : '°C, km/h and kilometres'} for the weather, speeds and distances.{machineNote('units') ? ` ${machineNote('units')}` : ''}
          </span>
        </div>

        <div className="field">
          <label htmlFor="locale-first-day" className="field__label">
            First day of the week
          </label>
          <select id="locale-first-day" className="input" value={draft.firstDayOfWeek} onChange={(e) => set('firstDayOfWeek', Number(e.target.value))}>
            {WEEKDAY_NAMES.map((name, i) => (
              <option key={name} value={i + 1}>
                {name}
              </option>
            ))}
          </select>
        </div>

        <div className="field">
          <label htmlFor="locale-date-format" className="field__label">
            Date format
          </label>
          <select id="locale-date-format" className="input" value={draft.dateFormat} onChange={(e) => set('dateFormat', e.target.value as HouseholdLocale['dateFormat'])}>
            <option value="auto">As the language writes it</option>
            <option value="dmy">Day, month, year (31/12/2026)</option>
            <option value="mdy">Month, day, year (12/31/2026)</option>
            <option value="ymd">Year, month, day (2026-12-31)</option>
          </select>
        </div>

        <div className="field">
          <label htmlFor="locale-time-format" className="field__label">
            Time format
          </label>
          <select id="locale-time-format" className="input" value={draft.timeFormat} onChange={(e) => set('timeFormat', e.target.value as HouseholdLocale['timeFormat'])}>
            <option value="auto">As the language writes it</option>
            <option value="24h">24-hour (14:30)</option>
            <option value="12h">12-hour (2:30 PM)</option>
          </select>
        </div>
      </div>

      <Preview locale={draft} />

      <div className="locale-admin__actions">
        <FormError message={save.error ? errorMessage(save.error) : null} />
        <button type="submit" className="btn btn--primary" disabled={save.isPending || changed.length === 0}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        {changed.length > 0 ? (
          <button type="button" className="btn btn--ghost" disabled={save.isPending} onClick={() => setDraft(settings.locale)}>
            Undo changes
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** How dates, times and measures will read with these choices (now, in the chosen zone). */
export function Preview({ locale, title = 'Preview' }: { locale: HouseholdLocale; title?: string }): ReactElement {
  const f = createFormat(locale);
  const now = Date.now();
  const rows: Array<[string, string]> = [
    ['Date', f.date(now, 'short')],
    ['Long date', f.date(now, 'long')],
    ['Time', f.time(now)],
    ['An hour ago', f.relative(now - 3_600_000, now)],
    ['Number', f.number(1234567.89)],
    ['Temperature', f.temperature(locale.units === 'imperial' ? 68 : 20)],
    ['Wind', f.speed(locale.units === 'imperial' ? 9 : 15)],
    ['Distance', f.distance(12_400)],
    ['Week', f.weekdays().join(' ')],
  ];
  return (
    <section className="card locale-admin__card" aria-labelledby="locale-preview-title">
      <h2 id="locale-preview-title" className="locale-admin__h2">
        {title}
      </h2>
      <dl className="locale-admin__preview" data-testid="locale-preview">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
