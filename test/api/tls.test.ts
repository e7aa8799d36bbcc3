// Secure connections (issue 31): the household CA and the server certificate it signs, HTTPS beside
// HTTP on the same app, renewal without a restart (new LAN address, nearing the end), the admin's own
// certificate and its checks, HTTPS turned off, and the host guard on both ports.
import { X509Certificate } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import plist from 'plist';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueServerCertificate, SERVER_CERT_DAYS } from '../../server/platform/tls/authority.js';
import type { NetworkInterfaces } from '../../server/platform/lan.js';
import { createManualClock } from '../../server/platform/clock.js';
import { MEMBER, startTestServer, type TestServer } from '../harness/start-server.js';
import { httpsGet, issue, makeRoot, nameConstraintsOf } from '../harness/tls.js';
import { rawRequest } from '../harness/raw-http.js';
import { makeTempDir } from '../harness/temp-dir.js';

const DAY = 24 * 60 * 60 * 1000;
const tlsFile = (s: TestServer, name: string) => path.join(s.dataDir, 'tls', name);
const caPem = (s: TestServer) => readFileSync(tlsFile(s, 'ca.crt'), 'utf8');

async function httpsPortOf(s: TestServer): Promise<number> {
  const secure = await s.handle.secure();
  if (!secure) throw new Error('HTTPS did not open');
  return secure.port;
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

function lan(...addresses: string[]): NetworkInterfaces {
  return {
    lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }],
    eth0: addresses.map((address) => ({ address, netmask: '255.255.255.0', family: net.isIPv6(address) ? ('IPv6' as const) : ('IPv4' as const), mac: '02:00:00:00:00:01', internal: false, cidr: `${address}/24`, ...(net.isIPv6(address) ? { scopeid: 0 } : {}) })),
  } as NetworkInterfaces;
}

describe('the household certificate authority and HTTPS', () => {
  let s: TestServer;
  let port: number;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
    port = await httpsPortOf(s);
  });
  afterAll(() => s.close());

  it('makes a name-constrained root on first start: critical, private ranges, .local, localhost and the host name only', () => {
    const ca = new X509Certificate(caPem(s));
    expect(ca.ca).toBe(true);
    expect(ca.checkIssued(ca)).toBe(true);
    const constraints = nameConstraintsOf(caPem(s));
    expect(constraints?.critical).toBe(true);
    expect(constraints?.dns.sort()).toEqual(['local', 'localhost', 'my-computer']);
    expect(constraints?.ips.sort()).toEqual(['10.0.0.0/8', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.168.0.0/16', '::1/128', 'fc00::/7', 'fe80::/10'].sort());
  });

  it('a certificate the household root signs for a public name fails verification: the name constraints hold (openssl)', async () => {
    const temp = makeTempDir();
    try {
      const ca = { certPem: caPem(s), keyPem: readFileSync(tlsFile(s, 'ca.key'), 'utf8') };
      const verify = (name: string, pem: string) => {
        writeFileSync(path.join(temp.dir, name), pem);
        return spawnSync('openssl', ['verify', '-CAfile', tlsFile(s, 'ca.crt'), path.join(temp.dir, name)], { encoding: 'utf8' });
      };
      expect(verify('served.pem', readFileSync(tlsFile(s, 'server.crt'), 'utf8')).status).toBe(0);
      for (const names of [{ dns: ['example.com'], ips: [] }, { dns: [], ips: ['8.8.8.8'] }, { dns: ['my-computer.local', 'bank.example'], ips: [] }]) {
        const rogue = await issueServerCertificate(ca, names, new Date());
        const r = verify('rogue.pem', rogue.certPem);
        expect(r.status, JSON.stringify(names)).not.toBe(0);
        expect(r.stdout + r.stderr).toMatch(/permitted subtree violation/);
      }
    } finally {
      temp.remove();
    }
  });

  it('keeps the keys readable by this user only (0600)', () => {
    for (const key of ['ca.key', 'server.key']) expect(statSync(tlsFile(s, key)).mode & 0o777, key).toBe(0o600);
  });

  it('serves a certificate signed by the root for the host name, <host>.local and loopback (Hearth listens on 127.0.0.1 only), valid at most 397 days', async () => {
    const r = await httpsGet(port, { name: 'my-computer.local', ca: caPem(s) });
    expect(r.status).toBe(200);
    const cert = r.peer;
    expect(cert.subjectAltName).toBe('DNS:localhost, DNS:my-computer, DNS:my-computer.local, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    const ca = new X509Certificate(caPem(s));
    expect(cert.checkIssued(ca) && cert.verify(ca.publicKey)).toBe(true);
    const days = (new Date(cert.validTo).getTime() - new Date(cert.validFrom).getTime()) / DAY;
    expect(days).toBeLessThanOrEqual(SERVER_CERT_DAYS);
    expect(days).toBeGreaterThan(390);
    expect(cert.fingerprint256).toBe(new X509Certificate(readFileSync(tlsFile(s, 'server.crt'))).fingerprint256);
    expect(s.handle.deps.tls.state()).toMatchObject({ mode: 'household', fingerprintSha256: ca.fingerprint256 });
  });

  it('speaks TLS 1.2 and 1.3, not older', async () => {
    expect((await httpsGet(port, { name: 'my-computer.local', ca: caPem(s) })).protocol).toBe('TLSv1.3');
    expect((await httpsGet(port, { name: 'my-computer.local', ca: caPem(s), maxVersion: 'TLSv1.2' })).protocol).toBe('TLSv1.2');
    await expect(httpsGet(port, { name: 'my-computer.local', ca: caPem(s), minVersion: 'TLSv1', maxVersion: 'TLSv1.1' })).rejects.toThrow();
  });

  it('is the same app and API as HTTP: a session cookie works on both, and it is Secure over HTTPS', async () => {
    const profiles = await httpsGet(port, { name: 'my-computer', ca: caPem(s), path: '/api/auth/profiles' });
    expect(profiles.status).toBe(200);
    expect(profiles.json()).toEqual((await s.anon.get('/api/auth/profiles')).body);
    const page = await httpsGet(port, { name: 'localhost', ca: caPem(s), path: '/docs/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const signIn = await httpsGet(port, { name: 'my-computer.local', ca: caPem(s), path: '/api/auth/verify-pin', method: 'POST', body: { userId: s.users.member.id, pin: MEMBER.pin } });
    expect(signIn.status).toBe(200);
    const cookie = String(signIn.headers['set-cookie']);
    expect(cookie).toMatch(/session=[^;]+;.*Secure/i);
    const me = await httpsGet(port, { name: 'my-computer.local', ca: caPem(s), path: '/api/auth/me', headers: { cookie: cookie.split(';')[0]! } });
    expect(me.json().user).toMatchObject({ id: s.users.member.id });
    // a session made over HTTP is good over HTTPS too (the same household, the same server)
    const meToo = await httpsGet(port, { name: 'my-computer.local', ca: caPem(s), path: '/api/auth/me', headers: { cookie: s.admin.cookie! } });
    expect(meToo.json().user).toMatchObject({ id: s.users.admin.id });
  });

  it('the host guard accepts exactly the certificate’s names (and addresses) on both ports; another .local name is refused', async () => {
    for (const name of ['my-computer.local', 'my-computer', 'localhost', '127.0.0.1']) {
      expect((await httpsGet(port, { name, ca: caPem(s), path: '/api/auth/profiles' })).status, name).toBe(200);
    }
    // the certificate does not name other-computer.local, so only a client that skips the check gets this far
    for (const name of ['other-computer.local', 'hearth.lan', 'attacker.example']) {
      const secure = await httpsGet(port, { name, rejectUnauthorized: false, path: '/api/auth/profiles' });
      expect(secure.status, name).toBe(403);
      expect(secure.json().error.code).toBe('bad_host');
      expect(secure.json().error.message).toMatch(/Open it at https:\/\/\S+/);
      const plain = await rawRequest(s.url, { method: 'GET', path: '/api/auth/profiles', headers: { host: `${name}:${new URL(s.url).port}` } });
      expect(plain.status, name).toBe(403);
      expect(plain.json().error.code).toBe('bad_host');
    }
  });

  it('a TLS client that does not trust the household root refuses the connection', async () => {
    await expect(httpsGet(port, { name: 'my-computer.local' })).rejects.toThrow(/self.signed|unable to (get|verify)/i);
  });
});

describe('renewal without a restart', () => {
  it('a new LAN address gets a new certificate naming it, served on the open port; the old address leaves it', async () => {
    let interfaces = lan('192.168.1.20');
    const s = await startTestServer({ config: { host: '0.0.0.0' }, overrides: { networkInterfaces: () => interfaces } });
    try {
      const port = await httpsPortOf(s);
      const first = await httpsGet(port, { name: 'my-computer.local', ca: caPem(s) });
      expect(first.peer.subjectAltName).toContain('IP Address:192.168.1.20');
      // nothing changed: the same certificate stays
      expect(await s.handle.deps.tls.refresh()).toBe(false);
      interfaces = lan('10.0.0.7', 'fd12:3456:789a::5', 'fe80::1234');
      expect(await s.handle.deps.tls.refresh()).toBe(true);
      const second = await httpsGet(port, { name: 'my-computer.local', ca: caPem(s) });
      expect(second.peer.subjectAltName).toContain('IP Address:10.0.0.7');
      expect(second.peer.subjectAltName).not.toContain('192.168.1.20');
      // HOST 0.0.0.0 listens on IPv4 only, so the IPv6 addresses are not named
      expect(second.peer.subjectAltName).not.toContain('FD12');
      expect(second.peer.serialNumber).not.toBe(first.peer.serialNumber);
      expect(second.peer.fingerprint256).toBe(new X509Certificate(readFileSync(tlsFile(s, 'server.crt'))).fingerprint256);
    } finally {
      await s.close();
    }
  });

  it('renews 30 days before the end, and not earlier', async () => {
    const clock = createManualClock(new Date());
    const s = await startTestServer({ overrides: { clock } });
    try {
      const port = await httpsPortOf(s);
      const first = new Date((await httpsGet(port, { name: 'localhost', ca: caPem(s) })).peer.validTo);
      clock.set(new Date(first.getTime() - 31 * DAY));
      expect(await s.handle.deps.tls.refresh()).toBe(false);
      clock.set(new Date(first.getTime() - 29 * DAY));
      expect(await s.handle.deps.tls.refresh()).toBe(true);
      expect(s.handle.deps.tls.state().validUntil!.getTime()).toBeGreaterThan(first.getTime() + 300 * DAY);
    } finally {
      await s.close();
    }
  });

  it('a restart keeps the root and the certificate', async () => {
    const temp = makeTempDir();
    try {
      const a = await startTestServer({ dataDir: temp.dir });
      await a.handle.secure();
      const before = { ca: caPem(a), cert: readFileSync(tlsFile(a, 'server.crt'), 'utf8') };
      await a.close();
      const b = await startTestServer({ dataDir: temp.dir });
      await b.handle.secure();
      expect({ ca: caPem(b), cert: readFileSync(tlsFile(b, 'server.crt'), 'utf8') }).toEqual(before);
      await b.close();
    } finally {
      temp.remove();
    }
  });
});

describe('the admin’s own certificate, and HTTPS off', () => {
  let s: TestServer;
  let port: number;
  let root: Awaited<ReturnType<typeof makeRoot>>;
  beforeAll(async () => {
    s = await startTestServer();
    port = await httpsPortOf(s);
    root = await makeRoot('Household private root');
  });
  afterAll(() => s.close());

  const code = async (p: Promise<unknown>) => {
    try {
      await p;
      return 'accepted';
    } catch (err) {
      return `${(err as { status?: number }).status} ${(err as { code?: string }).code}: ${(err as Error).message}`;
    }
  };

  it('refuses a key of another certificate, an expired one, one listing no names, and a chain without its root, each with a sentence', async () => {
    const leaf = await issue(root, { dns: ['hearth.example.net'] });
    const other = await issue(root, { dns: ['hearth.example.net'] });
    const tls = s.handle.deps.tls;
    expect(await code(tls.useOwn(leaf.certPem + root.certPem, other.keyPem))).toMatch(/^422 certificate_key_mismatch: The private key does not belong/);
    const expired = await issue(root, { dns: ['hearth.example.net'], notBefore: new Date(Date.now() - 100 * DAY), notAfter: new Date(Date.now() - DAY) });
    expect(await code(tls.useOwn(expired.certPem + root.certPem, expired.keyPem))).toMatch(/^422 certificate_expired: The certificate expired on \d{4}-\d\d-\d\d/);
    const nameless = await issue(root, { subject: 'no names' });
    expect(await code(tls.useOwn(nameless.certPem + root.certPem, nameless.keyPem))).toMatch(/^422 certificate_names_missing: The certificate lists no names/);
    const intermediate = await issue(root, { subject: 'Intermediate', ca: true });
    const underIntermediate = await issue(intermediate, { dns: ['hearth.example.net'] });
    expect(await code(tls.useOwn(underIntermediate.certPem + root.certPem, underIntermediate.keyPem))).toMatch(/^422 certificate_chain_incomplete: The chain does not reach a root/);
    expect(await code(tls.useOwn('not a certificate', leaf.keyPem))).toMatch(/^422 certificate_unreadable/);
    expect(await code(tls.useOwn(leaf.certPem + root.certPem, 'not a key'))).toMatch(/^422 key_unreadable/);
    // nothing changed
    expect(tls.state().mode).toBe('household');
  });

  it('serves a complete chain (root last, in any order) with no restart, and the host guard follows its names', async () => {
    const intermediate = await issue(root, { subject: 'Intermediate', ca: true });
    const leaf = await issue(intermediate, { dns: ['hearth.example.net', 'hearth.tail1234.ts.net'] });
    await s.handle.deps.tls.useOwn(leaf.certPem + root.certPem + intermediate.certPem, leaf.keyPem);
    await s.handle.secure();
    const r = await httpsGet(port, { name: 'hearth.example.net', ca: root.certPem, path: '/api/auth/profiles' });
    expect(r.status).toBe(200);
    expect(r.peer.fingerprint256).toBe(new X509Certificate(leaf.certPem).fingerprint256);
    expect(s.handle.deps.tls.state()).toMatchObject({ mode: 'own', names: { dns: ['hearth.example.net', 'hearth.tail1234.ts.net'], ips: [] }, fingerprintSha256: new X509Certificate(root.certPem).fingerprint256 });
    // the household names are not on this certificate, so the guard refuses them now
    const viaName = (name: string) => rawRequest(s.url, { method: 'GET', path: '/api/auth/profiles', headers: { host: `${name}:${new URL(s.url).port}` } });
    expect((await viaName('my-computer.local')).status).toBe(403);
    expect((await viaName('hearth.tail1234.ts.net')).status).toBe(200);
    // the key is kept beside the household's, readable by this user only
    expect(statSync(tlsFile(s, 'own.key')).mode & 0o777).toBe(0o600);
  });

  it('off closes the HTTPS port; household opens it again on the same port', async () => {
    await s.handle.deps.tls.turnOff();
    expect(await s.handle.secure()).toBeNull();
    expect(await refused(port)).toBe(true);
    expect((await s.anon.get('/api/system/ready')).status).toBe(200);
    await s.handle.deps.tls.useHousehold();
    expect((await s.handle.secure())?.port).toBe(port);
    expect((await httpsGet(port, { name: 'my-computer.local', ca: caPem(s) })).status).toBe(200);
  });
});

function getBytes(url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('the routes: status, the root to install, the admin’s choice', () => {
  let s: TestServer;
  let port: number;
  let root: Awaited<ReturnType<typeof makeRoot>>;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
    port = await httpsPortOf(s);
    root = await makeRoot('Household private root');
  });
  afterAll(() => s.close());

  it('GET /api/system/tls answers anyone: the mode, the HTTPS port, exactly the certificate’s names, the root’s fingerprint and the end date', async () => {
    const r = await s.anon.get('/api/system/tls');
    expect(r.status).toBe(200);
    const served = (await httpsGet(port, { name: 'localhost', ca: caPem(s) })).peer;
    expect(r.body).toEqual({
      mode: 'household',
      httpsPort: port,
      names: ['localhost', 'my-computer', 'my-computer.local', '127.0.0.1', '::1'],
      fingerprintSha256: new X509Certificate(caPem(s)).fingerprint256,
      validUntil: new Date(served.validTo).toISOString(),
    });
    // the same over HTTPS
    expect((await httpsGet(port, { name: 'my-computer.local', ca: caPem(s), path: '/api/system/tls' })).json()).toEqual(r.body);
  });

  it('GET /api/tls/ca.crt is the household root as DER (application/x-x509-ca-cert), for anyone', async () => {
    const r = await getBytes(`${s.url}/api/tls/ca.crt`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/x-x509-ca-cert');
    expect(r.headers['content-disposition']).toContain('attachment');
    expect(r.body[0]).toBe(0x30); // a DER SEQUENCE, not PEM text
    const cert = new X509Certificate(r.body);
    expect(cert.fingerprint256).toBe(new X509Certificate(caPem(s)).fingerprint256);
    expect(cert.ca).toBe(true);
  });

  it('GET /api/tls/ca.mobileconfig is an iOS profile (application/x-apple-aspen-config) whose root payload is the same certificate', async () => {
    const r = await getBytes(`${s.url}/api/tls/ca.mobileconfig`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/x-apple-aspen-config');
    const profile = plist.parse(r.body.toString('utf8')) as Record<string, any>;
    expect(profile).toMatchObject({ PayloadType: 'Configuration', PayloadVersion: 1, PayloadDisplayName: expect.stringContaining('Hearth') });
    expect(profile.PayloadUUID).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-5[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    expect(profile.PayloadContent).toHaveLength(1);
    const payload = profile.PayloadContent[0];
    expect(payload).toMatchObject({ PayloadType: 'com.apple.security.root', PayloadVersion: 1 });
    expect(payload.PayloadUUID).not.toBe(profile.PayloadUUID);
    expect(new X509Certificate(payload.PayloadContent as Buffer).fingerprint256).toBe(new X509Certificate(caPem(s)).fingerprint256);
    // the same profile on every download (iOS replaces it instead of adding another)
    expect((await getBytes(`${s.url}/api/tls/ca.mobileconfig`)).body.equals(r.body)).toBe(true);
  });

  it('the admin routes answer 401 without a session and 403 to a member', async () => {
    for (const [method, p] of [['GET', '/api/admin/tls'], ['PUT', '/api/admin/tls'], ['POST', '/api/admin/tls/renew']] as const) {
      expect((await s.anon.req(method, p, method === 'GET' ? undefined : { mode: 'off' })).status, `${method} ${p}`).toBe(401);
      expect((await s.member.req(method, p, method === 'GET' ? undefined : { mode: 'off' })).status, `${method} ${p}`).toBe(403);
    }
    expect((await s.anon.get('/api/system/tls')).body.mode).toBe('household');
  });

  it('PUT /api/admin/tls checks the admin’s own certificate: 422 with a sentence for a wrong key, an expired one, one without names; 400 without the PEM', async () => {
    const leaf = await issue(root, { dns: ['hearth.example.net'] });
    const other = await issue(root, { dns: ['hearth.example.net'] });
    const expired = await issue(root, { dns: ['hearth.example.net'], notBefore: new Date(Date.now() - 100 * DAY), notAfter: new Date(Date.now() - DAY) });
    const nameless = await issue(root, { subject: 'no names' });
    const cases: Array<[unknown, number, string]> = [
      [{ mode: 'own', certPem: leaf.certPem + root.certPem, keyPem: other.keyPem }, 422, 'certificate_key_mismatch'],
      [{ mode: 'own', certPem: expired.certPem + root.certPem, keyPem: expired.keyPem }, 422, 'certificate_expired'],
      [{ mode: 'own', certPem: nameless.certPem + root.certPem, keyPem: nameless.keyPem }, 422, 'certificate_names_missing'],
      [{ mode: 'own', certPem: leaf.certPem, keyPem: leaf.keyPem }, 422, 'certificate_chain_incomplete'],
      [{ mode: 'own', certPem: leaf.certPem + root.certPem }, 400, 'invalid_request'],
      [{ mode: 'secure' }, 400, 'invalid_request'],
    ];
    for (const [body, status, code] of cases) {
      const r = await s.admin.put('/api/admin/tls', body);
      expect(r.status, code).toBe(status);
      expect(r.body.error.code).toBe(code);
      expect(r.body.error.message).toMatch(/^[A-Z].+[.:].*/);
    }
    expect((await s.admin.get('/api/admin/tls')).body).toMatchObject({ mode: 'household', notice: null });
  });

  it('PUT /api/admin/tls own, off and household: each served at once', async () => {
    const leaf = await issue(root, { dns: ['hearth.example.net'] });
    const own = await s.admin.put('/api/admin/tls', { mode: 'own', certPem: leaf.certPem + root.certPem, keyPem: leaf.keyPem });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ mode: 'own', httpsPort: port, names: ['hearth.example.net'], fingerprintSha256: new X509Certificate(root.certPem).fingerprint256, householdFingerprintSha256: new X509Certificate(caPem(s)).fingerprint256 });
    expect((await httpsGet(port, { name: 'hearth.example.net', ca: root.certPem, path: '/api/system/tls' })).json().mode).toBe('own');
    // renewing is the issuer's business, and says so
    const renew = await s.admin.post('/api/admin/tls/renew');
    expect(renew.status).toBe(409);
    expect(renew.body.error.code).toBe('own_certificate');

    const off = await s.admin.put('/api/admin/tls', { mode: 'off' });
    expect(off.body).toMatchObject({ mode: 'off', httpsPort: null, names: [], validUntil: null });
    expect(await refused(port)).toBe(true);
    expect((await s.admin.post('/api/admin/tls/renew')).status).toBe(409);
    // the root can still be installed while HTTPS is off
    expect((await getBytes(`${s.url}/api/tls/ca.crt`)).status).toBe(200);

    const household = await s.admin.put('/api/admin/tls', { mode: 'household' });
    expect(household.body).toMatchObject({ mode: 'household', httpsPort: port });
    expect((await httpsGet(port, { name: 'my-computer.local', ca: caPem(s) })).status).toBe(200);
  });

  it('the admin’s own certificate is kept across a restart', async () => {
    const temp = makeTempDir();
    try {
      const leaf = await issue(root, { dns: ['hearth.example.net'] });
      const a = await startTestServer({ seed: 'household', dataDir: temp.dir });
      await a.handle.secure();
      expect((await a.admin.put('/api/admin/tls', { mode: 'own', certPem: leaf.certPem + root.certPem, keyPem: leaf.keyPem })).status).toBe(200);
      await a.close();
      const b = await startTestServer({ dataDir: temp.dir });
      const port = await httpsPortOf(b);
      expect((await b.anon.get('/api/system/tls')).body).toMatchObject({ mode: 'own', names: ['hearth.example.net'], httpsPort: port });
      expect((await httpsGet(port, { name: 'hearth.example.net', ca: root.certPem })).peer.fingerprint256).toBe(new X509Certificate(leaf.certPem).fingerprint256);
      await b.close();
    } finally {
      temp.remove();
    }
  });

  it('POST /api/admin/tls/renew issues a new household certificate and serves it with no restart', async () => {
    const before = (await httpsGet(port, { name: 'localhost', ca: caPem(s) })).peer;
    const r = await s.admin.post('/api/admin/tls/renew');
    expect(r.status).toBe(200);
    const after = (await httpsGet(port, { name: 'localhost', ca: caPem(s) })).peer;
    expect(after.serialNumber).not.toBe(before.serialNumber);
    expect(r.body.validUntil).toBe(new Date(after.validTo).toISOString());
  });

  it('no answer carries a private key: every GET route without parameters, as the admin, and the exports', async () => {
    const secrets = ['ca.key', 'server.key'].map((f) => readFileSync(tlsFile(s, f), 'utf8').replace(/-----[^-]+-----|\s/g, '').slice(20, 60));
    const gets = s.handle.routes.filter((r) => r.method === 'get' && !r.path.includes(':') && r.response !== 'events');
    expect(gets.length).toBeGreaterThan(20);
    for (const r of gets) {
      const answer = await getBytes(`${s.url}${r.path}`.replace(/\/\*.*$/, '')).catch(() => null);
      const text = answer?.body.toString('latin1') ?? '';
      const withSession = await s.admin.get(r.path);
      for (const secret of secrets) {
        expect(text.includes(secret), r.path).toBe(false);
        expect(withSession.text.includes(secret), r.path).toBe(false);
      }
    }
  });
});
