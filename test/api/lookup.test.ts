// Lookup over HTTP (issue 38). Barcodes against the fake Open Food Facts: Hearth's own copy first
// (the fake's request count proves a second ask is not sent), "not known" kept too (for a day), the
// v3 and v2 answer shapes, a named User-Agent, at most 15 reads a minute (the 16th is a 429 with a
// sentence and asks nothing), the source busy, down, slow or talking garbage (a sentence each, nothing
// kept), offline mode (the copy answers, a new code is 503 offline_mode), bad codes 400. Phone numbers
// offline: country, place, carrier, line type, E.164, time zones; an unreadable number is a 400.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PhoneResponse, ProductResponse } from '../../server/modules/lookup/schema.js';
import { createManualClock } from '../../server/platform/clock.js';
import { startFakeOpenFoodFacts, type FakeOpenFoodFacts } from '../fakes/open-food-facts.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const NUTELLA = '3017620422003';
const MILK = '7610200337405';
const UNKNOWN = '0000000000017';

describe('Lookup', () => {
  let s: TestServer;
  let fake: FakeOpenFoodFacts;
  const clock = createManualClock(new Date('2026-12-03T10:00:00Z'));
  const productReads = () => fake.requests.filter((r) => r.path.startsWith('/api/')).length;

  beforeAll(async () => {
    fake = await startFakeOpenFoodFacts();
    s = await startTestServer({ seed: 'household', config: { openFoodFactsUrl: fake.url, fetchAllowOrigins: [fake.origin] }, overrides: { clock, tuning: { todayFetchTimeoutMs: 1500 } } });
  });
  afterAll(async () => {
    await s.close();
    await fake.close();
  });
  beforeEach(async () => {
    await fake.setMode('ok');
    fake.requests.length = 0;
    await s.handle.deps.db('lookup_barcodes').delete();
    // a fresh minute for the read limit
    clock.advance(61_000);
  });

  it('guards the routes and checks the code', async () => {
    expect((await s.anon.get(`/api/lookup/barcode/${NUTELLA}`)).status).toBe(401);
    expect((await s.anon.get('/api/lookup/phone?number=%2B41446681800')).status).toBe(401);
    for (const bad of ['123', '12345678901234567', 'abcdefgh', '12345678a']) {
      const r = await s.member.get(`/api/lookup/barcode/${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.error.message).toMatch(/8 to 14 digits/);
    }
    expect(productReads()).toBe(0);
  });

  it('asks Open Food Facts once, with a named User-Agent, then answers from its own copy', async () => {
    const first = await s.member.get(`/api/lookup/barcode/${NUTELLA}`);
    expect(first.status).toBe(200);
    expect(ProductResponse.parse(first.body).product).toEqual({
      code: NUTELLA,
      name: 'Nutella',
      brand: 'Ferrero',
      quantity: '400 g',
      imageUrl: 'https://images.openfoodfacts.org/images/products/301/762/042/2003/front_en.jpg',
      categories: ['breakfasts', 'spreads', 'sweet spreads', 'hazelnut spreads'],
      source: 'open_food_facts',
      fetchedAt: clock.now().toISOString(),
      cached: false,
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.path).toBe(`/api/v3/product/${NUTELLA}.json`);
    expect(fake.requests[0]!.query.fields).toContain('product_name');
    expect(fake.requests[0]!.userAgent).toMatch(/^Hearth\/[\d.]+ \(.+\)$/);

    clock.advance(60_000);
    const again = await s.admin.get(`/api/lookup/barcode/${NUTELLA}`);
    expect(again.body.product).toMatchObject({ name: 'Nutella', cached: true, fetchedAt: first.body.product.fetchedAt });
    expect(productReads()).toBe(1);

    // a copy older than 30 days is asked again (a request on the way keeps the session alive)
    clock.advance(20 * 24 * 3600_000);
    expect((await s.member.get(`/api/lookup/barcode/${NUTELLA}`)).body.product.cached).toBe(true);
    clock.advance(11 * 24 * 3600_000);
    expect((await s.member.get(`/api/lookup/barcode/${NUTELLA}`)).body.product.cached).toBe(false);
    expect(productReads()).toBe(2);
  });

  it('keeps "not known" too, for a day', async () => {
    const miss = await s.member.get(`/api/lookup/barcode/${UNKNOWN}`);
    expect(miss.status).toBe(404);
    expect(miss.body.error).toMatchObject({ code: 'not_found' });
    expect(miss.body.error.message).toMatch(/No product is known for the barcode 0000000000017/);
    expect((await s.member.get(`/api/lookup/barcode/${UNKNOWN}`)).status).toBe(404);
    expect(productReads()).toBe(1);
    clock.advance(25 * 3600_000);
    expect((await s.member.get(`/api/lookup/barcode/${UNKNOWN}`)).status).toBe(404);
    expect(productReads()).toBe(2);
  });

  it('reads the v2 answer shape as well', async () => {
    await fake.setMode('v2');
    expect(ProductResponse.parse((await s.member.get(`/api/lookup/barcode/${MILK}`)).body).product).toMatchObject({ name: 'Vollmilch UHT', brand: 'Migros', quantity: '1 l', categories: ['dairies', 'milks', 'whole milks'] });
    expect((await s.member.get(`/api/lookup/barcode/${UNKNOWN}`)).status).toBe(404);
  });

  it('asks at most 15 times a minute; the 16th is a 429 with a sentence and asks nothing', async () => {
    for (let i = 0; i < 15; i++) expect((await s.member.get(`/api/lookup/barcode/${String(10_000_000 + i)}`)).status).toBe(404);
    expect(productReads()).toBe(15);
    const over = await s.member.get('/api/lookup/barcode/20000000');
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('lookup_rate_limited');
    expect(over.body.error.message).toMatch(/15 products in the last minute.*Try again in \d+ seconds/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(productReads()).toBe(15);
    // what Hearth has kept still answers
    expect((await s.member.get('/api/lookup/barcode/10000000')).status).toBe(404);
    clock.advance(60_000);
    expect((await s.member.get('/api/lookup/barcode/20000000')).status).toBe(404);
    expect(productReads()).toBe(16);
  });

  it('says so in a sentence when Open Food Facts is busy, down, slow or answers garbage, and keeps nothing', async () => {
    const cases = [
      ['busy', 503, 'product_lookup_busy', /busy right now/],
      ['garbage', 502, 'product_lookup_bad_response', /could not read/],
      ['slow', 504, 'product_lookup_timeout', /took too long/],
      ['down', 503, 'product_lookup_unavailable', /could not reach Open Food Facts/],
    ] as const;
    for (const [mode, status, code, sentence] of cases) {
      await fake.setMode(mode, { slowMs: 5_000 });
      const r = await s.member.get(`/api/lookup/barcode/${NUTELLA}`);
      expect(r.status, mode).toBe(status);
      expect(r.body.error.code, mode).toBe(code);
      expect(r.body.error.message, mode).toMatch(sentence);
      expect(r.body.error.message, mode).not.toMatch(/127\.0\.0\.1|http:/);
    }
    expect(await s.handle.deps.db('lookup_barcodes').count({ n: '*' }).first()).toMatchObject({ n: 0 });
    await fake.setMode('ok');
    expect((await s.member.get(`/api/lookup/barcode/${NUTELLA}`)).status).toBe(200);
  });

  it('in offline mode answers from its copy, and a new code is 503 offline_mode', async () => {
    const off = await startTestServer({ seed: 'household', config: { offline: true, openFoodFactsUrl: fake.url, fetchAllowOrigins: [fake.origin] } });
    try {
      // a product asked while online, in the copy the offline server keeps
      await off.handle.deps.db('lookup_barcodes').insert({ code: NUTELLA, found: true, name: 'Nutella', brand: 'Ferrero', quantity: '400 g', image_url: null, categories: '["spreads"]', source: 'open_food_facts', fetched_at: '2025-01-01T00:00:00.000Z' });
      expect((await off.member.get(`/api/lookup/barcode/${NUTELLA}`)).body.product).toMatchObject({ name: 'Nutella', categories: ['spreads'], cached: true });
      const r = await off.member.get(`/api/lookup/barcode/${MILK}`);
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('offline_mode');
      expect(r.body.error.message).toMatch(/offline mode/);
      expect(fake.requests).toHaveLength(0);
    } finally {
      await off.close();
    }
  });

  it('reads phone numbers offline', async () => {
    const zurich = PhoneResponse.parse((await s.member.get(`/api/lookup/phone?number=${encodeURIComponent('+41 44 668 18 00')}`)).body).phone;
    expect(zurich).toEqual({
      e164: '+41446681800',
      international: '+41 44 668 18 00',
      national: '044 668 18 00',
      country: 'CH',
      countryName: 'Switzerland',
      countryCallingCode: '41',
      place: 'Zurich',
      carrier: null,
      lineType: 'FIXED_LINE',
      timeZones: ['Europe/Zurich'],
      valid: true,
    });
    expect((await s.member.get(`/api/lookup/phone?number=${encodeURIComponent('650-253-0000')}&region=us`)).body.phone).toMatchObject({ e164: '+16502530000', country: 'US', place: 'Mountain View, CA', lineType: 'FIXED_LINE_OR_MOBILE' });
    expect((await s.member.get(`/api/lookup/phone?number=${encodeURIComponent('+44 7911 123456')}`)).body.phone).toMatchObject({ country: 'GG', lineType: 'MOBILE', carrier: 'JT' });

    for (const [q, sentence] of [
      ['number=hello', /not a phone number/],
      ['number=044%20668%2018%2000', /which country/],
      ['number=%2B41%204', /too short/],
      ['number=', /Type a phone number/],
      ['number=%2B41446681800&region=Switzerland', /two-letter country code/],
    ] as const) {
      const r = await s.member.get(`/api/lookup/phone?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.message, q).toMatch(sentence);
    }
    expect(productReads()).toBe(0);
  });
});
