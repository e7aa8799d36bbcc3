// GET /api/system/addresses: what the end of setup tells a parent to type on every phone.
import type os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness/start-server.js';

type Interfaces = ReturnType<typeof os.networkInterfaces>;
const iface = (address: string, internal = false) =>
  ({ address, family: 'IPv4', internal, netmask: '255.255.255.0', mac: '00:00:00:00:00:00', cidr: null }) as unknown as os.NetworkInterfaceInfo;
const LOOPBACK: Interfaces = { lo: [iface('127.0.0.1', true)] };

describe('GET /api/system/addresses', () => {
  let s: TestServer | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('lists the LAN addresses with the port Hearth answers on, the home network kind first', async () => {
    const interfaces: Interfaces = { ...LOOPBACK, docker0: [iface('172.17.0.1')], eth0: [iface('10.0.0.7')], wlan0: [iface('192.168.1.20')] };
    s = await startTestServer({ seed: 'household', config: { host: '0.0.0.0' }, overrides: { networkInterfaces: () => interfaces } });
    const port = new URL(s.url).port;
    for (const client of [s.admin, s.member]) {
      const r = await client.get('/api/system/addresses');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ reach: 'lan', host: '0.0.0.0', addresses: [`http://192.168.1.20:${port}`, `http://10.0.0.7:${port}`, `http://172.17.0.1:${port}`] });
    }
  });

  it('is for the signed-in only', async () => {
    s = await startTestServer({ seed: 'household', config: { host: '0.0.0.0' }, overrides: { networkInterfaces: () => LOOPBACK } });
    const r = await s.anon.get('/api/system/addresses');
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('unauthenticated');
  });

  it('says when Hearth answers on this computer only (HOST is a loopback address), with no address to type', async () => {
    s = await startTestServer({ seed: 'household', config: { host: '127.0.0.1' }, overrides: { networkInterfaces: () => ({ ...LOOPBACK, eth0: [iface('192.168.1.20')] }) } });
    const r = await s.admin.get('/api/system/addresses');
    expect(r.body).toEqual({ reach: 'loopback', host: '127.0.0.1', addresses: [] });
  });

  it('says when this computer has no network address at all', async () => {
    s = await startTestServer({ seed: 'household', config: { host: '0.0.0.0' }, overrides: { networkInterfaces: () => LOOPBACK } });
    const r = await s.admin.get('/api/system/addresses');
    expect(r.body).toEqual({ reach: 'no_network', host: '0.0.0.0', addresses: [] });
  });

  it('answers the one address Hearth was bound to', async () => {
    s = await startTestServer({ seed: 'household', config: { host: '192.168.1.20' }, overrides: { networkInterfaces: () => LOOPBACK } });
    const r = await s.admin.get('/api/system/addresses');
    expect(r.body).toEqual({ reach: 'lan', host: '192.168.1.20', addresses: [`http://192.168.1.20:${new URL(s.url).port}`] });
  });
});
