// Every date, time, number and measure the web app shows, written the way the signed-in member's
// locale says (GET /api/auth/session answers it: the household's language and region with their
// own language and units): Intl.DateTimeFormat in the household's time zone with its hour cycle and
// date order, Intl.NumberFormat in their language, °C/km/h/km or °F/mph/mi by their units.
// `createFormat` is pure (unit-tested); the app keeps one active format, set by the session
// (`setActiveLocale`), which the helpers below and `useFormat` read.

export interface FormatLocale {
  /** BCP 47 tag, e.g. "en-GB". */
  language: string;
  /** IANA zone, e.g. "Europe/Berlin". */
  timeZone: string;
  units: 'metric' | 'imperial';
  /** 1 Monday … 7 Sunday. */
  firstDayOfWeek: number;
  dateFormat: 'auto' | 'dmy' | 'mdy' | 'ymd';
  timeFormat: 'auto' | '12h' | '24h';
}

type DateIn = string | number | Date;
/** short: 3/12/2026; medium: 3 Dec 2026; long: Thursday 3 December 2026; day: 3 Dec (this year's); weekday: Thu */
export type DateStyle = 'short' | 'medium' | 'long' | 'day' | 'weekday';

const toDate = (v: DateIn) => (v instanceof Date ? v : new Date(v));
/** A calendar day ("2026-12-03") as the instant that is that day everywhere: written in UTC. */
const dayInstant = (day: string) => new Date(`${day.slice(0, 10)}T12:00:00Z`);

export interface Format {
  readonly locale: FormatLocale;
  /** A moment's date in the household's zone. */
  date(v: DateIn, style?: DateStyle): string;
  /** A calendar day ("2026-12-03", no zone: a forecast's day, a purchase date), never shifted. */
  day(day: string, style?: DateStyle): string;
  /** A moment's clock time in the household's zone: 14:05 or 2:05 PM. */
  time(v: DateIn): string;
  /** A local clock time written without a zone ("2026-05-14T09:00", a forecast's hour): 09:00 or 9 AM. */
  wallTime(local: string): string;
  /** Date and time: "3 Dec 2026, 14:05". */
  dateTime(v: DateIn, style?: 'short' | 'medium'): string;
  /** "5 minutes ago", "yesterday", "in 2 hours". */
  relative(v: DateIn, now?: number): string;
  number(n: number, opts?: Intl.NumberFormatOptions): string;
  /** A temperature already in the member's units (the server asked the source in them): "14 °C". */
  temperature(n: number | null): string;
  /** A wind speed already in the member's units: "12 km/h" / "7 mph". */
  speed(n: number | null): string;
  /** A distance given in metres, in the member's units: "850 m", "12.4 km" / "0.5 mi", "7.7 mi". */
  distance(metres: number): string;
  /** The weekday names in display order, starting at the household's first day of the week. */
  weekdays(width?: 'short' | 'long'): string[];
}

const hourCycle = (f: FormatLocale['timeFormat']): Pick<Intl.DateTimeFormatOptions, 'hourCycle'> => (f === '12h' ? { hourCycle: 'h12' } : f === '24h' ? { hourCycle: 'h23' } : {});

function safeLanguage(tag: string): string {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? 'en';
  } catch {
    return 'en';
  }
}

function safeZone(zone: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

export function createFormat(input: FormatLocale): Format {
  const locale = { ...input, language: safeLanguage(input.language), timeZone: safeZone(input.timeZone) };
  const lang = locale.language;
  const cache = new Map<string, Intl.DateTimeFormat>();
  const dtf = (key: string, opts: Intl.DateTimeFormatOptions, zone = locale.timeZone) => {
    const k = `${zone}|${key}`;
    let f = cache.get(k);
    if (!f) {
      f = new Intl.DateTimeFormat(lang, { ...opts, timeZone: zone });
      cache.set(k, f);
    }
    return f;
  };

  /** The date written in the admin's order (dmy/mdy/ymd) from the language's own parts; 'auto' keeps the language's. */
  const ordered = (d: Date, style: DateStyle, zone: string): string => {
    const opts: Record<DateStyle, Intl.DateTimeFormatOptions> = {
      short: { day: 'numeric', month: 'numeric', year: 'numeric' },
      medium: { day: 'numeric', month: 'short', year: 'numeric' },
      long: { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
      day: { day: 'numeric', month: 'short' },
      weekday: { weekday: 'short' },
    };
    const f = dtf(`date:${style}`, opts[style], zone);
    if (locale.dateFormat === 'auto' || style === 'weekday') return f.format(d);
    const p = Object.fromEntries(f.formatToParts(d).map((x) => [x.type, x.value])) as Partial<Record<Intl.DateTimeFormatPartTypes, string>>;
    const { day = '', month = '', year, weekday } = p;
    if (style === 'short') {
      const dd = day.padStart(2, '0');
      const mm = month.padStart(2, '0');
      return locale.dateFormat === 'ymd' ? `${year}-${mm}-${dd}` : locale.dateFormat === 'mdy' ? `${mm}/${dd}/${year}` : `${dd}/${mm}/${year}`;
    }
    const core = locale.dateFormat === 'ymd' ? [year, month, day] : locale.dateFormat === 'mdy' ? [month, year ? `${day},` : day, year] : [day, month, year];
    const text = core.filter(Boolean).join(' ');
    return weekday ? `${weekday}, ${text}` : text;
  };

  const time = (d: Date, zone: string) => dtf('time', { hour: 'numeric', minute: '2-digit', ...hourCycle(locale.timeFormat) }, zone).format(d);
  const num = new Map<string, Intl.NumberFormat>();
  const number = (n: number, opts: Intl.NumberFormatOptions = {}) => {
    const k = JSON.stringify(opts);
    let f = num.get(k);
    if (!f) {
      f = new Intl.NumberFormat(lang, opts);
      num.set(k, f);
    }
    return f.format(n);
  };
  const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  const imperial = locale.units === 'imperial';

  return {
    locale,
    date: (v, style = 'medium') => ordered(toDate(v), style, locale.timeZone),
    day: (day, style = 'medium') => ordered(dayInstant(day), style, 'UTC'),
    time: (v) => time(toDate(v), locale.timeZone),
    wallTime: (local) => time(new Date(`${local.slice(0, 16)}:00Z`), 'UTC'),
    dateTime: (v, style = 'medium') => `${ordered(toDate(v), style, locale.timeZone)}, ${time(toDate(v), locale.timeZone)}`,
    relative: (v, now = Date.now()) => {
      const s = Math.round((toDate(v).getTime() - now) / 1000);
      const a = Math.abs(s);
      if (a < 45) return rtf.format(0, 'second');
      if (a < 45 * 60) return rtf.format(Math.round(s / 60), 'minute');
      if (a < 22 * 3600) return rtf.format(Math.round(s / 3600), 'hour');
      if (a < 7 * 86400) return rtf.format(Math.round(s / 86400), 'day');
      return ordered(toDate(v), 'medium', locale.timeZone);
    },
    number,
    temperature: (n) => (n === null ? '–' : `${number(Math.round(n))} ${imperial ? '°F' : '°C'}`),
    speed: (n) => (n === null ? '–' : `${number(Math.round(n))} ${imperial ? 'mph' : 'km/h'}`),
    distance: (metres) => {
      if (imperial) {
        const miles = metres / 1609.344;
        return miles < 0.1 ? `${number(Math.round(metres * 3.28084 / 10) * 10)} ft` : `${number(miles, { maximumFractionDigits: miles < 10 ? 1 : 0 })} mi`;
      }
      return metres < 1000 ? `${number(Math.round(metres / 10) * 10)} m` : `${number(metres / 1000, { maximumFractionDigits: metres < 10_000 ? 1 : 0 })} km`;
    },
    weekdays: (width = 'short') => {
      const f = dtf(`weekday:${width}`, { weekday: width }, 'UTC');
      // 2024-01-01 was a Monday (ISO day 1)
      return Array.from({ length: 7 }, (_, i) => f.format(new Date(Date.UTC(2024, 0, ((locale.firstDayOfWeek - 1 + i) % 7) + 1, 12))));
    },
  };
}

/** The browser's own conventions: what the app shows before the session has answered. */
export function browserLocale(): FormatLocale {
  const o = Intl.DateTimeFormat().resolvedOptions();
  return { language: o.locale, timeZone: o.timeZone || 'UTC', units: 'metric', firstDayOfWeek: 1, dateFormat: 'auto', timeFormat: 'auto' };
}

let active: Format = createFormat(browserLocale());

/** The session's effective locale becomes the one every screen formats with. */
export function setActiveLocale(locale: FormatLocale): void {
  active = createFormat(locale);
}

/** The active format (the signed-in member's). */
export const fmt = (): Format => active;
