// The choices the language-and-region forms offer: languages by their own names, every time zone
// the browser knows, the unit systems and the days of the week.
import type { SegmentOption } from '../../ui/SegmentedControl';

const COMMON_LANGUAGES = [
  'en-US', 'en-GB', 'en-CA', 'en-AU', 'en-IE', 'en-NZ', 'en-IN', 'de-DE', 'de-AT', 'de-CH', 'fr-FR', 'fr-CA', 'fr-BE', 'fr-CH', 'es-ES', 'es-MX', 'it-IT',
  'pt-PT', 'pt-BR', 'nl-NL', 'nl-BE', 'sv-SE', 'nb-NO', 'da-DK', 'fi-FI', 'is-IS', 'pl-PL', 'cs-CZ', 'sk-SK', 'hu-HU', 'ro-RO', 'el-GR', 'tr-TR',
  'ru-RU', 'uk-UA', 'ar', 'he-IL', 'hi-IN', 'ja-JP', 'ko-KR', 'zh-CN', 'zh-TW',
];

/** The common languages, with `current` among them. */
export function languageChoices(current: string): string[] {
  return COMMON_LANGUAGES.includes(current) ? COMMON_LANGUAGES : [current, ...COMMON_LANGUAGES];
}

/** A language by its own name: "Deutsch (Deutschland)". */
export function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag);
    return name ? name.charAt(0).toLocaleUpperCase(tag) + name.slice(1) : tag;
  } catch {
    return tag;
  }
}

let zones: string[] | null = null;
/** Every IANA zone this browser knows, UTC first. */
export function timeZones(): string[] {
  if (!zones) {
    const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    zones = ['UTC', ...known.filter((z) => z !== 'UTC')];
  }
  return zones;
}

export const UNIT_OPTIONS: readonly SegmentOption<'metric' | 'imperial'>[] = [
  { value: 'metric', label: 'Metric' },
  { value: 'imperial', label: 'Imperial' },
];

export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
