// The household certificate authority: makes the root (a name-constrained CA whose key never leaves
// DATA_DIR) and signs the server certificate for the household's names. X.509 is built with
// @peculiar/x509 and the name constraints with its ASN.1 schemas (@peculiar/asn1-x509), never by
// hand; both are loaded at first use (a first start, a renewal), not on every start.
import { webcrypto } from 'node:crypto';
import { lazyImport } from '../lazy.js';
import { PERMITTED_IP_RANGES, permittedDnsNames, type CertificateNames } from './names.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Browsers refuse a server certificate valid for longer than 398 days (Apple's rule, which Chromium follows). */
export const SERVER_CERT_DAYS = 397;
/** The root lasts long: every device that trusts it would have to trust a new one. */
export const CA_CERT_DAYS = 10 * 365;
/** Certificates start a little in the past, so a device whose clock runs behind still accepts them. */
const BACKDATE_MS = 60 * 60 * 1000;

const EC_KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

const x509 = lazyImport(async () => {
  // tsyringe (under @peculiar/x509) needs the Reflect metadata polyfill before it loads
  await import('reflect-metadata');
  const [lib, asn1X509, asn1Schema] = await Promise.all([import('@peculiar/x509'), import('@peculiar/asn1-x509'), import('@peculiar/asn1-schema')]);
  lib.cryptoProvider.set(webcrypto as unknown as Crypto);
  return { lib, asn1X509, asn1Schema };
});

export interface KeyedCertificate {
  certPem: string;
  keyPem: string;
}

function toPem(der: ArrayBuffer, label: string): string {
  const b64 = Buffer.from(der).toString('base64');
  return `-----BEGIN ${label}-----\n${b64.replace(/.{1,64}/g, '$&\n')}-----END ${label}-----\n`;
}

function pemBody(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----(BEGIN|END) [^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
}

async function newKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function privateKeyPem(keys: CryptoKeyPair): Promise<string> {
  return toPem(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey as webcrypto.CryptoKey), 'PRIVATE KEY');
}

/** A random positive 128-bit serial number (hex), as RFC 5280 and the CA/Browser Forum ask. */
function serialNumber(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return Buffer.from(bytes).toString('hex');
}

/**
 * Makes the household root: ECDSA P-256, CA with path length 0, and critical name constraints
 * permitting only the private, link-local, unique-local and loopback ranges, `.local`, localhost
 * and the computer's host name (`label`).
 */
export async function createAuthority(label: string, now: Date): Promise<KeyedCertificate> {
  const { lib, asn1X509, asn1Schema } = await x509();
  const keys = await newKeys();
  const notBefore = new Date(now.getTime() - BACKDATE_MS);
  const permitted = new asn1X509.GeneralSubtrees([
    ...permittedDnsNames(label).map((dNSName) => new asn1X509.GeneralSubtree({ base: new asn1X509.GeneralName({ dNSName }) })),
    ...PERMITTED_IP_RANGES.map((iPAddress) => new asn1X509.GeneralSubtree({ base: new asn1X509.GeneralName({ iPAddress }) })),
  ]);
  const constraints = asn1Schema.AsnConvert.serialize(new asn1X509.NameConstraints({ permittedSubtrees: permitted }));
  const cert = await lib.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: [{ CN: [`Hearth household (${label})`] }, { O: ['Hearth'] }],
    notBefore,
    notAfter: new Date(notBefore.getTime() + CA_CERT_DAYS * DAY_MS),
    keys,
    signingAlgorithm: SIGNING,
    extensions: [
      new lib.BasicConstraintsExtension(true, 0, true),
      new lib.KeyUsagesExtension(lib.KeyUsageFlags.keyCertSign | lib.KeyUsageFlags.cRLSign, true),
      new lib.Extension(asn1X509.id_ce_nameConstraints, true, constraints),
      await lib.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem') + '\n', keyPem: await privateKeyPem(keys) };
}

/** Signs a server certificate for exactly these names with the household root, valid SERVER_CERT_DAYS. */
export async function issueServerCertificate(ca: KeyedCertificate, names: CertificateNames, now: Date): Promise<KeyedCertificate> {
  const { lib } = await x509();
  const caCert = new lib.X509Certificate(ca.certPem);
  const caKey = await webcrypto.subtle.importKey('pkcs8', pemBody(ca.keyPem), EC_KEY, false, ['sign']);
  const keys = await newKeys();
  const notBefore = new Date(now.getTime() - BACKDATE_MS);
  const primary = names.dns.find((d) => d.endsWith('.local')) ?? names.dns[0] ?? 'localhost';
  const cert = await lib.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: [{ CN: [primary] }],
    issuer: caCert.subject,
    notBefore,
    notAfter: new Date(notBefore.getTime() + SERVER_CERT_DAYS * DAY_MS),
    publicKey: keys.publicKey,
    signingKey: caKey as CryptoKey,
    signingAlgorithm: SIGNING,
    extensions: [
      new lib.BasicConstraintsExtension(false, undefined, true),
      new lib.KeyUsagesExtension(lib.KeyUsageFlags.digitalSignature, true),
      new lib.ExtendedKeyUsageExtension([lib.ExtendedKeyUsage.serverAuth]),
      new lib.SubjectAlternativeNameExtension([...names.dns.map((value) => ({ type: 'dns' as const, value })), ...names.ips.map((value) => ({ type: 'ip' as const, value }))]),
      await lib.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await lib.AuthorityKeyIdentifierExtension.create(caCert.publicKey),
    ],
  });
  return { certPem: cert.toString('pem') + '\n', keyPem: await privateKeyPem(keys) };
}

