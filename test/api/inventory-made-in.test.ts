// When and where a device was made are two fields (issue 29, item 23): the migration moves a country
// kept in the old single "Made in" field (manufactured_date) to country_of_origin, and the API and
// the Homebox round trip carry both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration from '../../migrations/20261202130000_device_country_of_origin.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('home inventory: made on and made in', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
  });
  afterAll(() => s.close());

  const device = async (id: string) => (await s.member.get(`/api/home/devices/${id}`)).body.device;

  it('moves a country kept where the date of manufacture goes into its own field, and leaves dates alone', async () => {
    const ids: string[] = [];
    for (const name of ['Dated', 'German', 'Chinese', 'Week']) ids.push((await s.member.post('/api/home/devices', { name, manufacturedDate: '2023-04' })).body.device.id);
    const db = s.handle.deps.db;
    // the data as the single field held it before this change
    await migration.down(db);
    await db('home_devices').where({ id: ids[1] }).update({ manufactured_date: 'Germany' });
    await db('home_devices').where({ id: ids[2] }).update({ manufactured_date: 'Made in China' });
    await db('home_devices').where({ id: ids[3] }).update({ manufactured_date: 'week 14, 2023' });
    await migration.up(db);
    expect(await device(ids[0]!)).toMatchObject({ manufacturedDate: '2023-04', countryOfOrigin: null });
    expect(await device(ids[1]!)).toMatchObject({ manufacturedDate: null, countryOfOrigin: 'Germany' });
    expect(await device(ids[2]!)).toMatchObject({ manufacturedDate: null, countryOfOrigin: 'China' });
    expect(await device(ids[3]!)).toMatchObject({ manufacturedDate: 'week 14, 2023', countryOfOrigin: null });
  });

  it('keeps both through a save, an edit and the Homebox CSV', async () => {
    const created = await s.member.post('/api/home/devices', { name: 'Washer', brand: 'BOSCH', manufacturedDate: '2023-04', countryOfOrigin: 'Germany' });
    expect(created.status).toBe(201);
    expect(created.body.device).toMatchObject({ manufacturedDate: '2023-04', countryOfOrigin: 'Germany' });
    const patched = await s.member.patch(`/api/home/devices/${created.body.device.id}`, { countryOfOrigin: 'Poland' });
    expect(patched.body.device).toMatchObject({ manufacturedDate: '2023-04', countryOfOrigin: 'Poland' });
    const csv = (await s.member.get('/api/home/export?format=homebox')).text;
    expect(csv.split('\n')[0]).toContain('HB.field.Hearth: made in');
    expect(csv).toContain('Poland');
  });
});
