// What to do on each kind of device to trust the household certificate, in the words its own
// settings use. The downloads are the same certificate: a profile for iPhone and iPad, the
// certificate file (DER) for everything else.
import type { ReactElement, ReactNode } from 'react';
import type { DeviceOs } from './secure-address';

export const OS_NAMES: Record<DeviceOs, string> = {
  ios: 'iPhone or iPad',
  android: 'Android phone or tablet',
  windows: 'Windows',
  macos: 'Mac',
  chromeos: 'Chromebook',
  linux: 'Linux',
};

const PROFILE = '/api/tls/ca.mobileconfig';
const CERTIFICATE = '/api/tls/ca.crt';

function Download({ href, children }: { href: string; children: ReactNode }): ReactElement {
  return (
    <a className="btn btn--secondary trust__download" href={href} download data-testid="trust-download">
      {children}
    </a>
  );
}

const Path = ({ children }: { children: ReactNode }) => <strong className="trust__path">{children}</strong>;

export function TrustSteps({ os }: { os: DeviceOs }): ReactElement {
  switch (os) {
    case 'ios':
      return (
        <ol className="trust__steps" data-testid="trust-steps">
          <li>
            <Download href={PROFILE}>Download the profile</Download> In Safari, tap <strong>Allow</strong> when it asks to download a configuration profile.
          </li>
          <li>
            Open <Path>Settings › General › VPN &amp; Device Management</Path>, tap <strong>Hearth (home network)</strong>, then <strong>Install</strong> and
            enter the passcode.
          </li>
          <li>
            Open <Path>Settings › General › About › Certificate Trust Settings</Path> and turn on <strong>Hearth household</strong>. Compare the fingerprint below
            with the one the profile shows.
          </li>
          <li>Come back here and tap Check.</li>
        </ol>
      );
    case 'android':
      return (
        <ol className="trust__steps" data-testid="trust-steps">
          <li>
            <Download href={CERTIFICATE}>Download the certificate</Download>
          </li>
          <li>
            Open <Path>Settings › Security › Encryption &amp; credentials › Install a certificate › CA certificate</Path> (on some phones: Security › More
            security settings), tap <strong>Install anyway</strong> and choose <strong>hearth-household-ca.crt</strong> from Downloads.
          </li>
          <li>Close the browser, open it again, come back here and tap Check.</li>
        </ol>
      );
    case 'windows':
      return (
        <ol className="trust__steps" data-testid="trust-steps">
          <li>
            <Download href={CERTIFICATE}>Download the certificate</Download>
          </li>
          <li>
            Open the downloaded file, compare its SHA-256 fingerprint (Details) with the one below, then choose <strong>Install Certificate…</strong> ›{' '}
            <strong>Current User</strong> › <strong>Place all certificates in the following store</strong> › <strong>Trusted Root Certification Authorities</strong>{' '}
            › Finish, and answer Yes.
          </li>
          <li>Close every browser window, open the browser again, come back here and click Check. (Firefox keeps its own list: Settings › Privacy &amp; Security › Certificates › View Certificates › Authorities › Import.)</li>
        </ol>
      );
    case 'macos':
      return (
        <ol className="trust__steps" data-testid="trust-steps">
          <li>
            <Download href={CERTIFICATE}>Download the certificate</Download>
          </li>
          <li>Open the downloaded file: Keychain Access adds it to the login keychain.</li>
          <li>
            In Keychain Access, double-click <strong>Hearth household</strong>, open <strong>Trust</strong> and set <Path>When using this certificate › Always Trust</Path>.
            Close the window and enter your password.
          </li>
          <li>Come back here and click Check.</li>
        </ol>
      );
    case 'chromeos':
      return (
        <ol className="trust__steps" data-testid="trust-steps">
          <li>
            <Download href={CERTIFICATE}>Download the certificate</Download>
          </li>
          <li>
            Open <Path>Settings › Privacy and security › Security › Manage certificates › Authorities</Path>, choose <strong>Import</strong>, pick the downloaded file and
            tick <strong>Trust this certificate for identifying websites</strong>.
          </li>
          <li>Come back here and click Check.</li>
        </ol>
      );
    case 'linux':
      return (
        <ol className="trust__steps" data-testid="trust-steps">
          <li>
            <Download href={CERTIFICATE}>Download the certificate</Download>
          </li>
          <li>
            In Chrome or Chromium: <Path>Settings › Privacy and security › Security › Manage certificates › Authorities › Import</Path>, then tick{' '}
            <strong>Trust this certificate for identifying websites</strong>. In Firefox: <Path>Settings › Privacy &amp; Security › View Certificates › Authorities › Import</Path>,
            then tick <strong>Trust this CA to identify websites</strong>.
          </li>
          <li>Come back here and click Check.</li>
        </ol>
      );
  }
}
