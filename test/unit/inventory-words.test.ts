// What the inventory screens say about a device is worked out in one place (renderer
// features/inventory/types.ts and draft.ts): warranty badges in days, the review form's
// body (empty text clears, a price must be a number, blank specification rows are dropped).
import { describe, expect, it } from 'vitest';
import { EMPTY_DRAFT, toBody } from '../../renderer/src/features/inventory/draft.js';
import { confidenceWords, daysBetween, lookupBadge, warrantyWords } from '../../renderer/src/features/inventory/types.js';

describe('warrantyWords', () => {
  const today = '2026-11-25';
  it('counts the days left on an expiring warranty', () => {
    expect(warrantyWords({ warrantyExpires: '2026-12-07', warrantyStatus: 'expiring' }, today).badge).toBe('Warranty ends in 12 days');
    expect(warrantyWords({ warrantyExpires: '2026-11-26', warrantyStatus: 'expiring' }, today).badge).toBe('Warranty ends tomorrow');
    expect(warrantyWords({ warrantyExpires: today, warrantyStatus: 'expiring' }, today).badge).toBe('Warranty ends today');
  });
  it('says an ended warranty ended, and leaves a long one off the card', () => {
    expect(warrantyWords({ warrantyExpires: '2026-01-02', warrantyStatus: 'expired' }, today)).toMatchObject({ badge: 'Warranty ended', tone: 'error' });
    const long = warrantyWords({ warrantyExpires: '2028-03-31', warrantyStatus: 'active' }, today);
    expect(long.badge).toBeNull();
    expect(long.sentence).toMatch(/^Under warranty until /);
    expect(warrantyWords({ warrantyExpires: null, warrantyStatus: 'none' }, today).badge).toBeNull();
  });
  it('counts whole days across a month end', () => {
    expect(daysBetween('2026-02-27', '2026-03-02')).toBe(3);
    expect(daysBetween('2026-03-02', '2026-02-27')).toBe(-3);
  });
});

describe('the lookup and confidence in words', () => {
  it('shows "Looking up…" only while pending', () => {
    expect(lookupBadge({ lookupStatus: 'pending', hasManual: false })).toBe('Looking up…');
    expect(lookupBadge({ lookupStatus: 'complete', hasManual: true })).toBeNull();
    expect(lookupBadge({ lookupStatus: 'skipped', hasManual: false })).toBeNull();
  });
  it('never claims the AI was sure when only the text reader answered', () => {
    expect(confidenceWords({ confidence: 0.95 }, false)).toMatch(/label’s text only/);
    expect(confidenceWords({ confidence: 0.95 }, true)).toMatch(/fairly sure/);
    expect(confidenceWords({ confidence: 0.2 }, true)).toMatch(/unsure/);
  });
});

describe('toBody', () => {
  it('asks for a name and a numeric price', () => {
    const r = toBody({ ...EMPTY_DRAFT, name: ' ', purchasePrice: 'lots' });
    expect(r.body).toBeNull();
    expect(Object.keys(r.errors ?? {}).sort()).toEqual(['name', 'purchasePrice']);
  });
  it('sends every field, empty text to clear, and specifications without blank rows', () => {
    const r = toBody({ ...EMPTY_DRAFT, name: 'Kitchen fridge', brand: ' Frostline ', purchasePrice: '499,90', specs: [{ key: 'Voltage', value: '230 V' }, { key: '', value: '' }] });
    expect(r.errors).toBeNull();
    expect(r.body).toMatchObject({ name: 'Kitchen fridge', brand: 'Frostline', model: '', purchasePrice: 499.9, specs: { Voltage: '230 V' }, warrantyExpires: '' });
  });
});
