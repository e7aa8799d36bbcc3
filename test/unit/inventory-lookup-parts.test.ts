// The lookup's pure parts: what a support page gives (phone, pictures) and how specs merge.
import { describe, expect, it } from 'vitest';
import { WebSearchError } from '../../server/adapters/web-search/searxng.js';
import { lookupFailureSentence } from '../../server/modules/home-inventory/lookup-service.js';
import { cleanSpecs, mergeSpecs } from '../../server/modules/home-inventory/lookup-specs.js';
import { MAX_SPECS } from '../../server/modules/home-inventory/schema.js';
import { readSupportPage } from '../../server/modules/home-inventory/support-page.js';

describe('support page', () => {
  it('takes a tel: link first, og:image first, and makes picture URLs absolute', () => {
    const html = `<html><head><meta property="og:image" content="/og.jpg"><script>var phone = "555 0000 111";</script></head>
      <body><p>Founded 1998-2024. Call us: <a href="tel:+44%2020%207946%200958">020 7946 0958</a></p>
      <img src="img/front.jpg"><img src="/logo.svg"><img src="https://cdn.example/side.png"></body></html>`;
    expect(readSupportPage(html, 'https://maker.example/support/x')).toEqual({
      phone: '+44 20 7946 0958',
      images: ['https://maker.example/og.jpg', 'https://maker.example/support/img/front.jpg', 'https://cdn.example/side.png'],
    });
  });

  it('finds a phone number in the text, preferring one near "call" or "customer care"', () => {
    const html = '<p>Order 2024-05-01, ref 1234 5678 9012.</p><p>Customer care: 1-800-555-0199 (8:00 to 18:00)</p>';
    expect(readSupportPage(html, 'https://maker.example/').phone).toBe('1-800-555-0199');
    expect(readSupportPage('<p>Opening hours 8:00 to 18:00</p>', 'https://maker.example/')).toEqual({ phone: null, images: [] });
  });
});

describe('lookup specs', () => {
  it('keeps string-like values, trims and drops the unknown ones', () => {
    expect(cleanSpecs({ ' Power ': '1450  W', Weight: 4.2, Color: 'unknown', Nested: { a: 1 }, '': 'x' })).toEqual({ Power: '1450 W', Weight: '4.2' });
  });

  it('merges the AI specs over the label specs, within the cap', () => {
    expect(mergeSpecs({ Voltage: '230 V', Power: '1200 W' }, { Power: '1450 W', Tank: '1.8 l' })).toEqual({ Voltage: '230 V', Power: '1450 W', Tank: '1.8 l' });
    const full = Object.fromEntries(Array.from({ length: MAX_SPECS }, (_, i) => [`k${i}`, 'v']));
    const merged = mergeSpecs(full, { k0: 'ai', extra: 'no room' });
    expect(Object.keys(merged)).toHaveLength(MAX_SPECS);
    expect(merged.k0).toBe('ai');
  });
});

describe('lookup failure sentences', () => {
  it('says what happened in plain words, never the adapter\'s details', () => {
    const sentences = (['unreachable', 'timeout', 'http_error', 'bad_response', 'too_large', 'blocked'] as const).map((f) =>
      lookupFailureSentence(new WebSearchError(f, 'The web search answered 403. Its JSON format may be switched off (search.formats in settings.yml).', 403)),
    );
    for (const text of sentences) {
      expect(text).toMatch(/^[A-Z].*\.$/);
      expect(text).not.toMatch(/403|settings\.yml|ECONN/);
    }
    expect(lookupFailureSentence(Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:80'), { code: 'ECONNREFUSED' }))).toBe('The lookup stopped because of an unexpected problem. Try again later.');
  });
});
