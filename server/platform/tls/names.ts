// The names a household certificate is for, and the name constraints of the household CA that
// bound them: pure logic over the machine's host name and network interfaces, so the certificate
// authority (authority.ts), the renewal (manager.ts) and the host guard all agree on one list.
import { isIP } from 'node:net';
import type { NetworkInterfaces } from '../lan.js';

/**
 * What the household CA may vouch for (X.509 nameConstraints, permitted subtrees): the private
 * IPv4 ranges, IPv4 and IPv6 link-local, IPv6 unique-local, loopback, `.local`, localhost and this
 * computer's host name. A certificate for any other name (a public site) that the CA's key signs
 * is refused by browsers, so even a stolen key cannot impersonate a bank.
 */
export const PERMITTED_IP_RANGES = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '169.254.0.0/16',
  '127.0.0.0/8',
  'fc00::/7',
  'fe80::/10',
  '::1/128',
] as const;

/** The DNS subtrees every household CA permits; the computer's host name is added per CA. */
export const PERMITTED_DNS_BASE = ['local', 'localhost'] as const;

export interface CertificateNames {
  /** DNS names (lower case, no trailing dot). */
  dns: string[];
  /** IP addresses in their canonical text form. */
  ips: string[];
}

/**
 * The computer's name as one DNS label: `Alexs-MacBook-Pro.local` and `alexs-macbook-pro.lan` both
 * give `alexs-macbook-pro`; characters a label cannot hold become hyphens.
 */
export function hostLabel(hostname: string): string {
  const first = hostname.trim().toLowerCase().split('.')[0] ?? '';
  const label = first
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);
  return label || 'hearth';
}

/** Every DNS subtree a CA made for this host label permits. */
export function permittedDnsNames(label: string): string[] {
  return [...PERMITTED_DNS_BASE, label];
}

function ipv4ToNumber(ip: string): number {
  return ip.split('.').reduce((n, part) => (n << 8) + Number(part), 0) >>> 0;
}

function ipv6ToBigInt(ip: string): bigint {
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  // an IPv4-mapped tail (::ffff:1.2.3.4) counts as two groups
  const expand = (groups: string[]) =>
    groups.flatMap((g) => {
      if (!g.includes('.')) return [g];
      const n = ipv4ToNumber(g);
      return [(n >>> 16).toString(16), (n & 0xffff).toString(16)];
    });
  const l = expand(left);
  const r = expand(right);
  const all = ip.includes('::') ? [...l, ...Array<string>(8 - l.length - r.length).fill('0'), ...r] : l;
  return all.reduce((n, g) => (n << 16n) + BigInt(parseInt(g || '0', 16)), 0n);
}

/** An IP address in one text form: IPv4 as is, IPv6 lower case with the longest zero run compressed. */
export function canonicalIp(ip: string): string {
  const bare = ip.replace(/^\[|\]$/g, '').split('%')[0] ?? ip;
  if (isIP(bare) !== 6) return bare;
  let n = ipv6ToBigInt(bare.toLowerCase());
  const groups: number[] = [];
  for (let i = 0; i < 8; i++) {
    groups.unshift(Number(n & 0xffffn));
    n >>= 16n;
  }
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.len) best = { at: i, len: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.len < 2) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.len).join(':')}`;
}

/** Whether an IP address lies in a CIDR range of the same family. */
export function ipInRange(ip: string, cidr: string): boolean {
  const [base = '', bitsText = '0'] = cidr.split('/');
  const bits = Number(bitsText);
  const family = isIP(ip);
  if (family !== isIP(base)) return false;
  if (family === 4) {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return ((ipv4ToNumber(ip) & mask) >>> 0) === ((ipv4ToNumber(base) & mask) >>> 0);
  }
  if (family === 6) {
    const mask = bits === 0 ? 0n : ((1n << 128n) - 1n) ^ ((1n << BigInt(128 - bits)) - 1n);
    return (ipv6ToBigInt(ip) & mask) === (ipv6ToBigInt(base) & mask);
  }
  return false;
}

/** Whether a DNS name falls under a permitted subtree (RFC 5280: the name itself or any name below it). */
export function dnsWithin(name: string, subtree: string): boolean {
  const n = name.toLowerCase().replace(/\.$/, '');
  const s = subtree.toLowerCase().replace(/^\./, '');
  return n === s || n.endsWith(`.${s}`);
}

/** Whether a CA with these permitted DNS subtrees (and the fixed IP ranges) may vouch for a name. */
export function nameWithinConstraints(name: string, permittedDns: readonly string[]): boolean {
  const bare = name.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return PERMITTED_IP_RANGES.some((r) => ipInRange(bare, r));
  return permittedDns.some((s) => dnsWithin(bare, s));
}

/** A LAN address a household certificate may name: private, link-local or unique-local (not loopback). */
export function isPrivateLanAddress(ip: string): boolean {
  return PERMITTED_IP_RANGES.some((r) => ipInRange(ip, r)) && !ipInRange(ip, '127.0.0.0/8') && ip !== '::1';
}

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

/**
 * The names of the household server certificate: the host name and `<host>.local` always (also when
 * Hearth answers on 127.0.0.1 only: the computer itself opens those), localhost and the loopback
 * addresses, and every private LAN address the bound host reaches (all interfaces for 0.0.0.0/::,
 * the one address otherwise). Sorted, so a changed list means a changed network.
 */
export function householdNames(opts: { hostName: string; host: string; interfaces: NetworkInterfaces }): CertificateNames {
  const label = hostLabel(opts.hostName);
  const dns = new Set([label, `${label}.local`, 'localhost']);
  const ips = new Set(['127.0.0.1', '::1']);
  const host = opts.host.replace(/^\[|\]$/g, '');
  if (host === '0.0.0.0' || host === '::') {
    for (const list of Object.values(opts.interfaces)) {
      for (const i of list ?? []) {
        if (i.internal) continue;
        if (host === '0.0.0.0' && i.family !== 'IPv4') continue;
        const address = canonicalIp(i.address);
        if (isPrivateLanAddress(address)) ips.add(address);
      }
    }
  } else if (isIP(host) && !isLoopback(host) && isPrivateLanAddress(host)) {
    ips.add(canonicalIp(host));
  }
  return { dns: [...dns].sort(), ips: [...ips].sort() };
}

/** The same names, whatever order they were listed in. */
export function sameNames(a: CertificateNames, b: CertificateNames): boolean {
  const key = (n: CertificateNames) => JSON.stringify([[...n.dns].sort(), n.ips.map(canonicalIp).sort()]);
  return key(a) === key(b);
}

/** Reads the names out of a Node `X509Certificate.subjectAltName` string (`DNS:a, IP Address:1.2.3.4`). */
export function namesFromSubjectAltName(subjectAltName: string | undefined): CertificateNames {
  const dns: string[] = [];
  const ips: string[] = [];
  for (const part of (subjectAltName ?? '').split(/,\s*/)) {
    const m = /^(DNS|IP Address):(.+)$/.exec(part.trim());
    if (!m) continue;
    if (m[1] === 'DNS') dns.push(m[2]!.toLowerCase());
    else ips.push(canonicalIp(m[2]!.trim()));
  }
  return { dns: dns.sort(), ips: ips.sort() };
}
