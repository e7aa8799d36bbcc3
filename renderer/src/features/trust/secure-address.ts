// Where this device reaches Hearth securely, and whether it does: the HTTPS address for the name
// the page was opened by (when the certificate names it), and a probe that fetches it. A device
// that does not trust the certificate gets a network error (the browser refuses the TLS handshake);
// one that does gets an answer, opaque because it is another origin (no-cors), which is enough.
import type { TlsStatusResponse } from '../../../../server/modules/tls/schema.js';

/** A remembered "always open the secure address" on this device. */
export const ALWAYS_SECURE_KEY = 'hearth.secure-address';

/** The secure address for this page's host, or null when HTTPS is off or names none of this device's ways in. */
export function secureOrigin(status: Pick<TlsStatusResponse, 'mode' | 'httpsPort' | 'names'>, location: Pick<Location, 'hostname'>): string | null {
  if (status.mode === 'off' || status.httpsPort === null || status.names.length === 0) return null;
  const host = location.hostname.replace(/^\[|\]$/g, '');
  const named = status.names.includes(host.toLowerCase()) ? host : status.names.find((n) => !/^[\d.]+$|:/.test(n) && n !== 'localhost');
  if (!named) return null;
  const shown = named.includes(':') ? `[${named}]` : named;
  return `https://${shown}:${status.httpsPort}`;
}

/** Whether this browser opens the secure address without a certificate warning (it trusts the certificate). */
export async function probeSecure(origin: string, timeoutMs = 5000): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    await fetch(`${origin}/api/system/tls`, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: controller.signal });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export type DeviceOs = 'ios' | 'android' | 'windows' | 'macos' | 'chromeos' | 'linux';

/** The device's system, from what the browser says of itself (an iPad asking for desktop pages says Macintosh, with touch). */
export function detectOs(nav: { userAgent: string; maxTouchPoints?: number }): DeviceOs {
  const ua = nav.userAgent;
  if (/iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && (nav.maxTouchPoints ?? 0) > 1)) return 'ios';
  if (/Android/.test(ua)) return 'android';
  if (/CrOS/.test(ua)) return 'chromeos';
  if (/Windows/.test(ua)) return 'windows';
  if (/Macintosh|Mac OS X/.test(ua)) return 'macos';
  return 'linux';
}
