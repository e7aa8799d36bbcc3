// The inventory's pure pieces: calendar days and warranty states, Homebox dates and row mapping,
// safe download names, and the warranty reminder's wording.
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, warrantyStatus } from '../../server/modules/home-inventory/dates.js';
import { safeFilename } from '../../server/modules/home-inventory/device-files-service.js';
import { fromHomeboxRow, homeboxDate, toHomeboxRow } from '../../server/modules/home-inventory/homebox-csv.js';
import { CreateDeviceBody } from '../../server/modules/home-inventory/schema.js';
import { newDeviceRecord } from '../../server/modules/home-inventory/service.js';
import { warrantyPayload } from '../../server/modules/home-inventory/warranties-service.js';

describe('inventory dates', () => {
  it('counts whole days across months, leap days and years', () => {
    expect(daysBetween('2026-03-01', '2026-03-31')).toBe(30);
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2026-12-31', '2027-01-01')).toBe(1);
    expect(daysBetween('2026-03-10', '2026-03-01')).toBe(-9);
    expect(addDays('2026-01-31', 30)).toBe('2026-03-02');
  });
  it('gives a warranty its state: the last day still counts', () => {
    expect(warrantyStatus(null, '2026-03-01', 60)).toBe('none');
    expect(warrantyStatus('2026-03-01', '2026-03-01', 60)).toBe('expiring');
    expect(warrantyStatus('2026-02-28', '2026-03-01', 60)).toBe('expired');
    expect(warrantyStatus('2026-04-30', '2026-03-01', 60)).toBe('expiring');
    expect(warrantyStatus('2026-05-01', '2026-03-01', 60)).toBe('active');
  });
});

describe('Homebox CSV mapping', () => {
  it('reads the date forms Homebox writes, and refuses the rest', () => {
    expect(homeboxDate('2024-02-29')).toBe('2024-02-29');
    expect(homeboxDate('2024/2/9')).toBe('2024-02-09');
    expect(homeboxDate('10/13/2021')).toBe('2021-10-13');
    expect(homeboxDate('2030-01-31T00:00:00Z')).toBe('2030-01-31');
    expect(homeboxDate('0001-01-01T00:00:00Z')).toBeNull();
    expect(homeboxDate('')).toBeNull();
    expect(homeboxDate('2023-02-29')).toBeUndefined();
    expect(homeboxDate('13/13/2021')).toBeUndefined();
    expect(homeboxDate('yesterday')).toBeUndefined();
  });

  it('maps a row: manufacturer to brand, a category tag, the nested location\'s last part, extras kept as specifications', () => {
    const r = fromHomeboxRow({
      'HB.name': ' Fridge ',
      'HB.manufacturer': 'Liebherr',
      'HB.model_number': 'CBNd 5723',
      'HB.location': 'Home / Kitchen',
      'HB.tags': 'Appliance; Cold',
      'HB.sold_to': 'Neighbour',
      'HB.sold_price': '50',
      'HB.field.Energy class': 'B',
      'HB.field.Hearth: owner': 'Alex',
      'HB.lifetime_warranty': 'true',
      'HB.purchase_price': '0',
    });
    expect(r).toMatchObject({
      body: { name: 'Fridge', brand: 'Liebherr', model: 'CBNd 5723', category: 'appliance', location: 'Kitchen', owner: 'Alex', purchasePrice: null, specs: { Tags: 'Cold', 'Sold to': 'Neighbour', 'Sold price': '50', 'Energy class': 'B', 'Lifetime warranty': 'yes' } },
      ref: null,
    });
  });

  it('says why a row cannot be read', () => {
    expect(fromHomeboxRow({ 'HB.name': '' })).toEqual({ reason: 'It has no name (HB.name).' });
    expect(fromHomeboxRow({ 'HB.name': 'A', 'HB.purchase_price': 'lots' })).toEqual({ reason: 'Its purchase price “lots” is not a number.' });
    expect(fromHomeboxRow({ 'HB.name': 'A', 'HB.warranty_expires': 'soon' })).toMatchObject({ reason: expect.stringMatching(/warranty date “soon”/) });
    expect(fromHomeboxRow({ 'HB.name': 'x'.repeat(500) })).toMatchObject({ reason: expect.stringMatching(/^Its name cannot be used/) });
  });

  it('writes a device back as the same row it reads', () => {
    const d = newDeviceRecord('0f4b7a0e-1111-4222-8333-444455556666', CreateDeviceBody.parse({ name: 'Drill', brand: 'Makita', category: 'tool', specs: { Quantity: '2', Colour: 'Teal' }, owner: 'Sam', purchasePrice: 10 }), null, '2026-01-01T00:00:00Z');
    const row = toHomeboxRow(d);
    expect(row).toMatchObject({ 'HB.import_ref': d.id, 'HB.tags': 'tool', 'HB.quantity': '2', 'HB.field.Colour': 'Teal', 'HB.field.Hearth: owner': 'Sam', 'HB.purchase_price': '10' });
    expect(fromHomeboxRow(row)).toMatchObject({ ref: d.id, body: { name: 'Drill', brand: 'Makita', category: 'tool', owner: 'Sam', purchasePrice: 10, specs: { Quantity: '2', Colour: 'Teal' } } });
  });
});

describe('inventory wording', () => {
  it('names downloads with safe characters and the right extension', () => {
    expect(safeFilename('Receipt "2025"\r\n../../etc/passwd', 'pdf')).toBe('Receipt 2025.etcpasswd.pdf');
    expect(safeFilename('manual.PDF', 'pdf')).toBe('manual.PDF');
    expect(safeFilename('€€€', 'jpg')).toBe('file.jpg');
  });
  it('says when a warranty ends, in words', () => {
    const d = { id: 'd1', name: 'Dishwasher', warrantyExpires: '2026-03-31' };
    expect(warrantyPayload(d, 30)).toMatchObject({ kind: 'warranty_reminder', deviceId: 'd1', name: 'Dishwasher', warrantyExpires: '2026-03-31', title: 'The warranty on “Dishwasher” ends in 30 days', link: '/inventory/d1' });
    expect(warrantyPayload(d, 1).title).toMatch(/ends tomorrow$/);
    expect(warrantyPayload(d, 0).title).toMatch(/ends today$/);
  });
});
