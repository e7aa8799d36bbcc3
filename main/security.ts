// Navigation rules for every window: pages stay on the server's own origin; web links open in the
// system browser; anything else (file:, javascript:, custom schemes) goes nowhere. The bridge in
// preload answers only pages from that origin. Pure, so the rules are unit-tested.

export type NavigationDecision = 'allow' | 'open-external' | 'deny';

const EXTERNAL_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

export function navigationDecision(target: string, serverOrigin: string | null): NavigationDecision {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'deny';
  }
  if (serverOrigin !== null && originOf(target) === serverOrigin) return 'allow';
  return EXTERNAL_PROTOCOLS.has(url.protocol) ? 'open-external' : 'deny';
}

/** Whether an IPC message comes from a page of the server's own origin (not an embedded or foreign frame). */
export function isTrustedSender(senderUrl: string | undefined, serverOrigin: string | null): boolean {
  return serverOrigin !== null && senderUrl !== undefined && originOf(senderUrl) === serverOrigin;
}
