// HTTPS from the tests' side: a request to a Hearth HTTPS port under a chosen name (SNI and Host),
// trusting a given root, that hands back the certificate the server presented; and certificates
// made outside Hearth's rules (an admin's own chain, expired ones, a root without constraints),
// built with the same X.509 library Hearth uses.
import { webcrypto, X509Certificate } from 'node:crypto';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import 'reflect-metadata';
import { AsnConvert } from '@peculiar/asn1-schema';
import { NameConstraints } from '@peculiar/asn1-x509';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export interface TlsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): any;
  /** The certificate the server presented. */
  peer: X509Certificate;
  protocol: string | null;
}

/** GET over HTTPS to 127.0.0.1:port, asking for `name` (SNI, Host and the name checked against the certificate). */
export function httpsGet(port: number, opts: { name: string; path?: string; method?: string; body?: unknown; headers?: Record<string, string>; ca?: string | string[]; rejectUnauthorized?: boolean; maxVersion?: 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'; minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' }): Promise<TlsAnswer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port,
        path: opts.path ?? '/api/system/ready',
        method: opts.method ?? 'GET',
        ...(/^[\d.]+$|:/.test(opts.name) ? {} : { servername: opts.name }),
        headers: {
          host: `${opts.name.includes(':') ? `[${opts.name}]` : opts.name}:${port}`,
          ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...opts.headers,
        },
        ca: opts.ca,
        rejectUnauthorized: opts.rejectUnauthorized ?? true,
        ...(opts.rejectUnauthorized === false ? { checkServerIdentity: () => undefined } : {}),
        ...(opts.maxVersion ? { maxVersion: opts.maxVersion } : {}),
        ...(opts.minVersion ? { minVersion: opts.minVersion } : {}),
        agent: false,
      },
      (res) => {
        const socket = res.socket as TLSSocket;
        const peer = new X509Certificate(socket.getPeerCertificate().raw);
        const protocol = socket.getProtocol();
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text), peer, protocol });
        });
      },
    );
    req.on('error', reject);
    req.end(opts.body !== undefined ? JSON.stringify(opts.body) : undefined);
  });
}

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY = 24 * 60 * 60 * 1000;

export interface TestCert {
  certPem: string;
  keyPem: string;
  cert: x509.X509Certificate;
  keys: CryptoKeyPair;
}

async function keyPem(keys: CryptoKeyPair): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey as webcrypto.CryptoKey));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END PRIVATE KEY-----\n`;
}

/** A root without name constraints (a household's own private CA, or an attacker's). */
export async function makeRoot(name = 'Test Root', opts: { notBefore?: Date; notAfter?: Date } = {}): Promise<TestCert> {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${name}`,
    notBefore: opts.notBefore ?? new Date(Date.now() - DAY),
    notAfter: opts.notAfter ?? new Date(Date.now() + 3650 * DAY),
    keys,
    signingAlgorithm: SIGN,
    extensions: [new x509.BasicConstraintsExtension(true, 1, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)],
  });
  return { certPem: cert.toString('pem') + '\n', keyPem: await keyPem(keys), cert, keys };
}

/** A certificate signed by `issuer` (an intermediate when `ca`), for these DNS names and IPs. */
export async function issue(
  issuer: { certPem: string; keyPem: string },
  opts: { dns?: string[]; ips?: string[]; subject?: string; notBefore?: Date; notAfter?: Date; ca?: boolean },
): Promise<TestCert> {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  const issuerCert = new x509.X509Certificate(issuer.certPem);
  const body = Buffer.from(issuer.keyPem.replace(/-----(BEGIN|END) [^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  const signingKey = await webcrypto.subtle.importKey('pkcs8', body, EC, false, ['sign']);
  const names = [...(opts.dns ?? []).map((value) => ({ type: 'dns' as const, value })), ...(opts.ips ?? []).map((value) => ({ type: 'ip' as const, value }))];
  const cert = await x509.X509CertificateGenerator.create({
    subject: `CN=${opts.subject ?? opts.dns?.[0] ?? 'test'}`,
    issuer: issuerCert.subject,
    notBefore: opts.notBefore ?? new Date(Date.now() - DAY),
    notAfter: opts.notAfter ?? new Date(Date.now() + 90 * DAY),
    publicKey: keys.publicKey,
    signingKey: signingKey as CryptoKey,
    signingAlgorithm: SIGN,
    extensions: [
      new x509.BasicConstraintsExtension(opts.ca ?? false, opts.ca ? 0 : undefined, true),
      ...(opts.ca ? [new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true)] : [new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth])]),
      ...(names.length ? [new x509.SubjectAlternativeNameExtension(names)] : []),
    ],
  });
  return { certPem: cert.toString('pem') + '\n', keyPem: await keyPem(keys), cert, keys };
}

/** The name constraints of a certificate, read back with the X.509 library (undefined when absent). */
export function nameConstraintsOf(pem: string): { critical: boolean; dns: string[]; ips: string[] } | undefined {
  const cert = new x509.X509Certificate(pem);
  const ext = cert.extensions.find((e) => e.type === '2.5.29.30');
  if (!ext) return undefined;
  return { critical: ext.critical, ...parseNameConstraints(ext.value) };
}

function parseNameConstraints(der: ArrayBuffer): { dns: string[]; ips: string[] } {
  const nc = AsnConvert.parse(der, NameConstraints);
  const dns: string[] = [];
  const ips: string[] = [];
  for (const s of nc.permittedSubtrees ?? []) {
    if (s.base.dNSName !== undefined) dns.push(s.base.dNSName);
    if (s.base.iPAddress !== undefined) ips.push(s.base.iPAddress);
  }
  return { dns, ips };
}
