// Which Host names count as this computer or the home network (the first-run admin is only made
// through one of them, so a DNS-rebinding page on a public name cannot take over a new install).
import { describe, expect, it } from 'vitest';
import { isHomeHostName } from '../../server/http/guards.js';

describe('isHomeHostName', () => {
  it('accepts addresses, localhost, the computer name and home-only suffixes', () => {
    for (const h of ['127.0.0.1', '192.168.1.20', '10.0.0.5', '[::1]', '::1', '[fe80::1]', 'localhost', 'LOCALHOST', 'my-computer', 'My-Mac.local', 'my-mac.local.', 'hearth.lan', 'nas.home', 'hearth.home.arpa', 'pc.internal', 'pc.localdomain', 'app.localhost']) {
      expect(isHomeHostName(h), h).toBe(true);
    }
  });

  it('refuses public names, however they resolve, and nothing at all', () => {
    for (const h of ['attacker.example', 'evil.com', 'local.evil.com', 'lan.example.org', 'hearth.localhost.evil.com', 'home.arpa.evil.com', '']) {
      expect(isHomeHostName(h), h).toBe(false);
    }
  });
});
