// The iOS/iPadOS configuration profile that installs the household root: one
// com.apple.security.root payload holding the certificate (DER), in a plist built with the plist
// package (loaded at first use). UUIDs come from the root's fingerprint, so downloading it again
// gives the same profile, which iOS then replaces rather than adding a second.
import { createHash } from 'node:crypto';
import { lazyImport } from '../../platform/lazy.js';

const plist = lazyImport(async () => (await import('plist')).default);

/** A UUID (version 5 layout) derived from a name, stable across downloads. */
function stableUuid(name: string): string {
  const h = createHash('sha1').update(name).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex').toUpperCase();
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

export async function buildMobileconfig(root: { der: Buffer; fingerprintSha256: string }): Promise<string> {
  const id = root.fingerprintSha256.replace(/:/g, '').slice(0, 16).toLowerCase();
  const { build } = await plist();
  return build({
    PayloadContent: [
      {
        PayloadCertificateFileName: 'hearth-household-ca.cer',
        PayloadContent: root.der,
        PayloadDescription: 'Lets this device open Hearth’s secure address on the home network.',
        PayloadDisplayName: 'Hearth household certificate',
        PayloadIdentifier: `home.hearth.ca.${id}`,
        PayloadType: 'com.apple.security.root',
        PayloadUUID: stableUuid(`hearth-ca-payload:${root.fingerprintSha256}`),
        PayloadVersion: 1,
      },
    ],
    PayloadDescription: `Trust Hearth on this home network. Fingerprint (SHA-256): ${root.fingerprintSha256}. It can only vouch for addresses inside the home (private addresses, .local names and this computer’s name).`,
    PayloadDisplayName: 'Hearth (home network)',
    PayloadIdentifier: `home.hearth.profile.${id}`,
    PayloadOrganization: 'Hearth',
    PayloadRemovalDisallowed: false,
    PayloadType: 'Configuration',
    PayloadUUID: stableUuid(`hearth-profile:${root.fingerprintSha256}`),
    PayloadVersion: 1,
  });
}
