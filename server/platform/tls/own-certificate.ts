// Checks a certificate the admin brings (a domain's, a Tailscale name's) before Hearth serves it:
// the key matches, the chain runs unbroken to a root the admin includes (a private root is fine),
// nothing in it is expired or not yet valid, and the certificate lists the names it is for. Each
// refusal is a 422 with a sentence the admin can act on. Node's own X.509 reader is enough here.
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { UnprocessableError } from '../../errors.js';
import { namesFromSubjectAltName, type CertificateNames } from './names.js';

export interface CheckedCertificate {
  /** The chain as served: the certificate first, the root last. */
  chain: X509Certificate[];
  names: CertificateNames;
  validUntil: Date;
  /** The root's SHA-256 fingerprint (colon-separated hex), which devices compare when trusting it. */
  rootFingerprintSha256: string;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

const refuse = (code: string, message: string) => new UnprocessableError(code, message);

/** Splits a PEM bundle into certificates (refused when there is none or one cannot be read). */
export function readCertificates(certPem: string): X509Certificate[] {
  const blocks = certPem.match(PEM_CERT) ?? [];
  if (!blocks.length) throw refuse('certificate_unreadable', 'The certificate is not in PEM form: paste the text that starts with -----BEGIN CERTIFICATE-----.');
  return blocks.map((pem, i) => {
    try {
      return new X509Certificate(pem);
    } catch {
      throw refuse('certificate_unreadable', `Certificate ${i + 1} in the chain could not be read: paste the PEM text again, whole.`);
    }
  });
}

function readKey(keyPem: string): KeyObject {
  try {
    return createPrivateKey(keyPem);
  } catch {
    throw refuse('key_unreadable', 'The private key could not be read: paste an unencrypted PEM private key (-----BEGIN PRIVATE KEY-----).');
  }
}

const isSelfSigned = (c: X509Certificate) => c.checkIssued(c) && c.verify(c.publicKey);

/** The certificates in issuing order from the leaf, whatever order the admin pasted the rest in. */
function orderChain(leaf: X509Certificate, others: X509Certificate[]): X509Certificate[] {
  const chain = [leaf];
  const rest = [...others];
  for (;;) {
    const last = chain[chain.length - 1]!;
    if (isSelfSigned(last)) return chain;
    const i = rest.findIndex((c) => last.checkIssued(c) && last.verify(c.publicKey));
    if (i < 0) return chain;
    chain.push(...rest.splice(i, 1));
  }
}

export function checkOwnCertificate(certPem: string, keyPem: string, now: Date): CheckedCertificate {
  const certs = readCertificates(certPem);
  const key = readKey(keyPem);
  const leaf = certs[0]!;
  if (!leaf.checkPrivateKey(key)) {
    throw refuse('certificate_key_mismatch', 'The private key does not belong to the first certificate: paste the key that was made with this certificate.');
  }
  const names = namesFromSubjectAltName(leaf.subjectAltName);
  if (!names.dns.length && !names.ips.length) {
    throw refuse('certificate_names_missing', 'The certificate lists no names (Subject Alternative Names): browsers would refuse it. Ask for a certificate that names the address people open.');
  }
  const chain = orderChain(leaf, certs.slice(1));
  const root = chain[chain.length - 1]!;
  if (!isSelfSigned(root)) {
    throw refuse(
      'certificate_chain_incomplete',
      'The chain does not reach a root certificate: paste the certificate, then each certificate that signed it, up to and including the root.',
    );
  }
  for (const c of chain) {
    const from = new Date(c.validFrom);
    const to = new Date(c.validTo);
    const which = c === leaf ? 'The certificate' : `A certificate in the chain (${c.subject.split('\n').find((l) => l.startsWith('CN=')) ?? c.subject})`;
    if (to.getTime() <= now.getTime()) throw refuse('certificate_expired', `${which} expired on ${to.toISOString().slice(0, 10)}: renew it and paste the new one.`);
    if (from.getTime() > now.getTime()) throw refuse('certificate_not_yet_valid', `${which} is not valid until ${from.toISOString().slice(0, 10)}: check the computer's clock, or wait until then.`);
  }
  return { chain, names, validUntil: new Date(leaf.validTo), rootFingerprintSha256: root.fingerprint256 };
}
