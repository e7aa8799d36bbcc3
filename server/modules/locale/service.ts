// The household's language and region and each member's override of it. The household's setting is
// one app setting holding only what an admin chose; every other field is this computer's (its TZ,
// its LANG), so a fresh install shows dates as the machine does.
import { assertAdmin, type Actor, type UserActor } from '../../actor.js';
import type { AppSettingsStore, UserPreferencesStore } from '../../db/kv.js';
import { machineTimeZone } from '../../platform/clock.js';
import {
  DATE_FORMATS,
  KEY_HOUSEHOLD_LOCALE,
  KEY_MEMBER_LOCALE,
  MemberLocale,
  supportedLanguage,
  supportedTimeZone,
  TIME_FORMATS,
  UNIT_SYSTEMS,
  type EffectiveLocale,
  type HouseholdLocale,
  type LocaleSettingsResponse,
  type SetLocaleBody,
  type SetMemberLocaleBody,
  type UnitSystem,
} from './schema.js';

/**
 * This computer's language and zone, and the first day of the week of its language's region. Units
 * start metric (as Today's did): Node reports en-US for a machine with no language set at all, which
 * says nothing about how the household measures.
 */
export function machineLocale(): HouseholdLocale {
  const language = supportedLanguage(Intl.DateTimeFormat().resolvedOptions().locale) ?? 'en-US';
  const loc = new Intl.Locale(language).maximize();
  const week = (loc as Intl.Locale & { weekInfo?: { firstDay: number } }).weekInfo;
  return {
    language,
    timeZone: supportedTimeZone(machineTimeZone()) ?? 'UTC',
    units: 'metric',
    firstDayOfWeek: week?.firstDay ?? 1,
    dateFormat: 'auto',
    timeFormat: 'auto',
  };
}

export interface LocaleDeps {
  settings: AppSettingsStore;
  preferences: UserPreferencesStore;
  /** this computer's values (tests hand in a fixed machine) */
  machine?: () => HouseholdLocale;
}

export class LocaleService {
  private readonly machine: () => HouseholdLocale;

  constructor(private readonly deps: LocaleDeps) {
    this.machine = deps.machine ?? machineLocale;
  }

  /** What an admin stored, field by field; a field that no longer reads right (a zone removed from tzdata) is dropped. */
  private async stored(): Promise<Partial<HouseholdLocale>> {
    const raw = await this.deps.settings.get<Record<string, unknown>>(KEY_HOUSEHOLD_LOCALE);
    if (!raw || typeof raw !== 'object') return {};
    const out: Partial<HouseholdLocale> = {};
    if (typeof raw.language === 'string' && supportedLanguage(raw.language)) out.language = raw.language;
    if (typeof raw.timeZone === 'string' && supportedTimeZone(raw.timeZone)) out.timeZone = raw.timeZone;
    if ((UNIT_SYSTEMS as readonly unknown[]).includes(raw.units)) out.units = raw.units as UnitSystem;
    if (typeof raw.firstDayOfWeek === 'number' && Number.isInteger(raw.firstDayOfWeek) && raw.firstDayOfWeek >= 1 && raw.firstDayOfWeek <= 7) out.firstDayOfWeek = raw.firstDayOfWeek;
    if ((DATE_FORMATS as readonly unknown[]).includes(raw.dateFormat)) out.dateFormat = raw.dateFormat as HouseholdLocale['dateFormat'];
    if ((TIME_FORMATS as readonly unknown[]).includes(raw.timeFormat)) out.timeFormat = raw.timeFormat as HouseholdLocale['timeFormat'];
    return out;
  }

  /** The household's locale: what an admin chose, the rest this computer's. Any caller (no actor: answers use it). */
  async household(): Promise<HouseholdLocale> {
    return { ...this.machine(), ...(await this.stored()) };
  }

  /** The household's time zone: Today, the briefing and the shows' air times are in it. */
  async timeZone(): Promise<string> {
    return (await this.household()).timeZone;
  }

  async settings(actor: Actor): Promise<LocaleSettingsResponse> {
    assertAdmin(actor);
    const stored = await this.stored();
    const machine = this.machine();
    return { locale: { ...machine, ...stored }, fromMachine: Object.keys(machine).filter((k) => !(k in stored)), machine };
  }

  async set(actor: Actor, body: SetLocaleBody): Promise<LocaleSettingsResponse> {
    assertAdmin(actor);
    await this.deps.settings.set(KEY_HOUSEHOLD_LOCALE, { ...(await this.stored()), ...body });
    return this.settings(actor);
  }

  /** A member's own override (null fields follow the household). */
  async override(userId: string): Promise<MemberLocale> {
    const parsed = MemberLocale.partial().safeParse(await this.deps.preferences.get(userId, KEY_MEMBER_LOCALE));
    const raw = parsed.success ? parsed.data : {};
    return { language: raw.language && supportedLanguage(raw.language) ? raw.language : null, units: raw.units ?? null };
  }

  /** What this member's screens and answers follow. */
  async effective(actor: UserActor): Promise<EffectiveLocale> {
    const [household, override] = await Promise.all([this.household(), this.override(actor.id)]);
    return { ...household, language: override.language ?? household.language, units: override.units ?? household.units, override };
  }

  /** The units an answer is given in: the member's own, else the household's (the system: the household's). */
  async unitsFor(actor: Actor): Promise<UnitSystem> {
    return actor.kind === 'user' ? (await this.effective(actor)).units : (await this.household()).units;
  }

  async setOverride(actor: UserActor, body: SetMemberLocaleBody): Promise<EffectiveLocale> {
    const next = { ...(await this.override(actor.id)), ...body };
    if (next.language === null && next.units === null) await this.deps.preferences.delete(actor.id, KEY_MEMBER_LOCALE);
    else await this.deps.preferences.set(actor.id, KEY_MEMBER_LOCALE, next);
    return this.effective(actor);
  }
}
