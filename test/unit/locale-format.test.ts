// The web app's one formatting module (renderer/src/ui/locale.ts) and the server's zone arithmetic
// (server/platform/clock.ts): dates in the household's zone and the admin's date order and hour
// cycle, numbers in the member's language, measures in their units, weeks from the household's
// first day; and a zone's offset, day and midnight across DST.
import { describe, expect, it } from 'vitest';
import { startOfZonedDay, withLocalOffset, zonedDay, zoneOffsetMinutes } from '../../server/platform/clock.js';
import { SetLocaleBody, supportedLanguage, supportedTimeZone } from '../../server/modules/locale/schema.js';
import { createFormat, type FormatLocale } from '../../renderer/src/ui/locale.js';

const base: FormatLocale = { language: 'en-US', timeZone: 'UTC', units: 'metric', firstDayOfWeek: 1, dateFormat: 'auto', timeFormat: 'auto' };
const at = Date.parse('2026-12-03T14:05:00Z');
// Intl writes a narrow no-break space before AM/PM in recent ICU: compare with plain spaces
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');

describe('createFormat (renderer/src/ui/locale.ts)', () => {
  it('writes a moment’s time in the household’s zone and hour cycle', () => {
    expect(plain(createFormat({ ...base, timeFormat: '12h' }).time(at))).toBe('2:05 PM');
    expect(createFormat({ ...base, timeFormat: '24h' }).time(at)).toBe('14:05');
    expect(createFormat({ ...base, timeZone: 'America/New_York', timeFormat: '24h' }).time(at)).toBe('09:05');
    expect(createFormat({ ...base, timeZone: 'Asia/Kolkata', timeFormat: '24h' }).time(at)).toBe('19:35');
    // a local hour written without a zone (a forecast's) is never shifted
    expect(plain(createFormat({ ...base, timeZone: 'Asia/Tokyo', timeFormat: '12h' }).wallTime('2026-05-14T09:00'))).toBe('9:00 AM');
  });

  it('writes the day of a moment as the household’s zone has it, in the admin’s order', () => {
    const late = Date.parse('2026-12-03T23:30:00Z');
    expect(createFormat({ ...base, dateFormat: 'ymd' }).date(late, 'short')).toBe('2026-12-03');
    expect(createFormat({ ...base, timeZone: 'Pacific/Auckland', dateFormat: 'ymd' }).date(late, 'short')).toBe('2026-12-04');
    expect(createFormat({ ...base, dateFormat: 'dmy' }).date(at, 'short')).toBe('03/12/2026');
    expect(createFormat({ ...base, dateFormat: 'mdy' }).date(at, 'short')).toBe('12/03/2026');
    expect(createFormat({ ...base, dateFormat: 'dmy' }).date(at)).toBe('3 Dec 2026');
    expect(createFormat({ ...base, dateFormat: 'mdy' }).date(at)).toBe('Dec 3, 2026');
    expect(createFormat({ ...base, language: 'en-GB' }).date(at)).toBe('3 Dec 2026');
    expect(createFormat({ ...base, language: 'de-DE' }).date(at, 'short')).toBe('3.12.2026');
    expect(createFormat({ ...base, language: 'de-DE' }).date(at, 'long')).toBe('Donnerstag, 3. Dezember 2026');
    // a calendar day is never moved by the zone
    expect(createFormat({ ...base, timeZone: 'Pacific/Honolulu' }).day('2026-12-03', 'weekday')).toBe('Thu');
    expect(createFormat({ ...base, timeZone: 'Pacific/Kiritimati', dateFormat: 'ymd' }).day('2026-12-03', 'short')).toBe('2026-12-03');
  });

  it('writes relative times and numbers in the member’s language', () => {
    expect(createFormat(base).relative(at - 3_600_000, at)).toBe('1 hour ago');
    expect(createFormat({ ...base, language: 'de-DE' }).relative(at - 3_600_000, at)).toBe('vor 1 Stunde');
    expect(createFormat({ ...base, language: 'fr-FR' }).relative(at - 86_400_000, at)).toBe('hier');
    expect(createFormat(base).number(1234567.89)).toBe('1,234,567.89');
    expect(createFormat({ ...base, language: 'de-DE' }).number(1234567.89)).toBe('1.234.567,89');
  });

  it('writes measures in the member’s units', () => {
    const metric = createFormat(base);
    const imperial = createFormat({ ...base, units: 'imperial' });
    expect(metric.temperature(20.4)).toBe('20 °C');
    expect(imperial.temperature(68.2)).toBe('68 °F');
    expect(metric.temperature(null)).toBe('–');
    expect(metric.speed(15)).toBe('15 km/h');
    expect(imperial.speed(9)).toBe('9 mph');
    expect(metric.distance(850)).toBe('850 m');
    expect(metric.distance(5400)).toBe('5.4 km');
    expect(metric.distance(12_400)).toBe('12 km');
    expect(imperial.distance(12_400)).toBe('7.7 mi');
    expect(imperial.distance(100)).toBe('330 ft');
    expect(createFormat({ ...base, language: 'de-DE' }).distance(5400)).toBe('5,4 km');
  });

  it('starts the week on the household’s first day', () => {
    expect(createFormat(base).weekdays()).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(createFormat({ ...base, firstDayOfWeek: 7 }).weekdays()).toEqual(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']);
    expect(createFormat({ ...base, firstDayOfWeek: 6, language: 'fr-FR' }).weekdays('long')[0]).toBe('samedi');
  });

  it('falls back rather than throwing on a language or zone this browser does not know', () => {
    const f = createFormat({ ...base, language: '!!', timeZone: 'Mars/Olympus' });
    expect(f.locale.timeZone).toBe('UTC');
    expect(f.time(at)).toMatch(/\d/);
  });
});

describe('zone arithmetic (server/platform/clock.ts)', () => {
  it('knows each zone’s offset, summer time included', () => {
    expect(zoneOffsetMinutes(new Date('2026-12-03T12:00:00Z'), 'Europe/Berlin')).toBe(60);
    expect(zoneOffsetMinutes(new Date('2026-07-03T12:00:00Z'), 'Europe/Berlin')).toBe(120);
    expect(zoneOffsetMinutes(new Date('2026-12-03T12:00:00Z'), 'Asia/Kolkata')).toBe(330);
    expect(withLocalOffset(new Date('2026-12-03T22:30:00Z'), 'America/New_York')).toBe('2026-12-03T17:30:00-05:00');
    expect(withLocalOffset(new Date('2026-12-03T22:30:00Z'), 'Pacific/Auckland')).toBe('2026-12-04T11:30:00+13:00');
    expect(zonedDay(new Date('2026-12-03T22:30:00Z'), 'Pacific/Auckland')).toEqual({ date: '2026-12-04', hour: 11 });
  });

  it('finds the instant a day begins, on the nights the clocks change too', () => {
    expect(startOfZonedDay('2026-12-03', 'Europe/Berlin').toISOString()).toBe('2026-12-02T23:00:00.000Z');
    // Berlin goes to summer time at 02:00 on 29 March 2026: that day still begins at 00:00 CET
    expect(startOfZonedDay('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfZonedDay('2026-03-30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfZonedDay('2026-12-04', 'Pacific/Auckland').toISOString()).toBe('2026-12-03T11:00:00.000Z');
  });
});

describe('locale validation (server/modules/locale/schema.ts)', () => {
  it('takes BCP 47 tags and IANA zones Intl knows, in Intl’s spelling', () => {
    expect(supportedLanguage('en-gb')).toBe('en-GB');
    expect(supportedLanguage('zh-hant-tw')).toBe('zh-Hant-TW');
    expect(supportedLanguage('qq')).toBeNull();
    expect(supportedLanguage('not a tag')).toBeNull();
    expect(supportedTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(supportedTimeZone('Mars/Olympus')).toBeNull();
    expect(SetLocaleBody.parse({ firstDayOfWeek: 'saturday' })).toEqual({ firstDayOfWeek: 6 });
    expect(SetLocaleBody.safeParse({ firstDayOfWeek: 8 }).success).toBe(false);
  });
});
