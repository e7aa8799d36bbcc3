// Owns Hearth's TLS state in DATA_DIR/tls: the household root (made on first start; its key never
// leaves this folder, file mode 0600), the server certificate it signs (renewed 30 days before it
// ends and whenever the LAN addresses change), or the admin's own certificate, or no HTTPS at all.
// app.ts serves what `material()` holds and swaps the TLS context when `onChange` fires, so a
// renewal needs no restart; the host guard asks `hostAllowed` (exactly the names in use).
import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import type { Clock } from '../clock.js';
import type { NetworkInterfaces } from '../lan.js';
import type { Logger } from '../logger.js';
import { createAuthority, issueServerCertificate, type KeyedCertificate } from './authority.js';
import { hostLabel, householdNames, nameWithinConstraints, namesFromSubjectAltName, permittedDnsNames, sameNames, type CertificateNames } from './names.js';
import { checkOwnCertificate } from './own-certificate.js';

export type TlsMode = 'household' | 'own' | 'off';

/** A server certificate is renewed this long before it ends. */
export const RENEW_BEFORE_MS = 30 * 24 * 60 * 60 * 1000;

/** What Hearth serves over HTTPS: the certificate chain and its key (PEM). */
export interface TlsMaterial {
  cert: string;
  key: string;
}

export interface TlsState {
  mode: TlsMode;
  /** The names of the certificate in use (for `off`, the household's: what the host guard accepts). */
  names: CertificateNames;
  /** The household root's SHA-256 fingerprint (own mode: the admin's root's); null when off and no root exists. */
  fingerprintSha256: string | null;
  /** When the server certificate in use ends; null when off. */
  validUntil: Date | null;
  /** Why the configured mode is not what is served (the admin's own certificate expired), for the admin page. */
  notice: string | null;
}

interface Settings {
  mode: TlsMode;
  /** The host label the household root was made for (its name constraints permit it). */
  caLabel?: string;
}

const FILES = {
  settings: 'settings.json',
  caCert: 'ca.crt',
  caKey: 'ca.key',
  serverCert: 'server.crt',
  serverKey: 'server.key',
  ownCert: 'own.crt',
  ownKey: 'own.key',
} as const;

export interface TlsManagerDeps {
  /** DATA_DIR/tls. */
  dir: string;
  /** The computer's host name (os.hostname(), or HEARTH_HOSTNAME). */
  hostName: string;
  /** The address the HTTP and HTTPS servers bind. */
  host: string;
  networkInterfaces: () => NetworkInterfaces;
  clock: Clock;
  logger: Logger;
}

export class TlsManager {
  private settings: Settings = { mode: 'household' };
  private ca: (KeyedCertificate & { x509: X509Certificate }) | null = null;
  private served: { material: TlsMaterial; names: CertificateNames; validUntil: Date; fingerprintSha256: string } | null = null;
  private readonly listeners = new Set<() => void | Promise<void>>();
  private httpsPort: number | null = null;
  private notice: string | null = null;
  /** One change at a time: a renewal and an admin's switch never interleave their file writes. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: TlsManagerDeps) {}

  private file(name: keyof typeof FILES): string {
    return path.join(this.deps.dir, FILES[name]);
  }

  private read(name: keyof typeof FILES): string | null {
    const f = this.file(name);
    return existsSync(f) ? readFileSync(f, 'utf8') : null;
  }

  /** Written whole or not at all; keys are readable by this user only. */
  private write(name: keyof typeof FILES, text: string, secret = false): void {
    mkdirSync(this.deps.dir, { recursive: true, mode: 0o700 });
    const target = this.file(name);
    const temp = `${target}.${process.pid}.tmp`;
    writeFileSync(temp, text, { mode: secret ? 0o600 : 0o644 });
    if (secret) chmodSync(temp, 0o600); // the umask cannot widen it, but an existing file's mode would stay
    renameSync(temp, target);
  }

  private serialize<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Reads the household's choice (household, own, off), so the host guard knows it from the first request. */
  loadSettings(): void {
    const text = this.read('settings');
    if (!text) return;
    try {
      const saved = JSON.parse(text) as Partial<Settings>;
      this.settings = { mode: saved.mode === 'own' || saved.mode === 'off' ? saved.mode : 'household', caLabel: typeof saved.caLabel === 'string' ? saved.caLabel : undefined };
    } catch {
      this.deps.logger.warn('TLS settings could not be read; using the household certificate');
    }
  }

  /** Loads (or on a first start makes) what the configured mode serves. */
  init(): Promise<void> {
    return this.serialize(async () => {
      this.loadSettings();
      await this.apply(false);
    });
  }

  get mode(): TlsMode {
    return this.settings.mode;
  }

  /** The current household names (host name, `<host>.local`, loopback, the private LAN addresses). */
  householdNames(): CertificateNames {
    return householdNames({ hostName: this.deps.hostName, host: this.deps.host, interfaces: this.deps.networkInterfaces() });
  }

  /** What the HTTPS server serves now; null when HTTPS is off. */
  material(): TlsMaterial | null {
    return this.settings.mode === 'off' ? null : (this.served?.material ?? null);
  }

  state(): TlsState {
    if (this.settings.mode === 'off' || !this.served) {
      return { mode: this.settings.mode, names: this.householdNames(), fingerprintSha256: this.ca?.x509.fingerprint256 ?? null, validUntil: null, notice: this.notice };
    }
    return { mode: this.settings.mode, names: this.served.names, fingerprintSha256: this.served.fingerprintSha256, validUntil: this.served.validUntil, notice: this.notice };
  }

  /** The household root (PEM and DER), made on demand so a device can trust it even before HTTPS is on. */
  async householdRoot(): Promise<{ pem: string; der: Buffer; fingerprintSha256: string }> {
    const ca = this.ca ?? (await this.serialize(() => this.ensureAuthority()));
    return { pem: ca.certPem, der: ca.x509.raw, fingerprintSha256: ca.x509.fingerprint256 };
  }

  /** The port HTTPS answers on (app.ts reports it), null while it is closed. */
  get listeningPort(): number | null {
    return this.httpsPort;
  }

  setListeningPort(port: number | null): void {
    this.httpsPort = port;
  }

  /** Called after each change of what is served; a change (an admin's switch) resolves once every listener has. */
  onChange(listener: () => void | Promise<void>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Whether a request's host name is one Hearth answers to (the DNS-rebinding guard): an IP address
   * (a page cannot rebind an address), or exactly a DNS name on the certificate in use.
   */
  hostAllowed(hostname: string): boolean {
    const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
    if (!host) return false;
    if (isIP(host)) return true;
    return this.state().names.dns.includes(host);
  }

  /** The scheduled check: renews the household certificate when it nears its end or the addresses changed. */
  refresh(): Promise<boolean> {
    return this.serialize(async () => {
      if (this.settings.mode !== 'household') return false;
      return this.ensureServerCertificate(false);
    });
  }

  /** A new household server certificate now (the admin's "renew"); in own mode, the own pair read again. */
  renew(): Promise<void> {
    return this.serialize(async () => {
      await this.apply(true);
    });
  }

  /** Switches to the household certificate. */
  useHousehold(): Promise<void> {
    return this.serialize(async () => {
      this.saveSettings({ mode: 'household' });
      await this.apply(false);
    });
  }

  /** Checks the admin's chain and key (422 with a sentence) and serves them from now on. */
  useOwn(certPem: string, keyPem: string): Promise<void> {
    return this.serialize(async () => {
      checkOwnCertificate(certPem, keyPem, this.deps.clock.now());
      this.write('ownCert', certPem.trim() + '\n');
      this.write('ownKey', keyPem.trim() + '\n', true);
      this.saveSettings({ mode: 'own' });
      await this.apply(false);
    });
  }

  /** HTTP only: app.ts closes the HTTPS port. */
  turnOff(): Promise<void> {
    return this.serialize(async () => {
      this.saveSettings({ mode: 'off' });
      this.served = null;
      await this.changed();
    });
  }

  private saveSettings(patch: Partial<Settings>): void {
    this.settings = { ...this.settings, ...patch };
    this.write('settings', JSON.stringify(this.settings, null, 2) + '\n');
  }

  private async changed(): Promise<void> {
    for (const l of this.listeners) {
      try {
        await l();
      } catch (err) {
        this.deps.logger.error({ err }, 'TLS change listener failed');
      }
    }
  }

  private async apply(force: boolean): Promise<void> {
    this.notice = null;
    if (this.settings.mode === 'off') {
      this.served = null;
      // the root stays, so the trust page can still offer it
      if (existsSync(this.file('caCert'))) await this.ensureAuthority();
      return;
    }
    if (this.settings.mode === 'own') {
      const cert = this.read('ownCert');
      const key = this.read('ownKey');
      if (cert && key) {
        try {
          const checked = checkOwnCertificate(cert, key, this.deps.clock.now());
          this.served = {
            material: { cert: checked.chain.map((c) => c.toString()).join(''), key },
            names: checked.names,
            validUntil: checked.validUntil,
            fingerprintSha256: checked.rootFingerprintSha256,
          };
          await this.changed();
          return;
        } catch (err) {
          this.notice = `Your own certificate can no longer be used (${(err as Error).message}) Hearth serves the household certificate until you paste a new one.`;
          this.deps.logger.warn({ code: (err as { code?: string }).code }, 'the admin’s own certificate can no longer be used; serving the household certificate instead');
        }
      } else {
        this.notice = 'Your own certificate’s files are missing: Hearth serves the household certificate until you paste it again.';
      }
      // the own pair is missing or expired: the household certificate keeps HTTPS working
    }
    await this.ensureAuthority();
    await this.ensureServerCertificate(force);
  }

  /** Loads the household root, or makes it (first start, or its files were removed). */
  private async ensureAuthority(): Promise<KeyedCertificate & { x509: X509Certificate }> {
    if (this.ca) return this.ca;
    const certPem = this.read('caCert');
    const keyPem = this.read('caKey');
    if (certPem && keyPem) {
      const x509 = new X509Certificate(certPem);
      if (new Date(x509.validTo).getTime() - this.deps.clock.now().getTime() > RENEW_BEFORE_MS) {
        this.ca = { certPem, keyPem, x509 };
        return this.ca;
      }
      this.deps.logger.warn('the household certificate authority is ending; making a new one (devices will need to trust it again)');
    }
    const label = hostLabel(this.deps.hostName);
    const made = await createAuthority(label, this.deps.clock.now());
    this.write('caKey', made.keyPem, true);
    this.write('caCert', made.certPem);
    rmSync(this.file('serverCert'), { force: true });
    this.saveSettings({ caLabel: label });
    this.ca = { ...made, x509: new X509Certificate(made.certPem) };
    this.deps.logger.info({ fingerprintSha256: this.ca.x509.fingerprint256 }, 'made the household certificate authority');
    return this.ca;
  }

  /**
   * The household names this root may vouch for: a host renamed since the root was made keeps
   * `<new>.local` (`.local` is permitted) but not the bare new name, which the root does not permit.
   */
  private certifiableNames(): CertificateNames {
    const permitted = permittedDnsNames(this.settings.caLabel ?? hostLabel(this.deps.hostName));
    const names = this.householdNames();
    return { dns: names.dns.filter((n) => nameWithinConstraints(n, permitted)), ips: names.ips.filter((n) => nameWithinConstraints(n, permitted)) };
  }

  /** Serves the household server certificate, issuing a new one when forced, missing, ending or for other names. */
  private async ensureServerCertificate(force: boolean): Promise<boolean> {
    const ca = await this.ensureAuthority();
    const now = this.deps.clock.now();
    const want = this.certifiableNames();
    const certPem = this.read('serverCert');
    const keyPem = this.read('serverKey');
    if (!force && certPem && keyPem) {
      const cert = new X509Certificate(certPem);
      const current = namesFromSubjectAltName(cert.subjectAltName);
      const fresh = new Date(cert.validTo).getTime() - now.getTime() > RENEW_BEFORE_MS && new Date(cert.validFrom).getTime() <= now.getTime();
      if (fresh && sameNames(current, want) && cert.checkIssued(ca.x509) && cert.verify(ca.x509.publicKey)) {
        if (this.served?.material.cert === certPem) return false;
        await this.serveHousehold(certPem, keyPem, cert, ca.x509);
        return true;
      }
    }
    const issued = await issueServerCertificate(ca, want, now);
    this.write('serverKey', issued.keyPem, true);
    this.write('serverCert', issued.certPem);
    const cert = new X509Certificate(issued.certPem);
    this.deps.logger.info({ names: [...want.dns, ...want.ips], validUntil: cert.validTo }, 'issued the household server certificate');
    await this.serveHousehold(issued.certPem, issued.keyPem, cert, ca.x509);
    return true;
  }

  private async serveHousehold(certPem: string, keyPem: string, cert: X509Certificate, root: X509Certificate): Promise<void> {
    this.served = {
      material: { cert: certPem, key: keyPem },
      names: namesFromSubjectAltName(cert.subjectAltName),
      validUntil: new Date(cert.validTo),
      fingerprintSha256: root.fingerprint256,
    };
    await this.changed();
  }
}
