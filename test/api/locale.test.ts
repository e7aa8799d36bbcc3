// Locale (issue 39): the household's language and region (/api/admin/locale), a member's own
// language and units (/api/auth/me/locale), the effective locale answered with who is signed in,
// and the answers that carry dates and units following it: Today's weather asked in the member's
// units, the briefing's sentences and the summary's prompt in their units and language, the day
// and the shows' air times in the household's time zone. The old Today units setting is migrated.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { up as migrateTodayUnits } from '../../migrations/20261203196000_locale_from_today_units.js';
import { BriefingResponse, WeatherResponse } from '../../server/modules/today/schema.js';
import { EffectiveLocale, LocaleSettingsResponse } from '../../server/modules/locale/schema.js';
import { machineLocale } from '../../server/modules/locale/service.js';
import { createManualClock } from '../../server/platform/clock.js';
import { startFakeOpenMeteo, type FakeOpenMeteo } from '../fakes/open-meteo.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { startFakeTvmaze, type FakeTvmaze } from '../fakes/tvmaze.js';
import { TestClient } from '../harness/client.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const ADMIN_API = '/api/admin/locale';
const ME_API = '/api/auth/me/locale';

describe('locale (/api/admin/locale, /api/auth/me/locale)', () => {
  // 22:30 UTC on 3 December: already 4 December in Auckland, still 3 December in New York
  const clock = createManualClock(new Date('2026-12-03T22:30:00Z'));
  const temp = makeTempDir();
  let s: TestServer;
  let meteo: FakeOpenMeteo;
  let tv: FakeTvmaze;

  const start = (seed: 'household' | 'empty' = 'household') =>
    startTestServer({
      seed,
      dataDir: temp.dir,
      config: { openMeteoUrl: meteo.url, openMeteoGeoUrl: meteo.url, tvmazeUrl: tv.url, fetchAllowOrigins: [meteo.origin, tv.origin] },
      overrides: { clock },
    });

  beforeAll(async () => {
    meteo = await startFakeOpenMeteo();
    tv = await startFakeTvmaze({ now: () => clock.now() });
    s = await start();
  });
  afterAll(async () => {
    await s?.close();
    await Promise.all([meteo?.close(), tv?.close()]);
    temp.remove();
  });
  beforeEach(async () => {
    meteo.requests.length = 0;
    await s.handle.deps.db('app_settings').where('key', 'like', 'locale.%').delete();
    await s.handle.deps.db('user_preferences').where({ key: 'locale' }).delete();
  });

  it('answers 401 without a session and 403 to a member on the household’s setting', async () => {
    expect((await s.anon.get(ADMIN_API)).status).toBe(401);
    expect((await s.anon.req('PUT', ADMIN_API, { units: 'imperial' })).status).toBe(401);
    expect((await s.anon.get(ME_API)).status).toBe(401);
    expect((await s.anon.req('PUT', ME_API, { units: 'imperial' })).status).toBe(401);
    expect((await s.member.get(ADMIN_API)).status).toBe(403);
    expect((await s.member.req('PUT', ADMIN_API, { units: 'imperial' })).status).toBe(403);
    expect(await s.handle.deps.db('app_settings').where('key', 'like', 'locale.%')).toEqual([]);
  });

  it('starts from this computer’s language, zone and conventions', async () => {
    const r = LocaleSettingsResponse.parse((await s.admin.get(ADMIN_API)).body);
    const machine = machineLocale();
    expect(r.locale).toEqual(machine);
    expect(r.machine).toEqual(machine);
    expect(r.fromMachine.sort()).toEqual(['dateFormat', 'firstDayOfWeek', 'language', 'timeFormat', 'timeZone', 'units']);
    expect(machine.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('refuses bad input with a sentence and writes nothing', async () => {
    const bad: Array<[unknown, RegExp]> = [
      [{}, /Nothing to change/],
      [{ language: 'not a language' }, /not a language this server can format/],
      [{ language: 'qq' }, /not a language this server can format/],
      [{ language: 42 }, /language is a language tag/],
      [{ timeZone: 'Mars/Olympus_Mons' }, /not a time zone this server knows/],
      [{ timeZone: '' }, /not a time zone this server knows/],
      [{ units: 'kelvin' }, /units is metric/],
      [{ firstDayOfWeek: 0 }, /firstDayOfWeek is 1 \(Monday\) to 7/],
      [{ firstDayOfWeek: 'caturday' }, /firstDayOfWeek is 1 \(Monday\) to 7/],
      [{ dateFormat: 'dd.mm' }, /dateFormat is auto, dmy, mdy or ymd/],
      [{ timeFormat: '13h' }, /timeFormat is auto, 12h or 24h/],
      [{ units: 'imperial', currency: 'EUR' }, /./],
    ];
    for (const [body, message] of bad) {
      const r = await s.admin.req('PUT', ADMIN_API, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(r.body.error), JSON.stringify(body)).toMatch(message);
    }
    for (const body of [{}, { units: 'miles' }, { language: 'nope nope' }, { units: 'imperial', extra: 1 }]) {
      const r = await s.member.req('PUT', ME_API, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(typeof r.body.error.message).toBe('string');
    }
    expect(await s.handle.deps.db('app_settings').where('key', 'like', 'locale.%')).toEqual([]);
    expect(await s.handle.deps.db('user_preferences').where({ key: 'locale' })).toEqual([]);
  });

  it('keeps what an admin sets, in Intl’s own spelling, across a restart', async () => {
    const r = await s.admin.req('PUT', ADMIN_API, { language: 'en-gb', timeZone: 'america/new_york', firstDayOfWeek: 'sunday', dateFormat: 'dmy', timeFormat: '12h' });
    expect(r.status).toBe(200);
    const set = LocaleSettingsResponse.parse(r.body);
    expect(set.locale).toMatchObject({ language: 'en-GB', timeZone: 'America/New_York', firstDayOfWeek: 7, dateFormat: 'dmy', timeFormat: '12h' });
    expect(set.fromMachine).toEqual(['units']);
    // a second change keeps the first
    expect(LocaleSettingsResponse.parse((await s.admin.req('PUT', ADMIN_API, { units: 'imperial' })).body).locale).toMatchObject({ timeZone: 'America/New_York', units: 'imperial' });

    // the same data folder, the same members signed in
    const [admin, member, users] = [s.admin.cookie!, s.member.cookie!, s.users];
    await s.close();
    const second = await start('empty');
    s = { ...second, admin: new TestClient(second.url, admin), member: new TestClient(second.url, member), users };
    const after = LocaleSettingsResponse.parse((await s.admin.get(ADMIN_API)).body);
    expect(after.locale).toEqual({ language: 'en-GB', timeZone: 'America/New_York', units: 'imperial', firstDayOfWeek: 7, dateFormat: 'dmy', timeFormat: '12h' });
    expect(after.fromMachine).toEqual([]);
  });

  it('lets a member override language and units for themselves only; null follows the household again', async () => {
    await s.admin.req('PUT', ADMIN_API, { language: 'en-GB', units: 'metric', timeZone: 'Europe/Berlin' });
    const own = await s.member.req('PUT', ME_API, { language: 'de-DE', units: 'imperial' });
    expect(own.status).toBe(200);
    expect(EffectiveLocale.parse(own.body.locale)).toMatchObject({ language: 'de-DE', units: 'imperial', timeZone: 'Europe/Berlin', override: { language: 'de-DE', units: 'imperial' } });

    // answered with who is signed in: /me, the session the web app reads at start, and /me/locale
    expect((await s.member.get('/api/auth/me')).body.locale).toMatchObject({ language: 'de-DE', units: 'imperial', timeZone: 'Europe/Berlin' });
    expect((await s.member.get('/api/auth/session')).body.locale).toMatchObject({ language: 'de-DE', units: 'imperial' });
    expect((await s.member.get(ME_API)).body.locale).toMatchObject({ units: 'imperial' });
    // the admin and the household are untouched
    expect((await s.admin.get('/api/auth/session')).body.locale).toMatchObject({ language: 'en-GB', units: 'metric', override: { language: null, units: null } });
    expect(LocaleSettingsResponse.parse((await s.admin.get(ADMIN_API)).body).locale.units).toBe('metric');
    expect((await s.anon.get('/api/auth/session')).body).toEqual({ user: null, locale: null });

    // null clears one field, the other stays
    expect((await s.member.req('PUT', ME_API, { units: null })).body.locale).toMatchObject({ language: 'de-DE', units: 'metric', override: { language: 'de-DE', units: null } });
    expect((await s.member.req('PUT', ME_API, { language: null })).body.locale).toMatchObject({ language: 'en-GB', units: 'metric', override: { language: null, units: null } });
    expect(await s.handle.deps.db('user_preferences').where({ key: 'locale' })).toEqual([]);
  });

  it('asks the weather source in each member’s units, and the briefing speaks in them', async () => {
    await s.admin.put('/api/admin/briefing/location', { name: 'Harbourton', lat: 48.14, lon: 11.58 });
    await s.admin.req('PUT', ADMIN_API, { units: 'metric' });
    await s.member.req('PUT', ME_API, { units: 'imperial', language: 'fr' });

    const metric = WeatherResponse.parse((await s.admin.get('/api/weather')).body);
    if (!metric.configured) throw new Error('expected a forecast');
    expect(metric.units.temperature).toBe('°C');
    expect(meteo.requests.at(-1)!.query.get('temperature_unit')).toBeNull();

    const imperial = WeatherResponse.parse((await s.member.get('/api/weather')).body);
    if (!imperial.configured) throw new Error('expected a forecast');
    expect(imperial.units.temperature).toBe('°F');
    expect(meteo.requests.at(-1)!.query.get('temperature_unit')).toBe('fahrenheit');
    expect(meteo.requests.at(-1)!.query.get('wind_speed_unit')).toBe('mph');

    const mine = BriefingResponse.parse((await s.member.get('/api/briefing')).body);
    expect(mine.sentences[0]).toMatch(/°F/);
    const theirs = BriefingResponse.parse((await s.admin.get('/api/briefing')).body);
    expect(theirs.sentences[0]).toMatch(/°C/);

    // the admin switches the household to imperial: the admin's answers follow at once
    await s.admin.req('PUT', ADMIN_API, { units: 'imperial' });
    const now = WeatherResponse.parse((await s.admin.get('/api/weather')).body);
    if (!now.configured) throw new Error('expected a forecast');
    expect(now.units.temperature).toBe('°F');
    // the older Today route sets the same one setting
    expect((await s.admin.put('/api/admin/briefing/units', { units: 'metric' })).body).toEqual({ units: 'metric' });
    expect(LocaleSettingsResponse.parse((await s.admin.get(ADMIN_API)).body).locale.units).toBe('metric');
  });

  it('writes dates and air times in the household’s time zone', async () => {
    await s.admin.req('PUT', ADMIN_API, { timeZone: 'Pacific/Auckland' });
    expect(BriefingResponse.parse((await s.member.get('/api/briefing')).body).date).toBe('12-04');
    const auckland = await s.member.get('/api/shows/9901');
    expect(auckland.status).toBe(200);
    const next = auckland.body.nextEpisode.airsAt as string;
    expect(next).toMatch(/\+13:00$/);

    await s.admin.req('PUT', ADMIN_API, { timeZone: 'America/New_York' });
    expect(BriefingResponse.parse((await s.member.get('/api/briefing')).body).date).toBe('12-03');
    const ny = (await s.member.get('/api/shows/9901')).body.nextEpisode.airsAt as string;
    expect(ny).toMatch(/-05:00$/);
    // the same moment, written in the other zone
    expect(Date.parse(ny)).toBe(Date.parse(next));
    expect(ny.slice(0, 16)).not.toBe(next.slice(0, 16));
  });

  it('moves the old Today units setting into the household’s locale', async () => {
    const db = s.handle.deps.db;
    await db('app_settings').insert({ key: 'today.units', value: JSON.stringify('imperial'), updated_at: new Date().toISOString() });
    await migrateTodayUnits(db);
    expect(await db('app_settings').where({ key: 'today.units' })).toEqual([]);
    expect(LocaleSettingsResponse.parse((await s.admin.get(ADMIN_API)).body).locale.units).toBe('imperial');
  });
});

describe('locale: the briefing summary is asked in the member’s language and units', () => {
  let s: TestServer;
  let ollama: FakeModelRuntime;
  let meteo: FakeOpenMeteo;
  beforeAll(async () => {
    [ollama, meteo] = await Promise.all([startFakeModelRuntime({ chunkDelayMs: 1 }), startFakeOpenMeteo()]);
    s = await startTestServer({
      seed: 'household',
      config: { openMeteoUrl: meteo.url, openMeteoGeoUrl: meteo.url, fetchAllowOrigins: [meteo.origin] },
      overrides: { modelRuntime: createOllamaClient({ baseUrl: ollama.url }), tuning: { briefingSummaryMs: 1500, runtimeLookTtlMs: 0 } },
    });
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    await s.admin.put('/api/admin/briefing/location', { name: 'Harbourton', lat: 48.14, lon: 11.58 });
  });
  afterAll(async () => {
    await s?.close();
    await Promise.all([ollama?.close(), meteo?.close()]);
  });

  it('names the member’s language and units to the model', async () => {
    await s.admin.req('PUT', ADMIN_API, { language: 'en-US', units: 'metric' });
    await s.member.req('PUT', ME_API, { language: 'de', units: 'imperial' });
    expect((await s.member.get('/api/weather')).status).toBe(200);
    ollama.chatReply = 'Guten Morgen. In Harbourton ist es klar. Einen schönen Tag.';
    const b = BriefingResponse.parse((await s.member.get('/api/briefing')).body);
    expect(b.sentences[0]).toMatch(/°F/);
    const asked = ollama.requests.filter((r) => r.path === '/api/chat');
    expect(asked).toHaveLength(1);
    const system = (asked[0]!.body as FakeChatRequest).messages[0]!.content!;
    expect(system).toMatch(/Use only the facts you are given/);
    expect(system).toContain('Write in German (de).');
    expect(system).toContain('degrees Fahrenheit and miles per hour');
  });
});
