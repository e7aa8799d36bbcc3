// The household's language and region (issue 39): the language, time zone, units, first day of the
// week and date and time formats every date, unit and number Hearth shows follows; a member may
// override the language and the units for themselves. Stored as app settings (household) and user
// preferences (a member's override); what is not stored comes from this computer.
import { z } from 'zod';

export const KEY_HOUSEHOLD_LOCALE = 'locale.household';
export const KEY_MEMBER_LOCALE = 'locale';

export const UNIT_SYSTEMS = ['metric', 'imperial'] as const;
export type UnitSystem = (typeof UNIT_SYSTEMS)[number];
export const DATE_FORMATS = ['auto', 'dmy', 'mdy', 'ymd'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const TIME_FORMATS = ['auto', '12h', '24h'] as const;
export type TimeFormat = (typeof TIME_FORMATS)[number];
/** ISO weekdays: 1 Monday … 7 Sunday (as Intl.Locale's weekInfo counts them). */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** A BCP 47 tag Node's Intl knows (its canonical spelling: "en-gb" → "en-GB"); null when it is not one. */
export function supportedLanguage(tag: string): string | null {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    if (!canonical) return null;
    // a tag Intl can only fall back from ("xx-YY" with no data for xx) is not supported
    const [supported] = Intl.DateTimeFormat.supportedLocalesOf([canonical], { localeMatcher: 'lookup' });
    return supported ? canonical : null;
  } catch {
    return null;
  }
}

/** An IANA zone Node's Intl knows, in its own spelling ("europe/berlin" → "Europe/Berlin"); null otherwise. */
export function supportedTimeZone(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const Language = z
  .string({ error: 'language is a language tag such as en-GB or de.' })
  .trim()
  .max(35, 'A language tag is at most 35 characters.')
  .transform((v, ctx) => {
    const tag = supportedLanguage(v);
    if (!tag) ctx.addIssue({ code: 'custom', message: `“${v}” is not a language this server can format dates and numbers in; use a tag such as en-GB, de or fr-CA.` });
    return tag ?? v;
  });

const TimeZone = z
  .string({ error: 'timeZone is a time zone name such as Europe/Berlin.' })
  .trim()
  .max(64, 'A time zone name is at most 64 characters.')
  .transform((v, ctx) => {
    const zone = supportedTimeZone(v);
    if (!zone) ctx.addIssue({ code: 'custom', message: `“${v}” is not a time zone this server knows; use a name such as Europe/Berlin or America/New_York.` });
    return zone ?? v;
  });

const Units = z.enum(UNIT_SYSTEMS, { error: 'units is metric (°C, km/h, km) or imperial (°F, mph, mi).' });

const FIRST_DAY_ERROR = 'firstDayOfWeek is 1 (Monday) to 7 (Sunday), or a day’s English name.';
const FirstDay = z.union([z.number().int(FIRST_DAY_ERROR).min(1, FIRST_DAY_ERROR).max(7, FIRST_DAY_ERROR), z.enum(WEEKDAYS).transform((d) => WEEKDAYS.indexOf(d) + 1)], { error: FIRST_DAY_ERROR });

export const HouseholdLocale = z.object({
  language: z.string(),
  timeZone: z.string(),
  units: z.enum(UNIT_SYSTEMS),
  firstDayOfWeek: z.number().int().min(1).max(7),
  dateFormat: z.enum(DATE_FORMATS),
  timeFormat: z.enum(TIME_FORMATS),
});
export type HouseholdLocale = z.infer<typeof HouseholdLocale>;

/** PUT /api/admin/locale: any of the fields; the others keep their value. */
export const SetLocaleBody = z
  .strictObject({
    language: Language.optional(),
    timeZone: TimeZone.optional(),
    units: Units.optional(),
    firstDayOfWeek: FirstDay.optional(),
    dateFormat: z.enum(DATE_FORMATS, { error: 'dateFormat is auto, dmy, mdy or ymd.' }).optional(),
    timeFormat: z.enum(TIME_FORMATS, { error: 'timeFormat is auto, 12h or 24h.' }).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to change: send language, timeZone, units, firstDayOfWeek, dateFormat or timeFormat.');
export type SetLocaleBody = z.infer<typeof SetLocaleBody>;

/** GET/PUT /api/admin/locale: the household's setting, and which fields still follow this computer. */
export const LocaleSettingsResponse = z.object({
  locale: HouseholdLocale,
  /** the fields an admin has not set: their value is this computer's */
  fromMachine: z.array(z.string()),
  /** this computer's own values (what a field falls back to) */
  machine: HouseholdLocale,
});
export type LocaleSettingsResponse = z.infer<typeof LocaleSettingsResponse>;

/** A member's own override: null (or absent) follows the household. */
export const MemberLocale = z.object({ language: z.string().nullable(), units: z.enum(UNIT_SYSTEMS).nullable() });
export type MemberLocale = z.infer<typeof MemberLocale>;
export const SetMemberLocaleBody = z
  .strictObject({ language: Language.nullable().optional(), units: Units.nullable().optional() })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to change: send language or units (null follows the household).');
export type SetMemberLocaleBody = z.infer<typeof SetMemberLocaleBody>;

/** What a member's screens and answers follow: the household's setting with their own override applied. */
export const EffectiveLocale = HouseholdLocale.extend({ override: MemberLocale });
export type EffectiveLocale = z.infer<typeof EffectiveLocale>;
export const EffectiveLocaleResponse = z.object({ locale: EffectiveLocale });
export type EffectiveLocaleResponse = z.infer<typeof EffectiveLocaleResponse>;
