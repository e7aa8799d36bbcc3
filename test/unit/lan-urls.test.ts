import type os from 'node:os';
import { describe, expect, it } from 'vitest';
import { lanUrls } from '../../server/run.js';

type Interfaces = ReturnType<typeof os.networkInterfaces>;
const iface = (address: string, family: 'IPv4' | 'IPv6', internal: boolean) =>
  ({ address, family, internal, netmask: '', mac: '00:00:00:00:00:00', cidr: null }) as unknown as os.NetworkInterfaceInfo;

const interfaces: Interfaces = {
  lo: [iface('127.0.0.1', 'IPv4', true), iface('::1', 'IPv6', true)],
  eth0: [iface('192.168.1.20', 'IPv4', false), iface('fe80::1', 'IPv6', false)],
  wlan0: [iface('10.0.0.7', 'IPv4', false)],
};

describe('lanUrls', () => {
  it('lists every external IPv4 address when bound to all interfaces', () => {
    expect(lanUrls('0.0.0.0', 8787, interfaces)).toEqual(['http://192.168.1.20:8787', 'http://10.0.0.7:8787']);
    expect(lanUrls('::', 9000, interfaces)).toEqual(['http://192.168.1.20:9000', 'http://10.0.0.7:9000']);
  });

  it('falls back to loopback when the machine has no LAN address', () => {
    expect(lanUrls('0.0.0.0', 8787, { lo: interfaces.lo })).toEqual(['http://127.0.0.1:8787']);
    expect(lanUrls('0.0.0.0', 8787, {})).toEqual(['http://127.0.0.1:8787']);
  });

  it('answers the bound host alone when bound to one address, bracketing IPv6', () => {
    expect(lanUrls('192.168.1.20', 8787, interfaces)).toEqual(['http://192.168.1.20:8787']);
    expect(lanUrls('::1', 8787, interfaces)).toEqual(['http://[::1]:8787']);
  });
});
