import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BlockedUrlError, createSsrfGuard, guardedRequest, isPublicAddress } from '../../server/platform/ssrf.js';

describe('isPublicAddress', () => {
  it('accepts global unicast only', () => {
    for (const ok of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) expect(isPublicAddress(ok), ok).toBe(true);
    for (const bad of [
      '127.0.0.1', '127.1.2.3', '10.0.0.1', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
      '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:169.254.169.254', '64:ff9b::7f00:1', '2002:7f00:1::', 'ff02::1', 'not-an-ip',
    ]) expect(isPublicAddress(bad), bad).toBe(false);
  });

  // each IPv6 form that carries an IPv4 address, with a loopback, private, link-local and public one inside
  const embeddings: Array<[form: string, embed: (v4: string) => string]> = [
    ['IPv4-compatible (::/96)', (v4) => `::${v4}`],
    ['IPv4-compatible in hex', (v4) => `::${hex(v4)}`],
    ['IPv4-compatible written out', (v4) => `0:0:0:0:0:0:${hex(v4)}`],
    ['IPv4-mapped (::ffff:0:0/96)', (v4) => `::ffff:${v4}`],
    ['IPv4-mapped in hex', (v4) => `::ffff:${hex(v4)}`],
    ['SIIT (::ffff:0:0:0/96)', (v4) => `::ffff:0:${hex(v4)}`],
    ['NAT64 (64:ff9b::/96)', (v4) => `64:ff9b::${hex(v4)}`],
    ['local NAT64 (64:ff9b:1::/48)', (v4) => `64:ff9b:1::${hex(v4)}`],
    ['6to4 (2002::/16)', (v4) => `2002:${hex(v4)}::1`],
    ['Teredo (2001::/32), client address inverted', (v4) => `2001:0:4136:e378:8000:63bf:${hex(v4, 0xffffffff)}`],
  ];
  function hex(v4: string, xor = 0): string {
    const n = (v4.split('.').reduce((a, b) => a * 256 + Number(b), 0) ^ xor) >>> 0;
    return `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }

  it.each(embeddings)('refuses local IPv4 addresses inside %s', (_form, embed) => {
    for (const v4 of ['127.0.0.1', '10.0.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0']) {
      expect(isPublicAddress(embed(v4)), embed(v4)).toBe(false);
      expect(isPublicAddress(`[${embed(v4)}]`), embed(v4)).toBe(false);
    }
  });

  it('lets a public IPv4 address through only in the IPv4-mapped form, which sockets connect to as IPv4', () => {
    for (const [form, embed] of embeddings) expect(isPublicAddress(embed('8.8.8.8')), form).toBe(form.startsWith('IPv4-mapped'));
  });

  it('refuses the IPv4-compatible loopback in a URL and from a DNS answer', async () => {
    const guard = createSsrfGuard({ lookup: ((_h: string, _o: unknown, cb: (e: null, a: Array<{ address: string; family: number }>) => void) => cb(null, [{ address: '::7f00:1', family: 6 }])) as never });
    for (const url of ['http://[::7f00:1]/', 'http://[::127.0.0.1]:8787/api/auth/me', 'http://[0:0:0:0:0:0:a00:1]/']) expect(() => guard.checkUrl(url), url).toThrow(BlockedUrlError);
    await expect(guardedRequest(guard, 'http://rebind.example/')).rejects.toThrow(BlockedUrlError);
    await guard.close();
  });
});

describe('checkUrl', () => {
  const guard = createSsrfGuard();
  it('refuses other schemes, credentials and local addresses in every IPv4 spelling', () => {
    for (const url of [
      'file:///etc/passwd', 'ftp://example.org/', 'gopher://example.org', 'http://user:pw@example.org/',
      'http://127.0.0.1/', 'http://0x7f.0.0.1/', 'http://2130706433/', 'http://0177.0.0.1/', 'http://127.1/', 'http://0/',
      'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://169.254.169.254/latest/meta-data',
      'http://localhost:8787/', 'http://foo.localhost/', 'not a url',
    ]) expect(() => guard.checkUrl(url), url).toThrow(BlockedUrlError);
    expect(guard.checkUrl('https://example.org/a').hostname).toBe('example.org');
  });

  it('lets through only the exact allow-listed origins', () => {
    const g = createSsrfGuard({ allowOrigins: ['http://127.0.0.1:4000'] });
    expect(g.checkUrl('http://127.0.0.1:4000/x').port).toBe('4000');
    expect(() => g.checkUrl('http://127.0.0.1:4001/x')).toThrow(BlockedUrlError);
  });
});

describe('guarded connections', () => {
  it('checks the address a name resolves to at connect time (no DNS-rebinding window)', async () => {
    // a name that "resolves" to loopback: the guard must refuse the connection itself
    const guard = createSsrfGuard({ lookup: ((_h: string, _o: unknown, cb: (e: null, a: Array<{ address: string; family: number }>) => void) => cb(null, [{ address: '127.0.0.1', family: 4 }])) as never });
    await expect(guardedRequest(guard, 'http://rebind.example/')).rejects.toThrow(BlockedUrlError);
    await guard.close();
  });

  it('re-checks every redirect hop', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/start') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      else res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const guard = createSsrfGuard({ allowOrigins: [origin] });
    try {
      await expect(guardedRequest(guard, `${origin}/start`)).rejects.toThrow(/private or local/);
      const ok = await guardedRequest(guard, `${origin}/fine`);
      expect(ok.statusCode).toBe(200);
      await ok.body.dump();
    } finally {
      await guard.close();
      server.close();
    }
  });
});

describe('the home-network media server (lanOrigins)', () => {
  type Answer = Array<{ address: string; family: number }>;
  const resolvesTo = (map: Record<string, string>) =>
    ((host: string, _o: unknown, cb: (e: Error | null, a: Answer) => void) => (map[host] ? cb(null, [{ address: map[host], family: 4 }]) : cb(new Error('ENOTFOUND'), []))) as never;

  it('lets the configured origin through and nothing else on the home network', () => {
    const g = createSsrfGuard({ lanOrigins: ['http://192.168.1.10:32400'] });
    expect(g.checkUrl('http://192.168.1.10:32400/identity').port).toBe('32400');
    for (const url of ['http://192.168.1.10:22/', 'https://192.168.1.10:32400/', 'http://192.168.1.11:32400/', 'http://127.0.0.1:32400/']) expect(() => g.checkUrl(url), url).toThrow(BlockedUrlError);
    expect(g.checkUrl('https://plex.tv/api/v2/user').hostname).toBe('plex.tv');
  });

  it('lets the configured name resolve to its private address, refuses other ports on that name and other names that resolve privately', async () => {
    const server = http.createServer((_req, res) => res.end('plex'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    const lookup = resolvesTo({ 'plexbox.lan': '127.0.0.1', 'router.lan': '127.0.0.1' });
    const g = createSsrfGuard({ lanOrigins: [`http://plexbox.lan:${port}`], lookup });
    try {
      const ok = await guardedRequest(g, `http://plexbox.lan:${port}/identity`);
      expect(await ok.body.text()).toBe('plex');
      expect(() => g.checkUrl(`http://plexbox.lan:${port + 1}/`)).toThrow(/Only the address set for that computer/);
      expect(() => g.checkUrl(`https://plexbox.lan:${port}/`)).toThrow(BlockedUrlError);
      await expect(guardedRequest(g, `http://router.lan:${port}/`)).rejects.toThrow(/private or local network/);
    } finally {
      await g.close();
      server.close();
    }
  });

  it('does not carry the exception to a guard without it, nor into offline mode', () => {
    expect(() => createSsrfGuard().checkUrl('http://192.168.1.10:32400/')).toThrow(BlockedUrlError);
    expect(() => createSsrfGuard({ lanOrigins: ['http://192.168.1.10:32400'], offline: true }).checkUrl('http://192.168.1.10:32400/')).toThrow(/offline mode/);
    expect(createSsrfGuard({ lanOrigins: ['http://192.168.1.10:32400'] }).workerOptions).toEqual({ allowOrigins: [], offline: false });
  });
});
