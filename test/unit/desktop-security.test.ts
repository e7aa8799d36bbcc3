// Windows stay on the server's origin; the preload bridge answers only that origin.
import { describe, expect, it } from 'vitest';
import { isTrustedSender, navigationDecision } from '../../main/security.js';

const ORIGIN = 'http://127.0.0.1:8787';

describe('navigation lock', () => {
  it.each([
    ['http://127.0.0.1:8787/library', 'allow'],
    ['http://127.0.0.1:8787/api/archives/x/A/Main_Page', 'allow'],
    ['http://localhost:8787/', 'open-external'],
    ['http://127.0.0.1:8090/', 'open-external'],
    ['https://en.wikipedia.org/wiki/Hearth', 'open-external'],
    ['mailto:someone@example.com', 'open-external'],
    ['file:///etc/passwd', 'deny'],
    ['javascript:alert(1)', 'deny'],
    ['data:text/html,<b>x</b>', 'deny'],
    ['hearth-custom://x', 'deny'],
    ['not a url', 'deny'],
  ])('%s -> %s', (target, decision) => {
    expect(navigationDecision(target, ORIGIN)).toBe(decision);
  });

  it('allows nothing in-app while the server is down', () => {
    expect(navigationDecision('http://127.0.0.1:8787/', null)).toBe('open-external');
  });

  it('trusts IPC only from the server origin', () => {
    expect(isTrustedSender('http://127.0.0.1:8787/features', ORIGIN)).toBe(true);
    expect(isTrustedSender('http://127.0.0.1:8788/', ORIGIN)).toBe(false);
    expect(isTrustedSender('data:text/html,x', ORIGIN)).toBe(false);
    expect(isTrustedSender(undefined, ORIGIN)).toBe(false);
    expect(isTrustedSender('http://127.0.0.1:8787/', null)).toBe(false);
  });
});
