// The addresses other devices in the house can open Hearth at, from the bound host and the
// machine's network interfaces (the home host guard, the startup log line and the end of setup).
import os from 'node:os';

export type NetworkInterfaces = ReturnType<typeof os.networkInterfaces>;

/** The addresses other devices on the LAN can use (loopback when the machine has none). */
export function lanUrls(host: string, port: number, interfaces: NetworkInterfaces = os.networkInterfaces()): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [`http://${host.includes(':') ? `[${host}]` : host}:${port}`];
  const urls: string[] = [];
  for (const list of Object.values(interfaces)) {
    for (const i of list ?? []) if (i.family === 'IPv4' && !i.internal) urls.push(`http://${i.address}:${port}`);
  }
  return urls.length ? urls : [`http://127.0.0.1:${port}`];
}

const isLoopbackHost = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

/**
 * How likely a LAN address is to be the one a phone on the home Wi-Fi reaches: home routers hand
 * out 192.168.x.x, then 10.x and 172.16-31.x (also used by containers and VPNs); link-local
 * 169.254.x.x is what a machine gives itself without a router.
 */
function rank(url: string): number {
  const ip = new URL(url).hostname;
  if (ip.startsWith('192.168.')) return 0;
  if (ip.startsWith('10.')) return 1;
  if (/^172\.(1[6-9]|2\d|3[01])\./.test(ip)) return 2;
  if (ip.startsWith('169.254.')) return 4;
  return 3;
}

export interface HouseAddresses {
  /** What to type on another device, most likely first; empty when no other device can reach Hearth. */
  addresses: string[];
  /**
   * `lan`: other devices can open the addresses; `loopback`: Hearth was started to answer on this
   * computer only (HOST is a loopback address); `no_network`: this computer has no network address.
   */
  reach: 'lan' | 'loopback' | 'no_network';
}

export function houseAddresses(host: string, port: number, interfaces: NetworkInterfaces = os.networkInterfaces()): HouseAddresses {
  if (isLoopbackHost(host)) return { addresses: [], reach: 'loopback' };
  const urls = lanUrls(host, port, interfaces).filter((u) => !isLoopbackHost(new URL(u).hostname.replace(/^\[|\]$/g, '')));
  if (!urls.length) return { addresses: [], reach: 'no_network' };
  return { addresses: urls.map((u, i) => ({ u, i })).sort((a, b) => rank(a.u) - rank(b.u) || a.i - b.i).map((x) => x.u), reach: 'lan' };
}
