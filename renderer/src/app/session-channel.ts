// Every tab of this browser shares one session cookie, so a sign-out or a sign-in in one tab is
// every tab's: this channel tells the others at once (BroadcastChannel, same origin only), and the
// session provider follows — a signed-out tab goes to the profile picker, a tab still showing
// someone else switches to the person who signed in (it would otherwise act with their cookie).
export type SessionMessage = { type: 'signed-out' } | { type: 'signed-in'; userId: string };

const NAME = 'hearth-session';

export interface SessionChannel {
  announce(message: SessionMessage): void;
  close(): void;
}

/** Opens the channel; `onMessage` hears the other tabs (never this one's own announcements). */
export function openSessionChannel(onMessage: (message: SessionMessage) => void): SessionChannel {
  if (typeof BroadcastChannel === 'undefined') return { announce: () => undefined, close: () => undefined };
  const channel = new BroadcastChannel(NAME);
  channel.onmessage = (e: MessageEvent<SessionMessage>) => {
    const m = e.data;
    if (m && (m.type === 'signed-out' || (m.type === 'signed-in' && typeof m.userId === 'string'))) onMessage(m);
  };
  return { announce: (m) => channel.postMessage(m), close: () => channel.close() };
}
