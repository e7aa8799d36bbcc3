// The names of the household certificate and the bounds its root puts on them (issue 31).
import { describe, expect, it } from 'vitest';
import type { NetworkInterfaces } from '../../server/platform/lan.js';
import { canonicalIp, hostLabel, householdNames, ipInRange, isPrivateLanAddress, nameWithinConstraints, namesFromSubjectAltName, permittedDnsNames, sameNames } from '../../server/platform/tls/names.js';

const iface = (address: string, family: 'IPv4' | 'IPv6', internal = false) => ({ address, family, internal, netmask: '', mac: '', cidr: null, ...(family === 'IPv6' ? { scopeid: 0 } : {}) });
const interfaces = {
  lo: [iface('127.0.0.1', 'IPv4', true), iface('::1', 'IPv6', true)],
  wlan0: [iface('192.168.1.20', 'IPv4'), iface('fe80::1c2b:3aff:fe4d:5e6f', 'IPv6'), iface('fd00:abcd::20', 'IPv6'), iface('2001:db8::20', 'IPv6')],
  tun0: [iface('100.101.102.103', 'IPv4'), iface('203.0.113.9', 'IPv4')],
  docker0: [iface('172.17.0.1', 'IPv4')],
} as unknown as NetworkInterfaces;

describe('hostLabel', () => {
  it('takes the first label, lower case, with what a label cannot hold turned into hyphens', () => {
    expect(hostLabel('Alexs-MacBook-Pro.local')).toBe('alexs-macbook-pro');
    expect(hostLabel('kitchen-pc.lan')).toBe('kitchen-pc');
    expect(hostLabel('Sam’s PC')).toBe('sam-s-pc');
    expect(hostLabel('___')).toBe('hearth');
  });
});

describe('householdNames', () => {
  it('names the host, <host>.local, loopback and every private IPv4 address when Hearth listens on all of IPv4', () => {
    expect(householdNames({ hostName: 'My-Computer.local', host: '0.0.0.0', interfaces })).toEqual({
      dns: ['localhost', 'my-computer', 'my-computer.local'],
      ips: ['127.0.0.1', '172.17.0.1', '192.168.1.20', '::1'],
    });
  });

  it('adds the link-local and unique-local IPv6 addresses (never a public one) when it listens on ::', () => {
    expect(householdNames({ hostName: 'my-computer', host: '::', interfaces }).ips).toEqual(['127.0.0.1', '172.17.0.1', '192.168.1.20', '::1', 'fd00:abcd::20', 'fe80::1c2b:3aff:fe4d:5e6f']);
  });

  it('still names the host and <host>.local when Hearth answers on 127.0.0.1 only', () => {
    expect(householdNames({ hostName: 'my-computer', host: '127.0.0.1', interfaces })).toEqual({ dns: ['localhost', 'my-computer', 'my-computer.local'], ips: ['127.0.0.1', '::1'] });
  });

  it('names just the one address Hearth is bound to', () => {
    expect(householdNames({ hostName: 'my-computer', host: '10.0.0.5', interfaces }).ips).toEqual(['10.0.0.5', '127.0.0.1', '::1']);
  });
});

describe('the root’s constraints', () => {
  const permitted = permittedDnsNames('my-computer');

  it('permit private, link-local, unique-local and loopback addresses, and nothing public', () => {
    for (const ip of ['10.1.2.3', '172.16.0.1', '172.31.255.254', '192.168.0.1', '169.254.10.10', '127.0.0.1', '::1', 'fd00::1', 'fe80::1']) {
      expect(nameWithinConstraints(ip, permitted), ip).toBe(true);
    }
    for (const ip of ['8.8.8.8', '172.32.0.1', '100.64.0.1', '2001:db8::1', '::ffff:8.8.8.8']) expect(nameWithinConstraints(ip, permitted), ip).toBe(false);
    expect(isPrivateLanAddress('127.0.0.1')).toBe(false);
  });

  it('permit .local names, localhost and the host name (and names under them), nothing else', () => {
    for (const n of ['my-computer', 'my-computer.local', 'other.local', 'localhost', 'x.my-computer']) expect(nameWithinConstraints(n, permitted), n).toBe(true);
    for (const n of ['example.com', 'local.example.com', 'my-computer.example', 'notlocal', 'localhost.example.com']) expect(nameWithinConstraints(n, permitted), n).toBe(false);
  });

  it('compares ranges bit by bit', () => {
    expect(ipInRange('172.20.1.1', '172.16.0.0/12')).toBe(true);
    expect(ipInRange('172.15.255.255', '172.16.0.0/12')).toBe(false);
    expect(ipInRange('fdff::1', 'fc00::/7')).toBe(true);
    expect(ipInRange('fe00::1', 'fc00::/7')).toBe(false);
    expect(ipInRange('10.0.0.1', 'fc00::/7')).toBe(false);
  });
});

describe('reading names back', () => {
  it('reads Node’s subjectAltName, with IPv6 in one canonical form', () => {
    const names = namesFromSubjectAltName('DNS:My-Computer.local, IP Address:127.0.0.1, IP Address:FE80:0:0:0:0:0:0:1, IP Address:0:0:0:0:0:0:0:1');
    expect(names).toEqual({ dns: ['my-computer.local'], ips: ['127.0.0.1', '::1', 'fe80::1'] });
    expect(sameNames(names, { dns: ['my-computer.local'], ips: ['fe80::1', '::1', '127.0.0.1'] })).toBe(true);
    expect(sameNames(names, { dns: ['my-computer.local'], ips: ['127.0.0.1', '::1'] })).toBe(false);
  });

  it('canonicalIp compresses the longest zero run and drops a zone', () => {
    expect(canonicalIp('FD00:0:0:0:0:0:0:20')).toBe('fd00::20');
    expect(canonicalIp('fe80::1%eth0')).toBe('fe80::1');
    expect(canonicalIp('1:0:0:2:0:0:0:3')).toBe('1:0:0:2::3');
    expect(canonicalIp('192.168.1.2')).toBe('192.168.1.2');
  });
});
